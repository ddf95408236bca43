import sharp from 'sharp';
import type { z } from 'zod';
import { CONTENT_KINDS, type ContentImage, type ContentKind } from '@shop/shared/content';
import type { Tx } from '../db/client.ts';
import { BUCKETS } from '../modules/storage/buckets.ts';
import type { ObjectStore } from '../modules/storage/backends.ts';
import { storeObject } from '../modules/storage/service.ts';
import { storeDocument } from '../modules/content/service.ts';
import {
  DEMO_COMPANY,
  DEMO_JOBS,
  DEMO_LANDING,
  DEMO_MASTERS,
  DEMO_MEDIA,
  DEMO_TEAM,
} from './content-people.ts';
import { DEMO_FAQ, DEMO_FAQ_CATEGORIES, DEMO_TEXT_PAGES } from './content-policies.ts';
import { DEMO_DOWNLOADS, DEMO_IP_RECORDS } from './content-records.ts';
import { jpegPagesToPdf, renderCertificate, renderDocumentPage } from './documents.ts';
import { renderPortrait } from './portraits.ts';

export interface Asset {
  bucket: 'content' | 'downloads' | 'members';
  name: string;
  bytes: Buffer;
  alt: string;
}

/** What the demo content needs drawn: portraits, certificates and downloadable PDFs, each with its drawing. */
export function planContentAssets(): Array<
  Omit<Asset, 'bytes'> & { kind: 'image' | 'pdf'; render(): Promise<Buffer> }
> {
  const png = (svg: string) => sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
  return [
    ...[...DEMO_TEAM, ...DEMO_MASTERS].map((p) => ({
      kind: 'image' as const,
      bucket: 'content' as const,
      name: `people/${p.slug}.png`,
      alt: p.portrait.alt,
      render: () => png(renderPortrait(p.portrait, 800)),
    })),
    ...DEMO_IP_RECORDS.flatMap((r) =>
      r.certificate
        ? [
            {
              kind: 'image' as const,
              bucket: 'content' as const,
              name: `certificates/${r.slug}.png`,
              alt: r.certificate.alt,
              render: () => png(renderCertificate(r.certificate!)),
            },
          ]
        : [],
    ),
    ...DEMO_DOWNLOADS.map((d) => ({
      kind: 'pdf' as const,
      bucket: d.membersOnly ? ('members' as const) : ('downloads' as const),
      name: d.document.fileName,
      alt: d.title,
      async render() {
        const pages = [];
        for (const [i, page] of d.document.pages.entries()) {
          const jpeg = await sharp(
            Buffer.from(renderDocumentPage(page, i + 1, d.document.pages.length, d.title)),
          )
            .flatten({ background: '#ffffff' })
            .jpeg({ quality: 82 })
            .toBuffer();
          pages.push({ jpeg, width: 1240, height: 1754 });
        }
        return jpegPagesToPdf(pages);
      },
    })),
  ];
}

/** Draws the portraits and certificates and binds the downloadable PDFs (CPU work, before the transaction). */
export async function renderContentAssets(): Promise<Asset[]> {
  const assets: Asset[] = [];
  for (const { render, kind: _kind, ...a } of planContentAssets())
    assets.push({ ...a, bytes: await render() });
  return assets;
}

/** The site's demo content: every document checked against its schema before it is stored. */
export async function seedContent(tx: Tx, store: ObjectStore, assets: Asset[]): Promise<string> {
  const images = new Map<string, ContentImage>();
  for (const a of assets) {
    const meta = await storeObject({ db: tx, store }, BUCKETS[a.bucket]!, a.bucket, a.name, a.bytes, {
      uploadedBy: null,
    });
    images.set(`${a.bucket}/${a.name}`, {
      bucket: a.bucket,
      name: a.name,
      alt: a.alt,
      width: meta.width ?? 800,
      height: meta.height ?? 800,
    });
  }
  const image = (bucket: string, name: string) => {
    const found = images.get(`${bucket}/${name}`);
    if (!found) throw new Error(`demo asset ${bucket}/${name} was not rendered`);
    return found;
  };
  let count = 0;
  const put = async <K extends ContentKind>(
    kind: K,
    slug: string,
    data: z.input<(typeof CONTENT_KINDS)[K]>,
    sortOrder = 0,
  ) => {
    const parsed = CONTENT_KINDS[kind].parse(data) as Record<string, unknown>;
    await storeDocument(tx, { kind, slug, data: parsed, sortOrder });
    count += 1;
  };

  await put('landing', 'landing', DEMO_LANDING);
  await put('company', 'home', DEMO_COMPANY);
  for (const [slug, page] of Object.entries(DEMO_TEXT_PAGES)) await put('textPage', slug, page);
  for (const [i, m] of DEMO_TEAM.entries())
    await put('team', m.slug, { ...m, portrait: image('content', `people/${m.slug}.png`) }, i);
  for (const [i, m] of DEMO_MASTERS.entries())
    await put('master', m.slug, { ...m, portrait: image('content', `people/${m.slug}.png`) }, i);
  for (const [i, j] of DEMO_JOBS.entries()) await put('job', j.slug, j, i);
  for (const [i, m] of DEMO_MEDIA.entries()) await put('media', m.slug, m, i);
  for (const [i, d] of DEMO_DOWNLOADS.entries()) {
    const { document, ...rest } = d;
    await put(
      'download',
      d.slug,
      { ...rest, file: { bucket: d.membersOnly ? 'members' : 'downloads', name: document.fileName } },
      i,
    );
  }
  for (const [i, r] of DEMO_IP_RECORDS.entries())
    await put(
      'ip',
      r.slug,
      { ...r, certificate: r.certificate ? image('content', `certificates/${r.slug}.png`) : null },
      i,
    );
  for (const [i, c] of DEMO_FAQ_CATEGORIES.entries()) await put('faqCategory', c.slug, c, i);
  for (const [i, f] of DEMO_FAQ.entries()) await put('faq', f.slug, f, i);
  return `${count} 筆網站內容（${assets.length} 個圖檔與文件）`;
}
