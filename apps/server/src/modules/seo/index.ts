import type { FastifyPluginAsync } from 'fastify';
import { productsOnSale } from '../catalog/service.ts';
import { SITEMAP_ROUTES } from './meta.ts';

const escapeXml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/** robots.txt and sitemap.xml (public pages and products on sale). */
const seo: FastifyPluginAsync = async (app) => {
  const base = app.config.publicUrl;
  app.get('/robots.txt', async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(
        [
          'User-agent: *',
          'Allow: /',
          'Allow: /api/storage/',
          'Disallow: /api/',
          'Disallow: /member',
          'Disallow: /cart',
          'Disallow: /payment',
          'Disallow: /sandbox/',
          'Disallow: /dev/',
          'Disallow: /admin',
          `Sitemap: ${base}/sitemap.xml`,
          '',
        ].join('\n'),
      ),
  );

  app.get('/sitemap.xml', async (_request, reply) => {
    const active = await productsOnSale(app.db);
    const urls = [
      ...SITEMAP_ROUTES.map((r) => ({ loc: `${base}${r.path}`, lastmod: null as string | null })),
      ...active.map((p) => ({
        loc: `${base}/mall/${encodeURIComponent(p.slug)}`,
        lastmod: p.updatedAt.toISOString().slice(0, 10),
      })),
    ];
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
      .map(
        (u) =>
          `  <url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`,
      )
      .join('\n')}\n</urlset>\n`;
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=600')
      .send(xml);
  });
};

export default seo;
