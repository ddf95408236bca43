import { createHash } from 'node:crypto';
import {
  CONTENT_KIND_DEFS,
  CONTENT_KIND_ORDER,
  CONTENT_PAGES,
  contentFieldTrail,
  contentIssueFields,
  contentItemTitle,
  contentTokenFields,
  normalizeContentDocument,
  type ContentDocument,
  type ContentList,
  type ContentOverview,
} from '@shop/shared/admin-content';
import {
  CONTENT_KINDS,
  type ContentImage,
  type ContentKind,
  type DownloadItem,
  type FaqEntry,
  type IpRecord,
} from '@shop/shared/content';
import type { DbOrTx } from '../../db/client.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import * as repo from './repo.ts';
import { storageObjectExists } from './service.ts';

/**
 * The console's side of site content. Edits are saved as a draft beside the published document
 * (`draft_data`); publishing copies the draft over and clears it. Visitors only ever read `data`
 * (and the console's preview reads the draft). Every document is checked against its kind's
 * schema, with zh-TW messages per field path, before it is stored.
 */

type Row = repo.ContentRow;
type Doc = Record<string, unknown>;

const iso = (d: Date) => d.toISOString();
/** The fingerprint of what an editor opened (see ContentDocument.revision). */
const revisionOf = (r: { data: unknown; draftData: unknown }) =>
  createHash('sha256')
    .update(JSON.stringify([r.data, r.draftData]))
    .digest('hex')
    .slice(0, 32);

const findRow = (db: DbOrTx, kind: ContentKind, slug: string, lock = false): Promise<Row | null> =>
  repo.findItem(db, kind, slug, lock);

async function mustFind(db: DbOrTx, kind: ContentKind, slug: string, lock = false): Promise<Row> {
  const row = await findRow(db, kind, slug, lock);
  if (!row) throw new NotFoundError('找不到這筆網站內容，可能已被刪除。');
  return row;
}

const kindRows = (db: DbOrTx, kind: ContentKind) => repo.itemsOfKind(db, kind);

function refuseForPages(kind: ContentKind, action: string): void {
  if (CONTENT_KIND_DEFS[kind].single)
    throw new BadRequestError(`「${CONTENT_KIND_DEFS[kind].label}」是固定頁面，不能${action}。`, {
      kind: `固定頁面不能${action}`,
    });
}

/** Every kind with its counts and last change (the console's content page). */
export async function overview(db: DbOrTx): Promise<ContentOverview> {
  const rows = await repo.itemSummaries(db);
  return {
    kinds: CONTENT_KIND_ORDER.map((kind) => {
      const mine = rows.filter((r) => r.kind === kind);
      const latest = mine.reduce<Date | null>(
        (max, r) => (!max || r.updatedAt > max ? r.updatedAt : max),
        null,
      );
      const pages = CONTENT_PAGES[kind] ?? [];
      return {
        kind,
        total: mine.length,
        visible: mine.filter((r) => r.published).length,
        drafts: mine.filter((r) => r.hasDraft).length,
        updatedAt: latest ? iso(latest) : null,
        pages: pages.flatMap((slug) => {
          const row = mine.find((r) => r.slug === slug);
          return row ? [{ slug, hasDraft: row.hasDraft, updatedAt: iso(row.updatedAt) }] : [];
        }),
      };
    }),
  };
}

/** A kind's items in site order, named from their draft where there is one (what the editor sees). */
export async function listItems(db: DbOrTx, kind: ContentKind): Promise<ContentList> {
  const pages = CONTENT_PAGES[kind];
  const rows = (await kindRows(db, kind)).sort((a, b) =>
    pages ? pages.indexOf(a.slug) - pages.indexOf(b.slug) : 0,
  );
  const categories =
    kind === 'faq'
      ? new Map(
          (await kindRows(db, 'faqCategory')).map((c) => [
            c.slug,
            String((c.draftData ?? c.data).name ?? c.slug),
          ]),
        )
      : null;
  return {
    kind,
    items: rows.map((r) => {
      const { title, subtitle } = contentItemTitle(kind, r.draftData ?? r.data);
      return {
        slug: r.slug,
        title,
        subtitle: categories && subtitle ? (categories.get(subtitle) ?? subtitle) : subtitle,
        sortOrder: r.sortOrder,
        published: r.published,
        hasDraft: r.draftData !== null,
        updatedAt: iso(r.updatedAt),
      };
    }),
  };
}

export async function getItem(db: DbOrTx, kind: ContentKind, slug: string): Promise<ContentDocument> {
  const r = await mustFind(db, kind, slug);
  return {
    kind,
    slug: r.slug,
    data: r.data,
    draft: r.draftData,
    published: r.published,
    sortOrder: r.sortOrder,
    updatedAt: iso(r.updatedAt),
    revision: revisionOf(r),
  };
}

function refusal(kind: ContentKind, data: unknown, fields: Record<string, string>): BadRequestError {
  const entries = Object.entries(fields);
  const [key, message] = entries[0]!;
  const where = key === '_' ? '' : `「${contentFieldTrail(kind, data, key)}」`;
  const lead =
    entries.length > 1
      ? `有 ${entries.length} 個欄位需要修正，第一個是${where}`
      : `${where || '內容'}需要修正`;
  return new BadRequestError(`${lead}：${message}`, fields);
}

/** The storage object a picture or file points at must exist (an upload that never finished does not). */
async function checkReferences(db: DbOrTx, kind: ContentKind, doc: Doc): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  const image = async (key: string, img: ContentImage | null) => {
    if (!img) return;
    if (img.bucket !== 'content') fields[key] = '圖片必須上傳到網站內容圖庫，請重新上傳';
    else if (!(await storageObjectExists(db, img.bucket, img.name)))
      fields[key] = '找不到這張圖片，請重新上傳';
  };
  if (kind === 'team' || kind === 'master') await image('portrait', doc.portrait as ContentImage);
  if (kind === 'ip') await image('certificate', (doc as IpRecord).certificate);
  if (kind === 'download') {
    const d = doc as DownloadItem;
    const bucket = d.membersOnly ? 'members' : 'downloads';
    if (d.file.bucket !== bucket)
      fields.file = d.membersOnly
        ? '會員限定的檔案要放在會員專區，請重新上傳'
        : '公開的檔案要放在公開下載區，請重新上傳';
    else if (!(await storageObjectExists(db, d.file.bucket, d.file.name)))
      fields.file = '找不到這個檔案，請重新上傳';
  }
  if (kind === 'faq') {
    const category = (doc as FaqEntry).category;
    if (!(await findRow(db, 'faqCategory', category))) fields.category = '沒有這個分類，請從清單中選擇';
  }
  return fields;
}

/**
 * Checks a document from the editor: tidy it, parse it with the kind's schema (zh-TW messages per
 * field path), refuse amount tokens nobody knows and pictures or files that are not in storage.
 * The slug of an existing item is the one in its URL. Throws 400 with every field's message.
 */
export async function validateDocument(
  db: DbOrTx,
  kind: ContentKind,
  slug: string | null,
  raw: Doc,
): Promise<Doc> {
  const input = normalizeContentDocument(kind, raw);
  if (slug !== null && !CONTENT_KIND_DEFS[kind].single) input.slug = slug;
  const parsed = CONTENT_KINDS[kind].safeParse(input);
  const fields = parsed.success ? {} : contentIssueFields(kind, input, parsed.error.issues);
  for (const [key, message] of Object.entries(contentTokenFields(input))) fields[key] ??= message;
  if (!parsed.success || Object.keys(fields).length > 0) throw refusal(kind, input, fields);
  const doc = parsed.data as Doc;
  Object.assign(fields, await checkReferences(db, kind, doc));
  if (Object.keys(fields).length > 0) throw refusal(kind, input, fields);
  return doc;
}

export interface Change {
  readonly before: unknown;
  readonly after: unknown;
}

function assertRevision(row: Row, baseRevision: string | undefined): void {
  if (baseRevision !== undefined && revisionOf(row) !== baseRevision) {
    throw new ConflictError(
      '這份內容在您開啟後，已有其他人儲存或發布了新的版本。您的修改仍在畫面上、尚未儲存：請先複製要保留的文字，重新整理頁面載入最新版本後再貼上。',
      'edit-conflict',
    );
  }
}

/**
 * Saves the editor's document as the draft; the live page does not change. With `baseRevision`
 * (what the editor opened), a draft or publication saved by someone else meanwhile is not
 * overwritten: 409 `edit-conflict`.
 */
export async function saveDraft(
  tx: DbOrTx,
  kind: ContentKind,
  slug: string,
  raw: Doc,
  baseRevision?: string,
): Promise<Change> {
  const row = await mustFind(tx, kind, slug, true);
  assertRevision(row, baseRevision);
  const doc = await validateDocument(tx, kind, slug, raw);
  await repo.updateItem(tx, row.id, { draftData: doc });
  return { before: { draft: row.draftData }, after: { draft: doc } };
}

/** The draft becomes what visitors see (checked once more: a category may have gone meanwhile). */
export async function publish(
  tx: DbOrTx,
  kind: ContentKind,
  slug: string,
  baseRevision?: string,
): Promise<Change> {
  const row = await mustFind(tx, kind, slug, true);
  assertRevision(row, baseRevision);
  if (!row.draftData) throw new ConflictError('沒有尚未發布的草稿。');
  const doc = await validateDocument(tx, kind, slug, row.draftData);
  await repo.updateItem(tx, row.id, { data: doc, draftData: null });
  return { before: { data: row.data }, after: { data: doc } };
}

export async function discardDraft(tx: DbOrTx, kind: ContentKind, slug: string): Promise<Change> {
  const row = await mustFind(tx, kind, slug, true);
  if (!row.draftData) throw new ConflictError('沒有草稿可以捨棄。');
  await repo.updateItem(tx, row.id, { draftData: null });
  return { before: { draft: row.draftData }, after: { draft: null } };
}

/**
 * A new list item, stored as its published document but hidden: visitors see nothing until it is
 * shown, while the editor can preview it (preview includes hidden items). It goes to the end of
 * the list.
 */
export async function createItem(
  tx: DbOrTx,
  kind: ContentKind,
  raw: Doc,
): Promise<{ slug: string; change: Change }> {
  refuseForPages(kind, '新增');
  const slug = typeof raw.slug === 'string' ? raw.slug.trim() : '';
  if (slug === 'new')
    throw new BadRequestError('網址代碼不能是「new」。', { slug: '「new」是保留字，請換一個網址代碼' });
  const doc = await validateDocument(tx, kind, null, { ...raw, slug });
  if (await findRow(tx, kind, slug))
    throw new BadRequestError('這個網址代碼已經有人使用。', { slug: '這個網址代碼已經有人使用，請換一個' });
  const sortOrder = ((await repo.maxSortOrder(tx, kind)) ?? -1) + 1;
  await repo.insertItem(tx, { kind, slug, data: doc, draftData: null, sortOrder, published: false });
  return { slug, change: { before: null, after: { data: doc, published: false, sortOrder } } };
}

export async function deleteItem(tx: DbOrTx, kind: ContentKind, slug: string): Promise<Change> {
  refuseForPages(kind, '刪除');
  const row = await mustFind(tx, kind, slug, true);
  if (kind === 'faqCategory') {
    const entries = (await kindRows(tx, 'faq')).filter(
      (f) => (f.draftData ?? f.data).category === slug || f.data.category === slug,
    );
    if (entries.length > 0)
      throw new ConflictError(`這個分類還有 ${entries.length} 個問題，請先把它們移到其他分類或刪除。`);
  }
  await repo.deleteItem(tx, row.id);
  return {
    before: { data: row.data, draft: row.draftData, published: row.published, sortOrder: row.sortOrder },
    after: null,
  };
}

/** Shows or hides a list item on the site. */
export async function setVisibility(
  tx: DbOrTx,
  kind: ContentKind,
  slug: string,
  published: boolean,
): Promise<Change> {
  refuseForPages(kind, '隱藏');
  const row = await mustFind(tx, kind, slug, true);
  await repo.updateItem(tx, row.id, { published });
  return { before: { published: row.published }, after: { published } };
}

/** The list's order on the site: `slugs` must name every item of the kind once. */
export async function reorder(tx: DbOrTx, kind: ContentKind, slugs: readonly string[]): Promise<Change> {
  refuseForPages(kind, '調整順序');
  if (!CONTENT_KIND_DEFS[kind].orderable)
    throw new BadRequestError(CONTENT_KIND_DEFS[kind].orderNote ?? '這類內容不能調整順序。', {
      slugs: '這類內容依日期排列，不能手動調整順序',
    });
  const rows = await repo.itemsOfKind(tx, kind, true);
  const current = rows.map((r) => r.slug);
  if (current.length !== slugs.length || !slugs.every((s) => current.includes(s))) {
    throw new ConflictError('清單已經有人更動過，請重新整理後再調整順序。');
  }
  for (const [i, slug] of slugs.entries()) {
    const row = rows.find((r) => r.slug === slug)!;
    if (row.sortOrder !== i) await repo.updateItem(tx, row.id, { sortOrder: i });
  }
  return { before: { slugs: current }, after: { slugs: [...slugs] } };
}
