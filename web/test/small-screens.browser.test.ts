import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useBrowser } from '../../test/support/browser.js';
import { ROUTES, type Site, buildSite, visit } from './siteRoutes.js';

/** Every page at 320 px (the narrowest phones, and larger ones zoomed at 400%) and at 390 px, a common phone. */
const NARROWEST = { width: 320, height: 640 };
const PHONE = { width: 390, height: 844 };

/** How far the page is wider than the window, and the elements that stick out past its right edge. */
async function overflow(page: Page): Promise<{ excess: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const sticking: Element[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 0.5) continue;
      // Inside a box that scrolls sideways, sticking out is that box's business. A box that clips
      // (overflow hidden) may cut off decoration, but text cut off at the screen's edge is lost.
      const decoration = (element.textContent ?? '').trim() === '' && !element.matches('a, button, input, select');
      let clipped = false;
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
        if (
          (scrolls || (style.overflowX !== 'visible' && decoration)) &&
          parent.getBoundingClientRect().right <= width + 0.5
        ) {
          clipped = true;
          break;
        }
      }
      if (!clipped) sticking.push(element);
    }
    // The innermost ones name the cause; their ancestors only stick out because of them.
    const culprits = sticking
      .filter((element) => !sticking.some((other) => other !== element && element.contains(other)))
      .map((element) => {
        const classes = typeof element.className === 'string' ? element.className.trim().replace(/\s+/g, '.') : '';
        const text = (element.textContent ?? '').trim().slice(0, 30);
        return `<${element.tagName.toLowerCase()}${classes ? `.${classes}` : ''}> "${text}" right edge ${Math.round(element.getBoundingClientRect().right)}`;
      });
    return { excess: document.documentElement.scrollWidth - width, culprits: culprits.slice(0, 5) };
  });
}

describe('small screens: no page is wider than the phone', () => {
  const browser = useBrowser();
  let site: Site;
  beforeAll(async () => {
    site = await buildSite(browser());
  });

  const cases = [
    ...ROUTES.map((route) => ({ route, viewport: NARROWEST })),
    ...ROUTES.map((route) => ({ route, viewport: PHONE })),
  ].map((c) => ({ ...c, name: c.route.name, width: c.viewport.width }));

  it.each(cases)('$name fits a $width px window', async ({ route, viewport }) => {
    const page = await site.open(route.who, viewport);
    try {
      await visit(page, route, site.data);
      const { excess, culprits } = await overflow(page);
      if (excess > 0 || culprits.length > 0)
        await screenshot(page, `too-wide-${viewport.width}-${route.name.replace(/[^a-z0-9]+/gi, '-')}`);
      else if (viewport === NARROWEST) await screenshot(page, `fits-320-${route.name.replace(/[^a-z0-9]+/gi, '-')}`);
      expect(excess, `${excess} px too wide: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
      expect(culprits, 'text cut off at the right edge').toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
