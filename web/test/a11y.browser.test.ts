import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, screenshot, useBrowser } from '../../test/support/browser.js';
import { type Violation, axeViolations, isSerious, violationLine } from './axe.js';
import { ROUTES, type Site, buildSite, visit } from './siteRoutes.js';

/**
 * Tabs through the page from the top and names every control that, focused by the keyboard,
 * shows no outline of at least 2 px on itself or on the box around it (a search box outlines
 * itself around its input).
 */
async function controlsWithoutFocusStyle(page: Page): Promise<string[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const missing: string[] = [];
  const seen = new Set<string>();
  for (let stop = 0; stop < 150; stop += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return null;
      const path: string[] = [];
      for (let node: Element | null = element; node && node !== document.body; node = node.parentElement) {
        path.unshift(`${node.tagName}:${[...(node.parentElement?.children ?? [])].indexOf(node)}`);
      }
      const outlined = (node: Element | null) => {
        if (!node) return false;
        const style = getComputedStyle(node);
        return (
          style.outlineStyle !== 'none' &&
          Number.parseFloat(style.outlineWidth) >= 2 &&
          !/rgba\(.*,\s*0\)$/.test(style.outlineColor) &&
          style.outlineColor !== 'transparent'
        );
      };
      const shown =
        outlined(element) || outlined(element.parentElement) || outlined(element.parentElement?.parentElement ?? null);
      const label = (element.getAttribute('aria-label') ?? element.textContent ?? '')
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 40);
      const classes = typeof element.className === 'string' ? element.className.trim().replace(/\s+/g, '.') : '';
      return {
        key: path.join('/'),
        shown,
        name: `<${element.tagName.toLowerCase()}${classes ? ` .${classes}` : ''}> "${label}"`,
      };
    });
    if (!focused || seen.has(focused.key)) break;
    seen.add(focused.key);
    if (!focused.shown) missing.push(focused.name);
  }
  return missing;
}

describe('accessibility of every screen (axe-core, keyboard focus)', () => {
  const browser = useBrowser();
  let site: Site;
  beforeAll(async () => {
    site = await buildSite(browser());
  });

  it.each(ROUTES)(
    '$name: no serious or critical axe violation, headings in order, keyboard focus shown on every control',
    async (route) => {
      const page = await site.open(route.who, DESKTOP);
      try {
        await visit(page, route, site.data);
        const violations = await axeViolations(page);
        const line = violationLine;
        // Serious and critical, and the heading order (moderate for axe, but a skipped level leaves
        // screen-reader users guessing how the page is organised).
        const fails = (v: Violation) => isSerious(v) || v.id === 'heading-order';
        const serious = violations.filter(fails).map(line);
        const minor = violations.filter((v) => !fails(v)).map(line);
        if (minor.length > 0) console.log(`[a11y] ${route.name}, moderate and minor:\n  ${minor.join('\n  ')}`);
        expect(serious, serious.join('\n')).toEqual([]);
        const noFocusStyle = await controlsWithoutFocusStyle(page);
        expect(noFocusStyle, noFocusStyle.join('\n')).toEqual([]);
      } catch (error) {
        await screenshot(page, `a11y-failed-${route.name.replace(/[^a-z0-9]+/gi, '-')}`);
        throw error;
      } finally {
        await page.context().close();
      }
    },
  );

  // The controls issue 19 named: reached with Tab, each shows the outline (and a person can see it).
  const primaries = [
    {
      path: '/request',
      name: 'Submit Request',
      control: (page: Page) => page.getByTestId('request-submit'),
      // It is enabled, and so focusable, once there is an address.
      before: (page: Page) => page.getByTestId('request-address').fill('1 Focus Way, Austin, TX 78704'),
    },
    { path: '/login', name: 'Sign In', control: (page: Page) => page.getByTestId('login-submit') },
    {
      path: '/properties',
      name: 'View Full Report',
      control: (page: Page) => page.getByTestId('view-full-report').first(),
    },
    { path: '/zip', name: 'Grid', control: (page: Page) => page.getByTestId('zip-view-grid') },
    { path: '/zip', name: 'List', control: (page: Page) => page.getByTestId('zip-view-list') },
  ];
  it.each(primaries)(
    'the $name button shows a 3 px outline when reached with Tab',
    async ({ path, name, control, before }) => {
      const page = await site.open('public', DESKTOP);
      try {
        await visit(page, { name: path, path, who: 'public' }, site.data);
        await before?.(page);
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        const target = control(page);
        let reached = false;
        for (let stop = 0; stop < 120 && !reached; stop += 1) {
          await page.keyboard.press('Tab');
          reached = await target.evaluate((element) => element === document.activeElement);
        }
        expect(reached, `${name} is reachable with Tab`).toBe(true);
        const outline = await target.evaluate((element) => {
          const style = getComputedStyle(element);
          return { style: style.outlineStyle, width: style.outlineWidth, offset: style.outlineOffset };
        });
        expect(outline).toEqual({ style: 'solid', width: '3px', offset: '2px' });
        await screenshot(page, `focus-${name.toLowerCase().replace(/\s+/g, '-')}`);
      } finally {
        await page.context().close();
      }
    },
  );
});
