import type { z } from 'zod';
import {
  CompanyPage,
  DownloadItem,
  FaqCategory,
  FaqEntry,
  IpRecord,
  Job,
  LandingPage,
  MediaItem,
  Master,
  TeamMember,
  TextPage,
  type ContentImage,
  type TextPageSlug,
} from '@shop/shared/content';
import type {
  DownloadView,
  FaqView,
  IpRecordView,
  JobView,
  LandingView,
  MasterView,
  MediaListView,
  TeamMemberView,
} from '@shop/shared/content-views';
import { objectUrl } from '@shop/shared/storage-paths';
import { fillTokensDeep } from '@shop/shared/content-tokens';
import { pageCount, pageWindow } from '@shop/shared/paging';
import type { DbOrTx } from '../../db/client.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { imageView, productCards } from '../catalog/service.ts';
import { currentShippingRules } from '../site/shipping-rules.ts';
import * as repo from './repo.ts';

/**
 * Parse what the database holds (a document that no longer fits its schema is a bug, loudly), with
 * amount tokens such as {{home.fee}} filled from the shipping table checkout uses.
 */
function parse<S extends z.ZodType>(schema: S, row: repo.ContentRow): z.infer<S> {
  return fillTokensDeep(schema.parse(row.data), currentShippingRules());
}

/**
 * In preview (a console user with `?preview=1`) a document is read as its saved draft, where it
 * has one; visitors always get what was published.
 */
function current(row: repo.ContentRow, preview: boolean): repo.ContentRow {
  return preview && row.draftData ? { ...row, data: row.draftData } : row;
}

async function one<S extends z.ZodType>(
  db: DbOrTx,
  kind: string,
  slug: string,
  schema: S,
  preview: boolean,
): Promise<z.infer<S>> {
  const row = await repo.findOne(db, kind, slug, { preview });
  if (!row) throw new NotFoundError('找不到這個頁面的內容。');
  return parse(schema, current(row, preview));
}

async function all<S extends z.ZodType>(
  db: DbOrTx,
  kind: string,
  schema: S,
  preview: boolean,
): Promise<Array<z.infer<S>>> {
  return (await repo.listByKind(db, kind, { preview })).map((r) => parse(schema, current(r, preview)));
}

const img = (i: ContentImage) => imageView(i);

export async function landing(db: DbOrTx, preview = false): Promise<LandingView> {
  const rows = (await repo.listByKinds(db, ['landing', 'master', 'media'], { preview })).map((r) =>
    current(r, preview),
  );
  const pageRow = rows.find((r) => r.kind === 'landing');
  if (!pageRow) throw new NotFoundError('找不到首頁內容。');
  const page = parse(LandingPage, pageRow);
  const masters = rows
    .filter((r) => r.kind === 'master')
    .slice(0, 3)
    .map((r) => parse(Master, r));
  const media = rows
    .filter((r) => r.kind === 'media')
    .map((r) => parse(MediaItem, r))
    .sort((a, b) => b.date.localeCompare(a.date))
    .slice(0, 3);
  return {
    page,
    products: await productCards(db, page.featuredProductSlugs),
    masters: masters.map((m) => ({ ...m, portrait: img(m.portrait) })),
    media,
  };
}

export const company = (db: DbOrTx, preview = false) => one(db, 'company', 'home', CompanyPage, preview);
export const textPage = (db: DbOrTx, slug: TextPageSlug, preview = false) =>
  one(db, 'textPage', slug, TextPage, preview);

export async function team(db: DbOrTx, preview = false): Promise<TeamMemberView[]> {
  return (await all(db, 'team', TeamMember, preview)).map((m) => ({ ...m, portrait: img(m.portrait) }));
}

export async function teamMember(db: DbOrTx, slug: string, preview = false): Promise<TeamMemberView> {
  const m = await one(db, 'team', slug, TeamMember, preview);
  return { ...m, portrait: img(m.portrait) };
}

export async function masters(db: DbOrTx, preview = false): Promise<MasterView[]> {
  return (await all(db, 'master', Master, preview)).map((m) => ({ ...m, portrait: img(m.portrait) }));
}

export async function master(db: DbOrTx, slug: string, preview = false): Promise<MasterView> {
  const m = await one(db, 'master', slug, Master, preview);
  return { ...m, portrait: img(m.portrait), products: await productCards(db, m.relatedProductSlugs) };
}

export async function jobs(db: DbOrTx, preview = false): Promise<JobView[]> {
  return (await all(db, 'job', Job, preview)).sort((a, b) => b.posted.localeCompare(a.posted));
}

export const MEDIA_PAGE_SIZE = 6;

/** Newest first, optionally one type, paged. */
export async function media(
  db: DbOrTx,
  type: 'article' | 'video' | 'all',
  page: number,
  preview = false,
): Promise<MediaListView> {
  const items = (await all(db, 'media', MediaItem, preview)).filter((m) => type === 'all' || m.type === type);
  items.sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
  const { offset, limit } = pageWindow(page, MEDIA_PAGE_SIZE);
  return {
    items: items.slice(offset, offset + limit),
    page,
    totalPages: pageCount(items.length, MEDIA_PAGE_SIZE),
    total: items.length,
  };
}

/** Files with their size and type from the storage service (one extra query for all of them). */
export async function downloads(db: DbOrTx, preview = false): Promise<DownloadView[]> {
  const items = await all(db, 'download', DownloadItem, preview);
  const names = items.map((i) => i.file.name);
  const metas = names.length
    ? await repo.storedFiles(db, [...new Set(items.map((i) => i.file.bucket))], names)
    : [];
  return items.flatMap((i) => {
    const meta = metas.find((m) => m.bucket === i.file.bucket && m.name === i.file.name);
    if (!meta) return [];
    const { file, ...rest } = i;
    return [
      { ...rest, url: objectUrl(file.bucket, file.name), size: meta.size, contentType: meta.contentType },
    ];
  });
}

export async function ipRecords(db: DbOrTx, preview = false): Promise<IpRecordView[]> {
  return (await all(db, 'ip', IpRecord, preview)).map((r) => ({
    ...r,
    certificate: r.certificate ? img(r.certificate) : null,
  }));
}

export async function faq(db: DbOrTx, preview = false): Promise<FaqView> {
  const rows = (await repo.listByKinds(db, ['faqCategory', 'faq'], { preview })).map((r) =>
    current(r, preview),
  );
  return {
    categories: rows.filter((r) => r.kind === 'faqCategory').map((r) => parse(FaqCategory, r)),
    entries: rows.filter((r) => r.kind === 'faq').map((r) => parse(FaqEntry, r)),
  };
}

export async function storageObjectExists(db: DbOrTx, bucket: string, name: string): Promise<boolean> {
  return repo.storedFileExists(db, bucket, name);
}

/** Writes a published document as it is (the demo content; the console's edits go through admin-service.ts). */
export async function storeDocument(
  db: DbOrTx,
  values: { kind: string; slug: string; data: Record<string, unknown>; sortOrder: number },
): Promise<void> {
  await repo.upsert(db, values);
}

const listeners = new Set<() => void>();

/** Called after every content edit in this process (the read cache listens). */
export function onContentChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function contentChanged(): void {
  for (const listener of listeners) listener();
}
