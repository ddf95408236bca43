import sharp from 'sharp';
import type { Tx } from '../db/client.ts';
import type { ProductImage } from '../db/schema.ts';
import { BUCKETS } from '../modules/storage/buckets.ts';
import type { ObjectStore } from '../modules/storage/backends.ts';
import { storeObject } from '../modules/storage/service.ts';
import {
  archiveProduct,
  changeProductSlug,
  createCategory,
  createProduct,
} from '../modules/catalog/service.ts';
import { DEMO_CATEGORIES, DEMO_PRODUCTS } from './catalog-data.ts';
import { renderIllustration } from './illustrations.ts';

const DAY = 86_400_000;

/** Draws every demo picture (SVG rendered to PNG by code, never downloaded), two at a time. */
export async function renderDemoImages(): Promise<Map<string, Buffer>> {
  const jobs = DEMO_PRODUCTS.flatMap((p) =>
    p.images.map((art, i) => ({ key: `demo/${p.slug}/${i + 1}.png`, art })),
  );
  const out = new Map<string, Buffer>();
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      out.set(
        job.key,
        await sharp(Buffer.from(renderIllustration(job.art, 1000)))
          .png({ compressionLevel: 6 })
          .toBuffer(),
      );
    }
  };
  await Promise.all([worker(), worker()]);
  return out;
}

/**
 * The demo catalog: categories, products with variants and pictures, all through the catalog's
 * services, so each variant's starting stock is in the stock ledger. One product is renamed and
 * one archived with a replacement, so old links exercise the redirect table.
 */
export async function seedCatalog(tx: Tx, store: ObjectStore, images: Map<string, Buffer>): Promise<string> {
  const ids = new Map<string, string>();
  for (const c of [...DEMO_CATEGORIES].sort(
    (a, b) => Number(Boolean(a.parent)) - Number(Boolean(b.parent)),
  )) {
    ids.set(
      c.slug,
      await createCategory(tx, {
        slug: c.slug,
        name: c.name,
        description: c.description,
        sortOrder: c.sortOrder,
        parentId: c.parent ? ids.get(c.parent) : null,
      }),
    );
  }

  const productIds = new Map<string, string>();
  const now = Date.now();
  for (const p of DEMO_PRODUCTS) {
    const productImages: ProductImage[] = [];
    for (const [i, art] of p.images.entries()) {
      const name = `demo/${p.slug}/${i + 1}.png`;
      const bytes = images.get(name);
      if (!bytes) throw new Error(`demo image ${name} was not rendered`);
      const meta = await storeObject({ db: tx, store }, BUCKETS.products!, 'products', name, bytes, {
        uploadedBy: null,
      });
      productImages.push({
        bucket: 'products',
        name,
        alt: art.alt,
        width: meta.width ?? 800,
        height: meta.height ?? 1000,
      });
    }
    const categoryId = ids.get(p.category);
    if (!categoryId) throw new Error(`demo product ${p.slug} names an unknown category ${p.category}`);
    const id = await createProduct(
      tx,
      {
        slug: p.slug === RENAMED.now ? RENAMED.was : p.slug,
        name: p.name,
        summary: p.summary,
        categoryId,
        tags: [...p.tags],
        specs: [...p.specs],
        description: [...p.description],
        images: productImages,
        status: p.status === 'archived' ? 'active' : p.status,
        sortWeight: p.sortWeight,
        soldCount: p.soldCount,
        createdAt: new Date(now - p.createdDaysAgo * DAY),
      },
      p.variants.map((v) => ({ ...v, options: { ...v.options }, compareAtPrice: v.compareAtPrice ?? null })),
    );
    productIds.set(p.slug, id);
  }

  // Archived demo products point to the closest product still on sale.
  for (const p of DEMO_PRODUCTS.filter((d) => d.status === 'archived')) {
    const replacement = DEMO_PRODUCTS.find(
      (d) => d.status === 'active' && d.category === p.category && d.slug !== p.slug,
    );
    await archiveProduct(tx, productIds.get(p.slug)!, replacement ? productIds.get(replacement.slug)! : null);
  }
  // A renamed product: its old address (from a printed catalogue) still works.
  const renamedId = productIds.get(RENAMED.now);
  if (renamedId) await changeProductSlug(tx, renamedId, RENAMED.now);
  const active = DEMO_PRODUCTS.filter((p) => p.status === 'active').length;
  return `${DEMO_CATEGORIES.length} 個分類、${active} 件上架商品（${images.size} 張商品圖）`;
}

/** The demo's renamed product: created under its old slug, then renamed, which writes a redirect. */
export const RENAMED = { was: 'dongding-oolong-classic', now: 'dongding-oolong' } as const;
