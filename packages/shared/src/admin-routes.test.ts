import { describe, expect, it } from 'vitest';
import { ADMIN_ROUTES, adminPath, adminRelativePath, matchAdminRoute } from './admin-routes.ts';

describe('console paths', () => {
  it('builds every link from the route table, values encoded, in the pattern order', () => {
    expect(adminPath.dashboard()).toBe('/admin');
    expect(adminPath.orders()).toBe('/admin/orders');
    expect(adminPath.orderDetail('TW20261122000001')).toBe('/admin/orders/TW20261122000001');
    expect(adminPath.packingSlip('TW20261122000001')).toBe('/admin/orders/TW20261122000001/packing-slip');
    expect(adminPath.contentEdit('faq', 'new')).toBe('/admin/content/faq/new');
    expect(adminPath.contentEdit('textPage', '關於 我們/1')).toBe(
      '/admin/content/textPage/%E9%97%9C%E6%96%BC%20%E6%88%91%E5%80%91%2F1',
    );
  });

  it('has a builder for every route, and each built path is matched back to its own route', () => {
    for (const route of ADMIN_ROUTES) {
      const params = route.path.match(/:[a-zA-Z]+/g) ?? [];
      const build = adminPath[route.id] as (...values: string[]) => string;
      const path = build(...params.map((_, i) => `v${i}`));
      expect(matchAdminRoute(path)?.route.id, path).toBe(route.id);
    }
  });

  it('gives nested routers the path below /admin', () => {
    expect(adminRelativePath('/admin')).toBe('');
    expect(adminRelativePath('/admin/orders/:orderNo')).toBe('orders/:orderNo');
  });
});
