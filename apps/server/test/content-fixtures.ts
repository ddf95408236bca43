import sharp from 'sharp';
import { LandingPage, Master } from '@shop/shared/content';
import { planContentAssets, seedContent, type Asset } from '../src/seed/content.ts';
import { DEMO_LANDING } from '../src/seed/content-people.ts';
import { findOne, upsert } from '../src/modules/content/repo.ts';
import { createObjectStore } from '../src/modules/storage/create-store.ts';
import { contentChanged } from '../src/modules/content/service.ts';
import type { TestContext } from './helpers.ts';

/** Landing page products: active test catalog slugs plus a draft (next-spring), which must be left out. */
export const TEST_FEATURED_SLUGS = ['li-shan', 'next-spring', 'dong-ding', 'white-cup'];
/** The master whose related products point at the test catalog (the others keep demo slugs that do not exist here). */
export const TEST_MASTER = {
  slug: 'chen-jia-he',
  relatedProductSlugs: ['zhuni-pot', 'next-spring', 'dong-ding'],
};

/** Tiny stand-ins for the drawn assets: an 8×8 PNG, and a PDF that names its file (so sizes differ). */
const pdfBytes = (name: string) => Buffer.from(`%PDF-1.4\n% ${name}\n%%EOF\n`);

/**
 * The real demo site content (every document of the seed), with tiny pictures and PDFs instead of
 * the drawn ones so it takes a fraction of a second. Returns the stored assets, by `bucket/name`.
 */
export async function seedTestContent(ctx: TestContext): Promise<Map<string, Asset>> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
    .png()
    .toBuffer();
  const assets: Asset[] = planContentAssets().map(({ kind, render: _render, ...a }) => ({
    ...a,
    bytes: kind === 'image' ? png : pdfBytes(a.name),
  }));
  // The same store the app's storage module uses (files under DATA_DIR/storage in tests), as the seed CLI does.
  const store = createObjectStore(ctx.app.config);
  await ctx.database.db.transaction((tx) => seedContent(tx, store, assets));

  const db = ctx.database.db;
  await upsert(db, {
    kind: 'landing',
    slug: 'landing',
    data: LandingPage.parse({ ...DEMO_LANDING, featuredProductSlugs: TEST_FEATURED_SLUGS }),
    sortOrder: 0,
  });
  const master = await findOne(db, 'master', TEST_MASTER.slug);
  if (!master) throw new Error(`demo master ${TEST_MASTER.slug} was not seeded`);
  await upsert(db, {
    kind: 'master',
    slug: TEST_MASTER.slug,
    data: Master.parse({ ...master.data, relatedProductSlugs: TEST_MASTER.relatedProductSlugs }),
    sortOrder: master.sortOrder,
  });
  contentChanged();
  return new Map(assets.map((a) => [`${a.bucket}/${a.name}`, a]));
}
