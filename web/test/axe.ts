import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// axe-core's own build, injected into each page as the axe documentation does for browsers.
const axeSource: string = createRequire(import.meta.url)('axe-core').source;

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** axe's violations on the page (or within the element a selector names). */
export async function axeViolations(page: Page, within?: string): Promise<Violation[]> {
  // Evaluated rather than added as a <script>: the pages' policy allows no inline script.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (selector) => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document | Element, options: object) => Promise<{ violations: Violation[] }> };
      }
    ).axe;
    const context = selector ? document.querySelector(selector) : document;
    if (!context) throw new Error(`nothing matches ${selector}`);
    const result = await axe.run(context, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  }, within ?? null);
}

/** A violation as a readable line with its first few elements. */
export const violationLine = (v: Violation) =>
  `${v.id} (${v.impact}) ${v.help}: ${v.nodes.length} element(s):\n${v.nodes
    .slice(0, 4)
    .map((n) => `    ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 220)}`)
    .join('\n')}`;

/** The violations a page must not have: serious and critical ones. */
export const isSerious = (v: Violation) => v.impact === 'serious' || v.impact === 'critical';
