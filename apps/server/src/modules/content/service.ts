import { and, eq, inArray } from 'drizzle-orm';
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
import type { DownloadView, FaqView, IpRecordView, JobView, LandingView, MasterView, MediaListView, TeamMemberView } from '@shop/shared/content-views';
import { objectUrl } from '@shop/shared/storage-paths';
import { fillTokensDeep } from '@shop/shared/content-tokens';
import type { DbOrTx } from '../../db/client.ts';
import { storageObjects } from '../../db/schema.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { imageView, productCards } from '../catalog/service.ts';
import * as repo from './repo.ts';

/**
 * Parse what the database holds (a document that no longer fits its schema is a bug, loudly), with
 * amount tokens such as {{home.fee}} filled from the shipping table checkout uses.
 */
function parse<S extends z.ZodType>(schema: S, row: repo.ContentRow): z.infer<S> {
  return fillTokensDeep(schema.parse(row.data));
}

async function one<S extends z.ZodType>(db: DbOrTx, kind: string, slug: string, schema: S): Promise<z.infer<S>> {
  const row = await repo.findOne(db, kind, slug);
  if (!row) throw new NotFoundError('找不到這個頁面的內容。');
  return parse(schema, row);
}

const img = (i: ContentImage) => imageView(i);

export async function landing(db: DbOrTx): Promise<LandingView> {
  const rows = await repo.listByKinds(db, ['landing', 'master', 'media']);
  const pageRow = rows.find((r) => r.kind === 'landing');
  if (!pageRow) throw new NotFoundError('找不到首頁內容。');
  const page = parse(LandingPage, pageRow);
  const masters = rows.filter((r) => r.kind === 'master').slice(0, 3).map((r) => parse(Master, r));
  const media = rows.filter((r) => r.kind === 'media').map((r) => parse(MediaItem, r)).sort((a, b) => b.date.localeCompare(a.date)).slice(0, 3);
  return { page, products: await productCards(db, page.featuredProductSlugs), masters: masters.map((m) => ({ ...m, portrait: img(m.portrait) })), media };
}

export const company = (db: DbOrTx) => one(db, 'company', 'home', CompanyPage);
export const textPage = (db: DbOrTx, slug: TextPageSlug) => one(db, 'textPage', slug, TextPage);

export async function team(db: DbOrTx): Promise<TeamMemberView[]> {
  return (await repo.listByKind(db, 'team')).map((r) => parse(TeamMember, r)).map((m) => ({ ...m, portrait: img(m.portrait) }));
}

export async function teamMember(db: DbOrTx, slug: string): Promise<TeamMemberView> {
  const m = await one(db, 'team', slug, TeamMember);
  return { ...m, portrait: img(m.portrait) };
}

export async function masters(db: DbOrTx): Promise<MasterView[]> {
  return (await repo.listByKind(db, 'master')).map((r) => parse(Master, r)).map((m) => ({ ...m, portrait: img(m.portrait) }));
}

export async function master(db: DbOrTx, slug: string): Promise<MasterView> {
  const m = await one(db, 'master', slug, Master);
  return { ...m, portrait: img(m.portrait), products: await productCards(db, m.relatedProductSlugs) };
}

export async function jobs(db: DbOrTx): Promise<JobView[]> {
  return (await repo.listByKind(db, 'job')).map((r) => parse(Job, r)).sort((a, b) => b.posted.localeCompare(a.posted));
}

export const MEDIA_PAGE_SIZE = 6;

/** Newest first, optionally one type, paged. */
export async function media(db: DbOrTx, type: 'article' | 'video' | 'all', page: number): Promise<MediaListView> {
  const all = (await repo.listByKind(db, 'media')).map((r) => parse(MediaItem, r)).filter((m) => type === 'all' || m.type === type);
  all.sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
  const totalPages = Math.max(1, Math.ceil(all.length / MEDIA_PAGE_SIZE));
  return { items: all.slice((page - 1) * MEDIA_PAGE_SIZE, page * MEDIA_PAGE_SIZE), page, totalPages, total: all.length };
}

/** Files with their size and type from the storage service (one extra query for all of them). */
export async function downloads(db: DbOrTx): Promise<DownloadView[]> {
  const items = (await repo.listByKind(db, 'download')).map((r) => parse(DownloadItem, r));
  const names = items.map((i) => i.file.name);
  const metas = names.length
    ? await db.select().from(storageObjects).where(and(inArray(storageObjects.name, names), inArray(storageObjects.bucket, [...new Set(items.map((i) => i.file.bucket))])))
    : [];
  return items.flatMap((i) => {
    const meta = metas.find((m) => m.bucket === i.file.bucket && m.name === i.file.name);
    if (!meta) return [];
    const { file, ...rest } = i;
    return [{ ...rest, url: objectUrl(file.bucket, file.name), size: meta.size, contentType: meta.contentType }];
  });
}

export async function ipRecords(db: DbOrTx): Promise<IpRecordView[]> {
  return (await repo.listByKind(db, 'ip')).map((r) => parse(IpRecord, r)).map((r) => ({ ...r, certificate: r.certificate ? img(r.certificate) : null }));
}

export async function faq(db: DbOrTx): Promise<FaqView> {
  const rows = await repo.listByKinds(db, ['faqCategory', 'faq']);
  return {
    categories: rows.filter((r) => r.kind === 'faqCategory').map((r) => parse(FaqCategory, r)),
    entries: rows.filter((r) => r.kind === 'faq').map((r) => parse(FaqEntry, r)),
  };
}

export async function storageObjectExists(db: DbOrTx, bucket: string, name: string): Promise<boolean> {
  const [row] = await db.select({ name: storageObjects.name }).from(storageObjects).where(and(eq(storageObjects.bucket, bucket), eq(storageObjects.name, name))).limit(1);
  return Boolean(row);
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
