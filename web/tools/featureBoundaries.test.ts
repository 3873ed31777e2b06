import { describe, expect, it } from 'vitest';
import { WEB_SRC, crossingOf, findCrossings, importsOf } from './featureBoundaries';

describe('web feature boundaries', () => {
  it('holds for the whole app', () => {
    expect(findCrossings(WEB_SRC)).toEqual([]);
  });

  it("refuses a feature's insides to another feature and to the shared layers", () => {
    expect(crossingOf('features/admin/routes/AdminDashboardPage.tsx', '../../leads/api/leads')).toMatch(
      /inside the leads feature/,
    );
    expect(crossingOf('features/admin/AdminThing.ts', '../zip/components/ZipCard')).toMatch(/inside the zip feature/);
    expect(crossingOf('pages/LandingPage.tsx', '../features/zip/routes/ZipListPage')).toMatch(/inside the zip/);
    expect(crossingOf('components/SiteHeader.tsx', '../features/zip/zipFormat')).toMatch(/shared components\/ layer/);
  });

  it("allows a feature's root modules, its own insides, and the router's pages", () => {
    expect(crossingOf('features/admin/routes/AdminDashboardPage.tsx', '../../leads/WebhookManagement')).toBeNull();
    expect(crossingOf('features/admin/routes/AdminDashboardPage.tsx', '../api/adminDashboard')).toBeNull();
    expect(crossingOf('pages/AdminLoginPage.tsx', '../features/admin/security.css')).toBeNull();
    expect(crossingOf('app/router.tsx', '../features/zip/routes/ZipListPage')).toBeNull();
    expect(crossingOf('features/zip/mapMarkers.ts', '../../components/usmap/types')).toBeNull();
  });

  it('reads static imports, re-exports and lazy imports', () => {
    const source = `import a from './a';\nimport type { B } from "../b";\nexport { c } from './c';\nimport './d.css';\nconst e = () => import('../e');\nimport x from 'react';`;
    expect(importsOf(source).sort()).toEqual(['../b', '../e', './a', './c', './d.css']);
  });
});
