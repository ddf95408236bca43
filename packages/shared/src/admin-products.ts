import { z } from 'zod';
import { PagingQuery, pageOf } from './admin.ts';
import { parseCsv, CsvSyntaxError, isBlankRecord, restoreFormula } from './csv.ts';
import { groupDigits } from './money.ts';

/**
 * The console's products and stock: list and editor shapes, the create/update bodies, stock
 * adjustments, archiving and the CSV columns. The server validates with these; the editor checks
 * the same rules before sending, so a field's message reads the same on both sides.
 */

export const PRODUCT_STATUSES = ['active', 'draft', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
export const PRODUCT_STATUS_LABELS: Readonly<Record<ProductStatus, string>> = {
  active: '上架中',
  draft: '草稿',
  archived: '已下架',
};

export const STOCK_FILTERS = ['low', 'out'] as const;
export type StockFilter = (typeof STOCK_FILTERS)[number];
export const STOCK_FILTER_LABELS: Readonly<Record<StockFilter, string>> = {
  low: '庫存偏低（含缺貨）',
  out: '缺貨',
};

export const SLUG_PATTERN = /^[a-z0-9-]+$/;
export const SKU_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const MAX_PRICE = 10_000_000;
export const MAX_STOCK = 1_000_000;

// ── field rules (shared by the JSON bodies and the CSV rows) ──────────────────────────────────

const slugField = (label = '網址代碼') =>
  z
    .string({ error: `請填寫${label}` })
    .trim()
    .min(1, `請填寫${label}`)
    .max(80, { message: `${label}不能超過 80 個字元`, abort: true })
    .regex(SLUG_PATTERN, `${label}只能使用小寫英文字母、數字與連字號（-）`);

const skuField = z
  .string({ error: '請填寫 SKU' })
  .trim()
  .min(1, '請填寫 SKU')
  .max(40, { message: 'SKU 不能超過 40 個字元', abort: true })
  .regex(SKU_PATTERN, 'SKU 只能使用英文字母、數字、點、底線與連字號，並以英文字母或數字開頭');

export const priceField = z
  .number({ error: '價格必須是正整數' })
  .int('價格必須是正整數')
  .positive('價格必須是正整數')
  .max(MAX_PRICE, `價格不能超過 ${groupDigits(MAX_PRICE)}`);

const compareAtField = z
  .number({ error: '原價必須是正整數' })
  .int('原價必須是正整數')
  .positive('原價必須是正整數')
  .max(MAX_PRICE, `原價不能超過 ${groupDigits(MAX_PRICE)}`)
  .nullable();

const stockField = z
  .number({ error: '庫存必須是 0 以上的整數' })
  .int('庫存必須是 0 以上的整數')
  .min(0, '庫存必須是 0 以上的整數')
  .max(MAX_STOCK, `庫存不能超過 ${groupDigits(MAX_STOCK)}`);

const thresholdField = z
  .number({ error: '低庫存門檻必須是 0 以上的整數' })
  .int('低庫存門檻必須是 0 以上的整數')
  .min(0, '低庫存門檻必須是 0 以上的整數')
  .max(MAX_STOCK, `低庫存門檻不能超過 ${groupDigits(MAX_STOCK)}`);

/** An option's name (規格, 包裝) and one of its values (75 g, 罐裝): the editor checks each as typed. */
export const OptionName = z
  .string()
  .trim()
  .min(1, '選項名稱不能空白')
  .max(20, { message: '選項名稱不能超過 20 個字元', abort: true })
  .regex(/^[^=;]+$/, '選項名稱不能包含「=」或「;」');
export const OptionValue = z
  .string()
  .trim()
  .min(1, '選項內容不能空白')
  .max(40, { message: '選項內容不能超過 40 個字元', abort: true })
  .regex(/^[^=;]+$/, '選項內容不能包含「=」或「;」');
const optionName = OptionName;
const optionValue = OptionValue;
/** At most this many options per product (each variant picks one value of each). */
export const MAX_OPTIONS = 3;
/** At most this many variants per product. */
export const MAX_VARIANTS = 50;

/** Option name → value, e.g. { 規格: '75 g', 包裝: '罐裝' }; at most 3 options. */
export const VariantOptions = z
  .record(optionName, optionValue, { error: '選項格式不正確' })
  .refine((o) => Object.keys(o).length <= MAX_OPTIONS, `每個規格最多 ${MAX_OPTIONS} 個選項`);
export type VariantOptions = z.infer<typeof VariantOptions>;

/** `規格=75 g;包裝=罐裝` (the CSV and the editor's options cell). */
export function formatOptions(options: Readonly<Record<string, string>>): string {
  return Object.entries(options)
    .map(([k, v]) => `${k}=${v}`)
    .join(';');
}

/** Reads `規格=75 g;包裝=罐裝`; an empty text is no options. Returns a zh-TW message when malformed. */
export function parseOptions(
  text: string,
): { ok: true; options: Record<string, string> } | { ok: false; message: string } {
  const options: Record<string, string> = {};
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, options };
  for (const part of trimmed.split(';')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0)
      return { ok: false, message: `「${part.trim()}」缺少「=」，請寫成「名稱=內容」，多個選項以「;」分隔` };
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!name) return { ok: false, message: '選項名稱不能空白' };
    if (!value) return { ok: false, message: `選項「${name}」的內容不能空白` };
    if (name in options) return { ok: false, message: `選項「${name}」重複了` };
    options[name] = value;
  }
  const checked = VariantOptions.safeParse(options);
  if (!checked.success) return { ok: false, message: checked.error.issues[0]?.message ?? '選項格式不正確' };
  return { ok: true, options: checked.data };
}

// ── list ──────────────────────────────────────────────────────────────────────────────────────

export const AdminProductListQuery = PagingQuery.extend({
  q: z.string().trim().max(100, '搜尋文字不能超過 100 個字元').optional(),
  status: z.enum(PRODUCT_STATUSES, { message: '狀態只能是上架中、草稿或已下架' }).optional(),
  category: z
    .string()
    .max(80, { message: '分類代碼格式不正確', abort: true })
    .regex(/^[a-z0-9-]{1,80}$/, '分類代碼格式不正確')
    .optional(),
  stock: z.enum(STOCK_FILTERS, { message: '庫存篩選只能是 low 或 out' }).optional(),
}).strict();
export type AdminProductListQuery = z.infer<typeof AdminProductListQuery>;

export const AdminProductRow = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  status: z.enum(PRODUCT_STATUSES),
  category: z.object({ slug: z.string(), name: z.string() }),
  /** Over the variants on sale; null when every variant is deactivated. */
  priceMin: z.number().int().nullable(),
  priceMax: z.number().int().nullable(),
  totalStock: z.number().int(),
  /** Some variant on sale is at or below its low-stock threshold (sold out included). */
  lowStock: z.boolean(),
  variantCount: z.number().int(),
  coverUrl: z.string().nullable(),
  updatedAt: z.string(),
});
export type AdminProductRow = z.infer<typeof AdminProductRow>;
export const AdminProductList = pageOf(AdminProductRow);

export const ProductIdParams = z.object({ productId: z.uuid({ message: '商品編號格式不正確' }) }).strict();
export const VariantIdParams = z.object({ variantId: z.uuid({ message: '規格編號格式不正確' }) }).strict();

// ── editor ────────────────────────────────────────────────────────────────────────────────────

export const AdminVariant = z.object({
  id: z.string(),
  sku: z.string(),
  options: z.record(z.string(), z.string()),
  price: z.number().int(),
  compareAtPrice: z.number().int().nullable(),
  stock: z.number().int(),
  lowStockThreshold: z.number().int(),
  /** false: deactivated (停售), kept because orders point to it. */
  active: z.boolean(),
  /** Some order holds this variant, so it can be deactivated but not removed. */
  ordered: z.boolean(),
  /** Members waiting for a 貨到通知 of this variant. */
  restockWaiting: z.number().int(),
});
export type AdminVariant = z.infer<typeof AdminVariant>;

export const AdminImage = z.object({
  bucket: z.string(),
  name: z.string(),
  alt: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  url: z.string(),
});
export type AdminImage = z.infer<typeof AdminImage>;

export const StockAdjustmentView = z.object({
  id: z.string(),
  variantId: z.string(),
  sku: z.string(),
  delta: z.number().int(),
  stockAfter: z.number().int(),
  reason: z.string(),
  actorEmail: z.string().nullable(),
  at: z.string(),
});
export type StockAdjustmentView = z.infer<typeof StockAdjustmentView>;

// ── stock ledger ──────────────────────────────────────────────────────────────────────────────

/**
 * What moved a variant's stock. Every change writes one ledger row, so a variant's rows add up to
 * its stock (docs/product-rules.md).
 */
export const STOCK_MOVE_KINDS = [
  'opening',
  'initial',
  'sale',
  'cancellation',
  'expiry',
  'refund',
  'import',
  'adjustment',
] as const;
export type StockMoveKind = (typeof STOCK_MOVE_KINDS)[number];
export const STOCK_MOVE_LABELS: Readonly<Record<StockMoveKind, string>> = {
  opening: '期初庫存',
  initial: '起始庫存',
  sale: '訂單售出',
  cancellation: '訂單取消放回',
  expiry: '逾期未付款放回',
  refund: '退款放回',
  import: 'CSV 匯入',
  adjustment: '手動調整',
};

export const StockHistoryParams = z
  .object({
    productId: z.uuid({ message: '商品編號格式不正確' }),
    variantId: z.uuid({ message: '規格編號格式不正確' }),
  })
  .strict();
export const StockHistoryQuery = PagingQuery.strict();
export type StockHistoryQuery = z.infer<typeof StockHistoryQuery>;

/** One row of a variant's stock history, newest first. */
export const StockLedgerEntry = z.object({
  id: z.string(),
  kind: z.enum(STOCK_MOVE_KINDS),
  delta: z.number().int(),
  stockAfter: z.number().int(),
  reason: z.string(),
  orderNo: z.string().nullable(),
  actorEmail: z.string().nullable(),
  at: z.string(),
});
export type StockLedgerEntry = z.infer<typeof StockLedgerEntry>;

export const StockHistoryResponse = pageOf(StockLedgerEntry).extend({
  variantId: z.string(),
  sku: z.string(),
  stock: z.number().int(),
});
export type StockHistoryResponse = z.infer<typeof StockHistoryResponse>;

/** Description blocks with zh-TW messages (the same shape as catalog-blocks' DescriptionBlock). */
export const DescriptionBlockInput = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('heading'),
      text: z.string().trim().min(1, '標題不能空白').max(80, '標題不能超過 80 個字元'),
    }),
    z.object({
      type: z.literal('paragraph'),
      text: z.string().trim().min(1, '段落不能空白').max(2000, '段落不能超過 2000 個字元'),
    }),
    z.object({
      type: z.literal('list'),
      items: z
        .array(z.string().trim().min(1, '清單項目不能空白').max(300, '清單項目不能超過 300 個字元'))
        .min(1, '清單至少要有一項')
        .max(20, '清單最多 20 項'),
    }),
    z.object({
      type: z.literal('quote'),
      text: z.string().trim().min(1, '引言不能空白').max(500, '引言不能超過 500 個字元'),
      cite: z.string().trim().max(80, '出處不能超過 80 個字元').optional(),
    }),
    z.object({
      type: z.literal('steps'),
      items: z
        .array(
          z.object({
            title: z.string().trim().min(1, '步驟標題不能空白').max(40, '步驟標題不能超過 40 個字元'),
            text: z.string().trim().min(1, '步驟說明不能空白').max(300, '步驟說明不能超過 300 個字元'),
          }),
        )
        .min(1, '步驟至少要有一項')
        .max(12, '步驟最多 12 項'),
    }),
  ],
  { error: '說明區塊的類型不正確' },
);
export type DescriptionBlockInput = z.infer<typeof DescriptionBlockInput>;

export const SpecInput = z.object({
  label: z.string().trim().min(1, '規格名稱不能空白').max(20, '規格名稱不能超過 20 個字元'),
  value: z.string().trim().min(1, '規格內容不能空白').max(120, '規格內容不能超過 120 個字元'),
});

export const AdminProductDetail = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  summary: z.string(),
  status: z.enum(PRODUCT_STATUSES),
  category: z.object({ slug: z.string(), name: z.string() }),
  tags: z.array(z.string()),
  specs: z.array(z.object({ label: z.string(), value: z.string() })),
  description: z.array(z.unknown()),
  images: z.array(AdminImage),
  variants: z.array(AdminVariant),
  /** Newest first, across the product's variants. */
  adjustments: z.array(StockAdjustmentView),
  /** Where an archived product's page sends shoppers. */
  replacement: z.object({ id: z.string(), slug: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminProductDetail = Omit<z.infer<typeof AdminProductDetail>, 'description'> & {
  description: DescriptionBlockInput[];
};

export const VariantInput = z
  .object({
    /** An existing variant of this product; absent for a new one. */
    id: z.uuid({ message: '規格編號格式不正確' }).optional(),
    sku: skuField,
    options: VariantOptions,
    price: priceField,
    compareAtPrice: compareAtField,
    /** The starting stock of a new variant; existing variants change stock only through adjustments. */
    stock: stockField.optional(),
    lowStockThreshold: thresholdField,
    active: z.boolean({ error: '請選擇是否販售' }).default(true),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.compareAtPrice !== null && v.compareAtPrice <= v.price)
      ctx.addIssue({ code: 'custom', path: ['compareAtPrice'], message: '原價必須高於售價，或留白' });
  });
export type VariantInput = z.infer<typeof VariantInput>;

export const ImageInput = z
  .object({
    name: z.string({ error: '圖片名稱不正確' }).min(1, '圖片名稱不正確').max(300, '圖片名稱不正確'),
    alt: z
      .string({ error: '請填寫圖片說明' })
      .trim()
      .min(1, '請填寫圖片說明（替代文字），讓看不到圖的人也知道內容')
      .max(120, '圖片說明不能超過 120 個字元'),
  })
  .strict();

const productFields = {
  slug: slugField(),
  name: z
    .string({ error: '請填寫商品名稱' })
    .trim()
    .min(1, '請填寫商品名稱')
    .max(60, '商品名稱不能超過 60 個字元'),
  summary: z.string().trim().max(200, '摘要不能超過 200 個字元').default(''),
  categorySlug: z
    .string({ error: '請選擇分類' })
    .min(1, '請選擇分類')
    .max(80, { message: '請選擇分類', abort: true })
    .regex(/^[a-z0-9-]{1,80}$/, '請選擇分類'),
  tags: z
    .array(z.string().trim().min(1, '標籤不能空白').max(20, '每個標籤不能超過 20 個字元'))
    .max(12, '標籤最多 12 個')
    .default([]),
  specs: z.array(SpecInput).max(20, '規格說明最多 20 項').default([]),
  description: z.array(DescriptionBlockInput).max(50, '說明最多 50 個區塊').default([]),
  images: z.array(ImageInput).max(12, '圖片最多 12 張').default([]),
  variants: z.array(VariantInput).min(1, '至少要有一個規格').max(MAX_VARIANTS, `規格最多 ${MAX_VARIANTS} 個`),
};

/** SKUs and option sets must differ between the variants of one product. */
function distinctVariants(
  variants: readonly { sku: string; options: Record<string, string> }[],
  ctx: z.RefinementCtx,
) {
  const skus = new Map<string, number>();
  const optionSets = new Map<string, number>();
  variants.forEach((v, i) => {
    const sku = v.sku.toUpperCase();
    const first = skus.get(sku);
    if (first !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['variants', i, 'sku'],
        message: `SKU 與第 ${first + 1} 個規格重複`,
      });
    else skus.set(sku, i);
    const key = JSON.stringify(Object.entries(v.options).sort(([a], [b]) => a.localeCompare(b)));
    const same = optionSets.get(key);
    if (same !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['variants', i, 'options'],
        message: `選項與第 ${same + 1} 個規格相同`,
      });
    else optionSets.set(key, i);
  });
}

export const CreateProductBody = z
  .object({
    ...productFields,
    status: z.enum(['draft', 'active'], { message: '新商品的狀態只能是草稿或上架中' }).default('draft'),
  })
  .strict()
  .superRefine((b, ctx) => distinctVariants(b.variants, ctx));
export type CreateProductBody = z.infer<typeof CreateProductBody>;

export const UpdateProductBody = z
  .object({
    ...productFields,
    status: z.enum(PRODUCT_STATUSES, { message: '狀態只能是上架中、草稿或已下架' }),
    /** The updatedAt the editor loaded; a newer one on the server means someone else saved meanwhile. */
    updatedAt: z.iso.datetime({ message: '更新時間格式不正確' }).optional(),
  })
  .strict()
  .superRefine((b, ctx) => distinctVariants(b.variants, ctx));
export type UpdateProductBody = z.infer<typeof UpdateProductBody>;

export const ArchiveProductBody = z
  .object({ replacementProductId: z.uuid({ message: '替代商品的編號格式不正確' }).nullable().optional() })
  .strict();
export type ArchiveProductBody = z.infer<typeof ArchiveProductBody>;

export const ArchiveProductResponse = z.object({
  id: z.string(),
  status: z.literal('archived'),
  redirect: z.object({ from: z.string(), to: z.string() }),
});
export type ArchiveProductResponse = z.infer<typeof ArchiveProductResponse>;

export const AdjustStockBody = z
  .object({
    delta: z
      .number({ error: '調整數量必須是整數' })
      .int('調整數量必須是整數')
      .refine((n) => n !== 0, '調整數量不能是 0')
      .refine((n) => Math.abs(n) <= MAX_STOCK, `一次最多調整 ${groupDigits(MAX_STOCK)} 件`),
    reason: z
      .string({ error: '請填寫調整原因' })
      .trim()
      .min(1, '請填寫調整原因')
      .max(100, '調整原因不能超過 100 個字元'),
  })
  .strict();
export type AdjustStockBody = z.infer<typeof AdjustStockBody>;

export const AdjustStockResponse = z.object({
  variantId: z.string(),
  sku: z.string(),
  stock: z.number().int(),
  adjustment: StockAdjustmentView,
});
export type AdjustStockResponse = z.infer<typeof AdjustStockResponse>;

// ── CSV ───────────────────────────────────────────────────────────────────────────────────────

/**
 * The export's columns, in order; an import needs every one of them (in any order) except
 * `stock_at_export`. That column is the stock when the file was exported: an import changes an
 * existing variant's stock by `stock` minus it, on top of what was sold since (see
 * docs/decisions/006-security-hardening.md).
 */
export const PRODUCT_CSV_COLUMNS = [
  'product_slug',
  'product_name',
  'category_slug',
  'status',
  'sku',
  'options',
  'price',
  'compare_at_price',
  'stock',
  'low_stock_threshold',
  'stock_at_export',
] as const;
export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];
/** Columns a hand-made file may leave out. */
export const OPTIONAL_PRODUCT_CSV_COLUMNS: readonly ProductCsvColumn[] = ['stock_at_export'];

export interface ProductCsvRow {
  /** The spreadsheet row number (the header is row 1). */
  row: number;
  productSlug: string;
  productName: string;
  categorySlug: string;
  status: ProductStatus;
  sku: string;
  options: Record<string, string>;
  price: number;
  compareAtPrice: number | null;
  stock: number;
  lowStockThreshold: number;
  /** The stock when the file was exported; null when the cell or the column is empty. */
  stockAtExport: number | null;
}

export const ImportProblem = z.object({
  /** Spreadsheet row (header = 1); 0 for the file as a whole. */
  row: z.number().int(),
  /** The column's name as in the header, or null when the problem is not one cell's. */
  column: z.string().nullable(),
  message: z.string(),
});
export type ImportProblem = z.infer<typeof ImportProblem>;

/** 「第 5 列「price」：價格必須是正整數」 */
export function describeProblem(p: ImportProblem): string {
  if (p.row === 0) return p.message;
  return p.column ? `第 ${p.row} 列「${p.column}」：${p.message}` : `第 ${p.row} 列：${p.message}`;
}

export const ImportErrorBody = z.object({
  error: z.object({ code: z.literal('invalid-csv'), message: z.string(), problems: z.array(ImportProblem) }),
});
export type ImportErrorBody = z.infer<typeof ImportErrorBody>;

export const ImportResult = z.object({
  rows: z.number().int(),
  productsCreated: z.number().int(),
  productsUpdated: z.number().int(),
  variantsCreated: z.number().int(),
  variantsUpdated: z.number().int(),
  unchanged: z.number().int(),
});
export type ImportResult = z.infer<typeof ImportResult>;

/** The largest import accepted, in bytes. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 5000;

const STATUS_BY_TEXT: Record<string, ProductStatus> = {
  active: 'active',
  draft: 'draft',
  archived: 'archived',
  上架中: 'active',
  草稿: 'draft',
  已下架: 'archived',
};

function wholeNumber(text: string): number | null {
  const t = text.trim().replaceAll(',', '');
  return /^-?\d{1,12}$/.test(t) ? Number(t) : null;
}

/**
 * Reads a products CSV and checks every row on its own (no database): the header, each cell's
 * format, SKUs repeated in the file, and that the rows of one product agree on its name, category
 * and status. Returns the good rows and every problem found; an import goes ahead only when there
 * are none.
 */
/** The cells of a row the server checks against the database, for every row whose cells look right. */
export interface ProductCsvRef {
  row: number;
  productSlug: string | null;
  categorySlug: string | null;
  sku: string | null;
  /** null when the cell is not a good number. */
  stock: number | null;
  /** null when empty, missing or not a good number. */
  stockAtExport: number | null;
}

export function readProductCsv(text: string): {
  rows: ProductCsvRow[];
  refs: ProductCsvRef[];
  problems: ImportProblem[];
} {
  const problems: ImportProblem[] = [];
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (error) {
    // 「第 3 列第 2 欄的引號沒有結束。」 is shown as 「第 3 列：第 2 欄的引號沒有結束。」
    if (error instanceof CsvSyntaxError)
      return {
        rows: [],
        refs: [],
        problems: [{ row: error.row, column: null, message: error.message.replace(/^第 \d+ 列/, '') }],
      };
    throw error;
  }
  const [header, ...body] = records;
  if (!header || isBlankRecord(header))
    return {
      rows: [],
      refs: [],
      problems: [{ row: 0, column: null, message: '檔案是空的，請使用匯出的 CSV 作為範本。' }],
    };
  const names = header.map((h) => h.trim().toLowerCase());
  const index = new Map<string, number>();
  names.forEach((name, i) => {
    if (!name) return;
    if (index.has(name)) problems.push({ row: 1, column: name, message: '欄位名稱重複' });
    else if (!(PRODUCT_CSV_COLUMNS as readonly string[]).includes(name))
      problems.push({ row: 1, column: name, message: '不認得這個欄位，請使用匯出檔的欄位名稱' });
    else index.set(name, i);
  });
  const missing = PRODUCT_CSV_COLUMNS.filter(
    (c) => !index.has(c) && !OPTIONAL_PRODUCT_CSV_COLUMNS.includes(c),
  );
  if (missing.length) problems.push({ row: 1, column: null, message: `缺少欄位：${missing.join('、')}` });
  if (problems.length) return { rows: [], refs: [], problems };
  if (body.length > MAX_IMPORT_ROWS)
    return {
      rows: [],
      refs: [],
      problems: [{ row: 0, column: null, message: `一次最多匯入 ${MAX_IMPORT_ROWS} 列，請分批匯入。` }],
    };

  const rows: ProductCsvRow[] = [];
  const refs: ProductCsvRef[] = [];
  const skuRows = new Map<string, number>();
  const productRows = new Map<string, ProductCsvRow>();
  body.forEach((record, i) => {
    const row = i + 2;
    if (isBlankRecord(record)) return;
    // Our export puts an apostrophe before text a spreadsheet would run as a formula; it comes off here.
    const cell = (c: ProductCsvColumn) => {
      const at = index.get(c);
      return at === undefined ? '' : restoreFormula(record[at] ?? '').trim();
    };
    const bad = (column: ProductCsvColumn, message: string) => problems.push({ row, column, message });
    const before = problems.length;
    if (record.length > header.length && record.slice(header.length).some((f) => f.trim() !== ''))
      problems.push({
        row,
        column: null,
        message: `這一列的欄位比標題列多（${record.length} 欄，標題列 ${header.length} 欄），請檢查是否有未加引號的逗號`,
      });

    const productSlug = cell('product_slug');
    const slug = slugField('商品網址代碼').safeParse(productSlug);
    if (!slug.success) bad('product_slug', slug.error.issues[0]!.message);
    const productName = cell('product_name');
    if (!productName) bad('product_name', '請填寫商品名稱');
    else if (productName.length > 60) bad('product_name', '商品名稱不能超過 60 個字元');
    const categorySlug = cell('category_slug');
    if (!/^[a-z0-9-]{1,80}$/.test(categorySlug))
      bad('category_slug', categorySlug ? '分類代碼格式不正確' : '請填寫分類代碼');
    const statusText = cell('status');
    const status = STATUS_BY_TEXT[statusText.toLowerCase()];
    if (!status) bad('status', '狀態只能是 active、draft 或 archived');
    const sku = cell('sku');
    const skuCheck = skuField.safeParse(sku);
    if (!skuCheck.success) bad('sku', skuCheck.error.issues[0]!.message);
    else {
      const seen = skuRows.get(sku.toUpperCase());
      if (seen !== undefined) bad('sku', `SKU 與第 ${seen} 列重複`);
      else skuRows.set(sku.toUpperCase(), row);
    }
    const options = parseOptions(cell('options'));
    if (!options.ok) bad('options', options.message);
    const price = wholeNumber(cell('price'));
    if (price === null || price <= 0) bad('price', '價格必須是正整數');
    else if (price > MAX_PRICE) bad('price', `價格不能超過 ${groupDigits(MAX_PRICE)}`);
    const compareText = cell('compare_at_price');
    const compareAt = compareText === '' ? null : wholeNumber(compareText);
    if (compareText !== '' && (compareAt === null || compareAt <= 0))
      bad('compare_at_price', '原價必須是正整數，或留白');
    else if (compareAt !== null && price !== null && price > 0 && compareAt <= price)
      bad('compare_at_price', '原價必須高於售價，或留白');
    const stock = wholeNumber(cell('stock'));
    if (stock === null || stock < 0) bad('stock', '庫存必須是 0 以上的整數');
    else if (stock > MAX_STOCK) bad('stock', `庫存不能超過 ${groupDigits(MAX_STOCK)}`);
    const thresholdText = cell('low_stock_threshold');
    const threshold = thresholdText === '' ? 5 : wholeNumber(thresholdText);
    if (threshold === null || threshold < 0) bad('low_stock_threshold', '低庫存門檻必須是 0 以上的整數');
    const exportedText = cell('stock_at_export');
    const stockAtExport = exportedText === '' ? null : wholeNumber(exportedText);
    if (exportedText !== '' && (stockAtExport === null || stockAtExport < 0 || stockAtExport > MAX_STOCK))
      bad('stock_at_export', '匯出時庫存必須是 0 以上的整數；這一欄請保留匯出時的內容');
    const goodStock = stock !== null && stock >= 0 && stock <= MAX_STOCK ? stock : null;
    const goodExported =
      stockAtExport !== null && stockAtExport >= 0 && stockAtExport <= MAX_STOCK ? stockAtExport : null;
    refs.push({
      row,
      productSlug: slug.success ? productSlug : null,
      categorySlug: /^[a-z0-9-]{1,80}$/.test(categorySlug) ? categorySlug : null,
      sku: skuCheck.success ? sku : null,
      stock: goodStock,
      stockAtExport: goodExported,
    });
    if (problems.length > before) return;

    const parsed: ProductCsvRow = {
      row,
      productSlug,
      productName,
      categorySlug,
      status: status!,
      sku,
      options: options.ok ? options.options : {},
      price: price!,
      compareAtPrice: compareAt,
      stock: stock!,
      lowStockThreshold: threshold!,
      stockAtExport,
    };
    const first = productRows.get(productSlug);
    if (first) {
      if (first.productName !== productName)
        bad('product_name', `同一商品的名稱必須一致（第 ${first.row} 列是「${first.productName}」）`);
      if (first.categorySlug !== categorySlug)
        bad('category_slug', `同一商品的分類必須一致（第 ${first.row} 列是「${first.categorySlug}」）`);
      if (first.status !== parsed.status)
        bad('status', `同一商品的狀態必須一致（第 ${first.row} 列是「${first.status}」）`);
    } else productRows.set(productSlug, parsed);
    rows.push(parsed);
  });
  if (rows.length === 0 && problems.length === 0)
    problems.push({ row: 0, column: null, message: '檔案裡沒有任何商品列。' });
  return { rows, refs, problems };
}
