import { useEffect } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router-dom';
import { HelpButton } from '../help/HelpButton';
import { SessionProvider } from '../session/SessionProvider';
import './app.css';

/** A new page starts at its top unless the address points at an anchor in it. */
function ScrollToTop() {
  const { pathname, hash } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect must run on every change of page
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}

/** While the next page's code is on its way the current page stays; a thin bar says something is happening. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div className="nav-progress" data-testid="nav-progress">
      <output className="visually-hidden">Loading page</output>
    </div>
  );
}

/**
 * The first stop of the keyboard on every page: past the header straight to the page's own
 * content. Every page's <main> has id "main" and tabIndex -1, so focus lands on it and the next
 * Tab goes on from there.
 */
function SkipLink() {
  return (
    <a href="#main" className="skip-link" data-testid="skip-link">
      Skip to content
    </a>
  );
}

/** What every page shares: the skip link, the session, scroll reset, the loading bar and the floating help button. */
export function RootLayout() {
  // Before the session's notice too: the skip link is the first thing Tab reaches.
  return (
    <>
      <SkipLink />
      <SessionProvider>
        <ScrollToTop />
        <NavigationProgress />
        <Outlet />
        <HelpButton />
      </SessionProvider>
    </>
  );
}
