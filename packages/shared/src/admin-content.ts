import { z } from 'zod';
import type { DescriptionBlock } from './catalog-blocks.ts';
import { CONTENT_KINDS, TEXT_PAGES, type ContentKind, type TextPageSlug } from './content.ts';
import { CONTENT_TOKEN_NAMES, unknownTokens } from './content-tokens.ts';
import { PREVIEW_PARAM, contentEditorPath } from './content-preview.ts';

export { PREVIEW_PARAM, contentEditorPath };

/**
 * The console's site-content editor: the API's payloads, and one field description per kind of
 * content (zh-TW labels, field types, limits) from which the editor draws its form and the server
 * words its validation messages. The documents themselves are checked by the schemas in content.ts.
 */

export const CONTENT_KIND_IDS = Object.keys(CONTENT_KINDS) as [ContentKind, ...ContentKind[]];
export const ContentKindSchema = z.enum(CONTENT_KIND_IDS, { message: '沒有這種網站內容' });

/** List items use lower-case slugs; the text pages keep their route ids (serviceTerms). */
export const CONTENT_SLUG = /^[a-z0-9-]{1,80}$/;
const AnySlug = z
  .string()
  .max(80, { message: '代碼格式不正確', abort: true })
  .regex(/^[A-Za-z0-9-]{1,80}$/, '代碼格式不正確');

export const ContentKindParams = z.object({ kind: ContentKindSchema });
export const ContentItemParams = z.object({ kind: ContentKindSchema, slug: AnySlug });

export const ContentPageState = z.object({ slug: z.string(), hasDraft: z.boolean(), updatedAt: z.string() });
export const ContentKindSummary = z.object({
  kind: ContentKindSchema,
  total: z.number().int(),
  /** Shown to visitors (not hidden). */
  visible: z.number().int(),
  drafts: z.number().int(),
  updatedAt: z.string().nullable(),
  /** For the kinds that are pages (landing, company, text pages): each page's state. */
  pages: z.array(ContentPageState),
});
export type ContentKindSummary = z.infer<typeof ContentKindSummary>;
export const ContentOverview = z.object({ kinds: z.array(ContentKindSummary) });
export type ContentOverview = z.infer<typeof ContentOverview>;

export const ContentListItem = z.object({
  slug: z.string(),
  title: z.string(),
  subtitle: z.string().nullable(),
  sortOrder: z.number().int(),
  published: z.boolean(),
  hasDraft: z.boolean(),
  updatedAt: z.string(),
});
export type ContentListItem = z.infer<typeof ContentListItem>;
export const ContentList = z.object({ kind: ContentKindSchema, items: z.array(ContentListItem) });
export type ContentList = z.infer<typeof ContentList>;

const Doc = z.record(z.string().max(100), z.unknown(), { message: '內容必須是一份文件' });
export const ContentDocument = z.object({
  kind: ContentKindSchema,
  slug: z.string(),
  /** What visitors see. */
  data: Doc,
  /** The saved, unpublished edit, if any. */
  draft: Doc.nullable(),
  published: z.boolean(),
  sortOrder: z.number().int(),
  updatedAt: z.string(),
  /**
   * A fingerprint of the live document and the draft. The editor sends back the one it started
   * from, so a save over someone else's newer edit is refused instead of silently replacing it.
   */
  revision: z.string(),
});
export type ContentDocument = z.infer<typeof ContentDocument>;

const BaseRevision = z
  .string()
  .max(32, { message: '版本代碼格式不正確', abort: true })
  .regex(/^[a-f0-9]{32}$/, '版本代碼格式不正確');
export const SaveContentDraftBody = z.object({ data: Doc, baseRevision: BaseRevision.optional() }).strict();
/** Publishing names the revision the editor looked at, so nobody publishes a draft they have not seen. */
export const PublishContentBody = z.object({ baseRevision: BaseRevision.optional() }).strict().nullish();
export type SaveContentDraftBody = z.infer<typeof SaveContentDraftBody>;
/**
 * A new list item: the whole document, its slug inside. It is stored hidden, so visitors see it only
 * once it is shown; the console's preview includes hidden items.
 */
export const CreateContentBody = z.object({ data: Doc }).strict();
export type CreateContentBody = z.infer<typeof CreateContentBody>;
export const SetContentVisibilityBody = z
  .object({ published: z.boolean({ message: '請指定要公開或隱藏' }) })
  .strict();
export const ReorderContentBody = z
  .object({
    slugs: z
      .array(
        z.string().max(80, { message: '代碼格式不正確', abort: true }).regex(CONTENT_SLUG, '代碼格式不正確'),
        { message: '請提供項目的順序' },
      )
      .min(1, '請提供項目的順序')
      .max(500, '項目太多')
      .refine((s) => new Set(s).size === s.length, '順序中有重複的項目'),
  })
  .strict();
export type ReorderContentBody = z.infer<typeof ReorderContentBody>;

// ---------------------------------------------------------------------------------------------
// Field description

interface FieldBase {
  readonly key: string;
  readonly label: string;
  readonly hint?: string;
}
export type ContentField =
  /** The item's code in its URL: typed when the item is created, fixed afterwards. */
  | (FieldBase & { readonly type: 'slug' })
  | (FieldBase & {
      readonly type: 'text';
      readonly maxLength: number;
      readonly optional?: boolean;
      readonly inputType?: 'url';
    })
  | (FieldBase & { readonly type: 'textarea'; readonly maxLength: number; readonly rows?: number })
  | (FieldBase & {
      readonly type: 'number';
      readonly min: number;
      readonly max: number;
      readonly unit?: string;
    })
  | (FieldBase & { readonly type: 'date'; readonly nullable?: boolean })
  | (FieldBase & { readonly type: 'boolean'; readonly checkboxLabel: string })
  | (FieldBase & {
      readonly type: 'select';
      readonly options: ReadonlyArray<{ readonly value: string; readonly label: string }>;
    })
  /** An FAQ category's slug; the editor offers the categories that exist. */
  | (FieldBase & { readonly type: 'category' })
  | (FieldBase & {
      readonly type: 'strings';
      readonly itemLabel: string;
      readonly itemMaxLength: number;
      readonly minItems: number;
      readonly maxItems: number;
      readonly multiline?: boolean;
      /** Items are slugs (product codes). */
      readonly slugs?: boolean;
    })
  | (FieldBase & {
      readonly type: 'list';
      readonly itemLabel: string;
      readonly minItems: number;
      readonly maxItems: number;
      readonly fields: readonly ContentField[];
      /** The item field shown in its collapsed heading. */
      readonly summaryKey?: string;
    })
  /** Rich text: DescriptionBlock[] (paragraph, heading, list, steps, quote). */
  | (FieldBase & { readonly type: 'blocks'; readonly minItems: number; readonly maxItems: number })
  /** A picture in the public `content` bucket, with alt text. */
  | (FieldBase & { readonly type: 'image'; readonly nullable?: boolean; readonly folder: string })
  /** A download's file: in `members` when the item is members-only, else in `downloads`. */
  | (FieldBase & { readonly type: 'file' });

export type BlockType = DescriptionBlock['type'];
export const BLOCK_TYPES: ReadonlyArray<{ readonly type: BlockType; readonly label: string }> = [
  { type: 'paragraph', label: '段落' },
  { type: 'heading', label: '小標題' },
  { type: 'list', label: '條列' },
  { type: 'steps', label: '步驟' },
  { type: 'quote', label: '引言' },
];
export const BLOCK_LABELS = Object.fromEntries(BLOCK_TYPES.map((b) => [b.type, b.label])) as Record<
  BlockType,
  string
>;

/** The fields of each rich-text block, exactly as DescriptionBlock defines them. */
export const BLOCK_FIELDS: Readonly<Record<BlockType, readonly ContentField[]>> = {
  paragraph: [{ key: 'text', label: '段落文字', type: 'textarea', maxLength: 2000, rows: 4 }],
  heading: [{ key: 'text', label: '小標題文字', type: 'text', maxLength: 80 }],
  list: [
    {
      key: 'items',
      label: '條列項目',
      type: 'strings',
      itemLabel: '項目',
      itemMaxLength: 300,
      minItems: 1,
      maxItems: 20,
    },
  ],
  steps: [
    {
      key: 'items',
      label: '步驟',
      type: 'list',
      itemLabel: '步驟',
      minItems: 1,
      maxItems: 12,
      summaryKey: 'title',
      fields: [
        { key: 'title', label: '步驟標題', type: 'text', maxLength: 40 },
        { key: 'text', label: '步驟說明', type: 'textarea', maxLength: 300, rows: 2 },
      ],
    },
  ],
  quote: [
    { key: 'text', label: '引言文字', type: 'textarea', maxLength: 500, rows: 3 },
    { key: 'cite', label: '出處（選填）', type: 'text', maxLength: 80, optional: true },
  ],
};

export function emptyBlock(type: BlockType): DescriptionBlock {
  switch (type) {
    case 'paragraph':
    case 'heading':
      return { type, text: '' };
    case 'list':
      return { type, items: [''] };
    case 'steps':
      return { type, items: [{ title: '', text: '' }] };
    case 'quote':
      return { type, text: '' };
  }
}

const TOKEN_HINT = `金額請用代碼，例如 {{home.fee}}，頁面上會自動換成目前的運費。`;
const slugField: ContentField = {
  key: 'slug',
  label: '網址代碼',
  type: 'slug',
  hint: '小寫英文字母、數字與連字號，例如 chen-jia-he；建立後不能修改。',
};
const sections = (maxItems: number, label = '章節'): ContentField => ({
  key: 'sections',
  label,
  type: 'list',
  itemLabel: '章節',
  minItems: 1,
  maxItems,
  summaryKey: 'heading',
  fields: [
    { key: 'heading', label: '章節標題', type: 'text', maxLength: 60 },
    { key: 'blocks', label: '內文', type: 'blocks', minItems: 1, maxItems: 30, hint: TOKEN_HINT },
  ],
});
const bio: ContentField = {
  key: 'bio',
  label: '介紹',
  type: 'strings',
  itemLabel: '段落',
  itemMaxLength: 600,
  minItems: 1,
  maxItems: 6,
  multiline: true,
};
const portrait: ContentField = {
  key: 'portrait',
  label: '照片',
  type: 'image',
  folder: 'people',
  hint: '方形圖片效果最好（至少 800 × 800 像素）。',
};

export interface ContentKindDef {
  readonly kind: ContentKind;
  /** The card and page title. */
  readonly label: string;
  /** One item: 「新增茶師」. */
  readonly itemLabel: string;
  readonly description: string;
  /** A page (one document per slug, never created or deleted here) rather than a list. */
  readonly single: boolean;
  /** The field that names an item in lists. */
  readonly titleKey: string;
  readonly subtitleKey?: string;
  /** Whether the order in the list is the order on the site (jobs and media go by date). */
  readonly orderable: boolean;
  readonly orderNote?: string;
  readonly fields: readonly ContentField[];
}

export const TEXT_PAGE_DESCRIPTIONS: Readonly<Record<TextPageSlug, string>> = {
  shipping: '訂購流程、付款方式、運費、出貨時間與退換貨。',
  transport: '宅配、超商取貨、離島配送、到貨時間與包裝。',
  serviceTerms: '會員、訂購、付款與退貨的服務條款。',
  privacyPolicy: '個人資料的蒐集、使用與保護。',
};

export const TEXT_PAGE_LABELS: Readonly<Record<TextPageSlug, string>> = {
  shipping: '購物與配送須知',
  transport: '運送方式',
  serviceTerms: '服務條款',
  privacyPolicy: '隱私權政策',
};

/** The slugs of the page kinds. */
export const CONTENT_PAGES: Readonly<Partial<Record<ContentKind, readonly string[]>>> = {
  landing: ['landing'],
  company: ['home'],
  textPage: TEXT_PAGES,
};

export const CONTENT_KIND_DEFS: Readonly<Record<ContentKind, ContentKindDef>> = {
  landing: {
    kind: 'landing',
    label: '首頁',
    itemLabel: '首頁',
    description: '主標題、最新消息跑馬燈、三個堅持與當季推薦商品。',
    single: true,
    titleKey: 'heroTitle',
    orderable: false,
    fields: [
      { key: 'heroTitle', label: '主標題', type: 'text', maxLength: 40 },
      { key: 'heroLead', label: '主標語', type: 'textarea', maxLength: 160, rows: 2 },
      {
        key: 'announcements',
        label: '最新消息（跑馬燈）',
        type: 'list',
        itemLabel: '消息',
        minItems: 1,
        maxItems: 8,
        summaryKey: 'text',
        fields: [
          { key: 'text', label: '消息文字', type: 'text', maxLength: 80, hint: TOKEN_HINT },
          {
            key: 'href',
            label: '連結（選填）',
            type: 'text',
            maxLength: 200,
            optional: true,
            hint: '站內網址，例如 /shippingFee',
          },
        ],
      },
      {
        key: 'promises',
        label: '我們堅持的三件事',
        type: 'list',
        itemLabel: '堅持',
        minItems: 3,
        maxItems: 3,
        summaryKey: 'title',
        fields: [
          { key: 'title', label: '標題', type: 'text', maxLength: 12 },
          { key: 'text', label: '說明', type: 'textarea', maxLength: 120, rows: 2 },
        ],
      },
      {
        key: 'featuredProductSlugs',
        label: '當季推薦商品',
        type: 'strings',
        itemLabel: '商品代碼',
        itemMaxLength: 80,
        minItems: 3,
        maxItems: 8,
        slugs: true,
        hint: '商品網址 /mall/ 後面的代碼，依序顯示前 4 個上架中的商品。',
      },
      { key: 'joinTitle', label: '加入會員標題', type: 'text', maxLength: 30 },
      { key: 'joinText', label: '加入會員說明', type: 'textarea', maxLength: 120, rows: 2 },
    ],
  },
  company: {
    kind: 'company',
    label: '關於山嵐',
    itemLabel: '公司介紹',
    description: '品牌故事、理念、大事紀與門市據點。',
    single: true,
    titleKey: 'title',
    orderable: false,
    fields: [
      { key: 'title', label: '頁面標題', type: 'text', maxLength: 40 },
      { key: 'lead', label: '前言', type: 'textarea', maxLength: 300, rows: 3 },
      { ...sections(8, '品牌故事'), key: 'story' },
      {
        key: 'values',
        label: '我們相信的事',
        type: 'list',
        itemLabel: '理念',
        minItems: 2,
        maxItems: 6,
        summaryKey: 'title',
        fields: [
          { key: 'title', label: '標題', type: 'text', maxLength: 20 },
          { key: 'text', label: '說明', type: 'textarea', maxLength: 200, rows: 2 },
        ],
      },
      {
        key: 'milestones',
        label: '大事紀',
        type: 'list',
        itemLabel: '大事',
        minItems: 3,
        maxItems: 20,
        summaryKey: 'year',
        fields: [
          { key: 'year', label: '年份（西元）', type: 'number', min: 1900, max: 2100 },
          { key: 'text', label: '事件', type: 'text', maxLength: 160 },
        ],
      },
      {
        key: 'locations',
        label: '門市與據點',
        type: 'list',
        itemLabel: '據點',
        minItems: 1,
        maxItems: 6,
        summaryKey: 'name',
        fields: [
          { key: 'name', label: '名稱', type: 'text', maxLength: 30 },
          { key: 'address', label: '地址', type: 'text', maxLength: 80 },
          { key: 'hours', label: '營業時間', type: 'text', maxLength: 60 },
          { key: 'phone', label: '電話', type: 'text', maxLength: 20 },
          { key: 'note', label: '備註（選填）', type: 'text', maxLength: 120, optional: true },
        ],
      },
    ],
  },
  textPage: {
    kind: 'textPage',
    label: '說明頁面',
    itemLabel: '說明頁面',
    description: '購物須知、運送方式、服務條款與隱私權政策。',
    single: true,
    titleKey: 'title',
    orderable: false,
    fields: [
      { key: 'title', label: '頁面標題', type: 'text', maxLength: 40 },
      { key: 'lead', label: '前言', type: 'textarea', maxLength: 300, rows: 3 },
      sections(30),
      { key: 'updated', label: '最後更新日期', type: 'date' },
    ],
  },
  team: {
    kind: 'team',
    label: '團隊介紹',
    itemLabel: '團隊成員',
    description: '茶園、焙茶室與門市的夥伴。',
    single: false,
    titleKey: 'name',
    subtitleKey: 'role',
    orderable: true,
    fields: [
      slugField,
      { key: 'name', label: '姓名', type: 'text', maxLength: 20 },
      { key: 'role', label: '職稱', type: 'text', maxLength: 30 },
      { key: 'department', label: '部門', type: 'text', maxLength: 20 },
      portrait,
      { key: 'summary', label: '一句話介紹', type: 'textarea', maxLength: 120, rows: 2 },
      bio,
      { key: 'favouriteTea', label: '最喜歡的茶', type: 'text', maxLength: 40 },
    ],
  },
  master: {
    kind: 'master',
    label: '茶師介紹',
    itemLabel: '茶師',
    description: '焙茶、評茶與製壺的師傅；首頁顯示前三位。',
    single: false,
    titleKey: 'name',
    subtitleKey: 'title',
    orderable: true,
    fields: [
      slugField,
      { key: 'name', label: '姓名', type: 'text', maxLength: 20 },
      { key: 'title', label: '稱號', type: 'text', maxLength: 30 },
      portrait,
      { key: 'years', label: '從事茶業年數', type: 'number', min: 1, max: 80, unit: '年' },
      { key: 'summary', label: '一句話介紹', type: 'textarea', maxLength: 120, rows: 2 },
      { key: 'quote', label: '師傅語錄', type: 'textarea', maxLength: 120, rows: 2 },
      bio,
      {
        key: 'specialties',
        label: '專長',
        type: 'strings',
        itemLabel: '專長',
        itemMaxLength: 30,
        minItems: 1,
        maxItems: 8,
      },
      {
        key: 'relatedProductSlugs',
        label: '師傅推薦商品',
        type: 'strings',
        itemLabel: '商品代碼',
        itemMaxLength: 80,
        minItems: 0,
        maxItems: 6,
        slugs: true,
        hint: '商品網址 /mall/ 後面的代碼。',
      },
    ],
  },
  job: {
    kind: 'job',
    label: '人才招募',
    itemLabel: '職缺',
    description: '開放中的職缺，依刊登日期排列。',
    single: false,
    titleKey: 'title',
    subtitleKey: 'department',
    orderable: false,
    orderNote: '職缺在網站上依刊登日期排列，新的在前。',
    fields: [
      slugField,
      { key: 'title', label: '職稱', type: 'text', maxLength: 40 },
      { key: 'department', label: '部門', type: 'text', maxLength: 20 },
      { key: 'location', label: '工作地點', type: 'text', maxLength: 40 },
      {
        key: 'type',
        label: '類型',
        type: 'select',
        options: [
          { value: '全職', label: '全職' },
          { value: '兼職', label: '兼職' },
          { value: '實習', label: '實習' },
        ],
      },
      { key: 'posted', label: '刊登日期', type: 'date' },
      { key: 'summary', label: '職缺簡介', type: 'textarea', maxLength: 200, rows: 3 },
      {
        key: 'responsibilities',
        label: '工作內容',
        type: 'strings',
        itemLabel: '工作內容',
        itemMaxLength: 160,
        minItems: 2,
        maxItems: 10,
      },
      {
        key: 'requirements',
        label: '我們希望您',
        type: 'strings',
        itemLabel: '條件',
        itemMaxLength: 160,
        minItems: 2,
        maxItems: 10,
      },
      {
        key: 'benefits',
        label: '福利',
        type: 'strings',
        itemLabel: '福利',
        itemMaxLength: 160,
        minItems: 1,
        maxItems: 10,
      },
    ],
  },
  media: {
    kind: 'media',
    label: '媒體報導',
    itemLabel: '報導',
    description: '報章雜誌與影片報導，依日期排列。',
    single: false,
    titleKey: 'title',
    subtitleKey: 'source',
    orderable: false,
    orderNote: '報導在網站上依日期排列，新的在前。',
    fields: [
      slugField,
      {
        key: 'type',
        label: '類型',
        type: 'select',
        options: [
          { value: 'article', label: '文章' },
          { value: 'video', label: '影片' },
        ],
      },
      { key: 'title', label: '標題', type: 'text', maxLength: 80 },
      { key: 'source', label: '媒體名稱', type: 'text', maxLength: 40 },
      { key: 'date', label: '報導日期', type: 'date' },
      { key: 'summary', label: '摘要', type: 'textarea', maxLength: 300, rows: 3 },
      {
        key: 'url',
        label: '原文網址',
        type: 'text',
        maxLength: 500,
        inputType: 'url',
        hint: '完整網址，例如 https://example.com/news/123',
      },
      {
        key: 'videoId',
        label: 'YouTube 影片代碼（選填）',
        type: 'text',
        maxLength: 20,
        optional: true,
        hint: '影片網址 watch?v= 後面的代碼；有代碼時頁面會顯示播放器。',
      },
    ],
  },
  download: {
    kind: 'download',
    label: '檔案下載',
    itemLabel: '檔案',
    description: '型錄、沖泡指南與檢驗報告；可設為會員限定。',
    single: false,
    titleKey: 'title',
    subtitleKey: 'category',
    orderable: true,
    fields: [
      slugField,
      { key: 'title', label: '名稱', type: 'text', maxLength: 60 },
      {
        key: 'category',
        label: '分類',
        type: 'select',
        options: ['型錄', '沖泡指南', '檢驗與認證', '其他'].map((v) => ({ value: v, label: v })),
      },
      { key: 'description', label: '說明', type: 'textarea', maxLength: 200, rows: 2 },
      { key: 'date', label: '日期', type: 'date' },
      { key: 'membersOnly', label: '下載權限', type: 'boolean', checkboxLabel: '會員限定（登入後才能下載）' },
      {
        key: 'file',
        label: '檔案（PDF）',
        type: 'file',
        hint: '會員限定的檔案存放在會員專區，其他放在公開下載區；更改權限後請重新上傳。',
      },
    ],
  },
  ip: {
    kind: 'ip',
    label: '專利與商標',
    itemLabel: '專利或商標',
    description: '專利、商標的號數、狀態與證書。',
    single: false,
    titleKey: 'title',
    subtitleKey: 'number',
    orderable: true,
    fields: [
      slugField,
      {
        key: 'kind',
        label: '類別',
        type: 'select',
        options: [
          { value: 'patent', label: '專利' },
          { value: 'trademark', label: '商標' },
        ],
      },
      { key: 'number', label: '證書號數', type: 'text', maxLength: 30 },
      { key: 'title', label: '名稱', type: 'text', maxLength: 80 },
      { key: 'country', label: '國家或地區', type: 'text', maxLength: 20 },
      { key: 'filedAt', label: '申請日期', type: 'date' },
      { key: 'grantedAt', label: '核准日期（選填）', type: 'date', nullable: true, hint: '審查中可留空。' },
      {
        key: 'status',
        label: '狀態',
        type: 'select',
        options: ['有效', '審查中', '已屆期'].map((v) => ({ value: v, label: v })),
      },
      {
        key: 'certificate',
        label: '證書圖片（選填）',
        type: 'image',
        folder: 'certificates',
        nullable: true,
      },
    ],
  },
  faqCategory: {
    kind: 'faqCategory',
    label: '常見問題分類',
    itemLabel: '分類',
    description: '常見問題頁的分類與順序。',
    single: false,
    titleKey: 'name',
    orderable: true,
    fields: [slugField, { key: 'name', label: '分類名稱', type: 'text', maxLength: 20 }],
  },
  faq: {
    kind: 'faq',
    label: '常見問題',
    itemLabel: '問題',
    description: '問題與回答，依分類顯示。',
    single: false,
    titleKey: 'question',
    subtitleKey: 'category',
    orderable: true,
    fields: [
      slugField,
      { key: 'category', label: '分類', type: 'category' },
      { key: 'question', label: '問題', type: 'text', maxLength: 80 },
      { key: 'answer', label: '回答', type: 'blocks', minItems: 1, maxItems: 10, hint: TOKEN_HINT },
    ],
  },
};

/** The order of the cards on the console's content page. */
export const CONTENT_KIND_ORDER: readonly ContentKind[] = [
  'landing',
  'company',
  'textPage',
  'team',
  'master',
  'job',
  'media',
  'download',
  'ip',
  'faqCategory',
  'faq',
];

export const isSingleKind = (kind: ContentKind) => CONTENT_KIND_DEFS[kind].single;

/** Where a document shows on the site (without the preview flag). */
export function contentPublicPath(kind: ContentKind, slug: string): string {
  switch (kind) {
    case 'landing':
      return '/';
    case 'company':
      return '/home';
    case 'textPage':
      return `/${slug}`;
    case 'team':
      return `/team/${encodeURIComponent(slug)}`;
    case 'master':
      return `/master/${encodeURIComponent(slug)}`;
    case 'job':
      return `/jobs#${slug}`;
    case 'media':
      return '/media';
    case 'download':
      return '/download';
    case 'ip':
      return '/patentsAndTrademarks';
    case 'faqCategory':
      return '/faq';
    case 'faq':
      return `/faq#${slug}`;
  }
}

/** A list kind's page on the site (for 「預覽網站頁面」); null for the page kinds. */
export function contentListPath(kind: ContentKind): string | null {
  if (CONTENT_KIND_DEFS[kind].single) return null;
  return (
    {
      team: '/team',
      master: '/master',
      job: '/jobs',
      media: '/media',
      download: '/download',
      ip: '/patentsAndTrademarks',
      faqCategory: '/faq',
      faq: '/faq',
    }[kind as string] ?? null
  );
}

/** The public page showing the saved draft: the path with `?preview=1` (before any #hash). */
export function contentPreviewPath(kind: ContentKind, slug: string): string {
  const [path, hash] = contentPublicPath(kind, slug).split('#');
  return `${path}?${PREVIEW_PARAM}=1${hash ? `#${hash}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Documents: empty ones, tidy ones, and zh-TW messages for what is wrong with one

function emptyValue(field: ContentField): unknown {
  switch (field.type) {
    case 'slug':
    case 'text':
    case 'textarea':
    case 'category':
      return '';
    case 'number':
      return field.min;
    case 'date':
      return field.nullable ? null : '';
    case 'boolean':
      return false;
    case 'select':
      return field.options[0]?.value ?? '';
    case 'strings':
      return Array.from({ length: field.minItems }, () => '');
    case 'list':
      return Array.from({ length: field.minItems }, () => emptyObject(field.fields));
    case 'blocks':
      return [emptyBlock('paragraph')];
    case 'image':
      return null;
    case 'file':
      return null;
  }
}

export function emptyObject(fields: readonly ContentField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.type === 'text' && f.optional) continue;
    out[f.key] = emptyValue(f);
  }
  return out;
}

/** A new item's starting document (the editor fills it in). */
export function newContentDocument(kind: ContentKind): Record<string, unknown> {
  const doc = emptyObject(CONTENT_KIND_DEFS[kind].fields);
  if (kind === 'job' || kind === 'media' || kind === 'download') {
    const today = new Date().toISOString().slice(0, 10);
    doc[kind === 'job' ? 'posted' : 'date'] = today;
  }
  return doc;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function tidy(fields: readonly ContentField[], value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...value };
  for (const f of fields) {
    const v = out[f.key];
    if (
      f.type === 'text' &&
      f.optional &&
      (v === '' || v === null || (typeof v === 'string' && v.trim() === ''))
    )
      delete out[f.key];
    else if (f.type === 'date' && f.nullable && (v === '' || v === undefined)) out[f.key] = null;
    else if (f.type === 'list' && Array.isArray(v))
      out[f.key] = v.map((item) => (isRecord(item) ? tidy(f.fields, item) : item));
    else if (f.type === 'blocks' && Array.isArray(v)) {
      out[f.key] = v.map((b) =>
        isRecord(b) && typeof b.type === 'string' && b.type in BLOCK_FIELDS
          ? tidy(BLOCK_FIELDS[b.type as BlockType], b)
          : b,
      );
    }
  }
  return out;
}

/**
 * Tidies what the editor sends before it is checked: an optional text left empty is left out, a
 * date that may be empty becomes null (so 「出處」 left blank is not an error).
 */
export function normalizeContentDocument(
  kind: ContentKind,
  data: Record<string, unknown>,
): Record<string, unknown> {
  return tidy(CONTENT_KIND_DEFS[kind].fields, data);
}

type PathPart = string | number;

/** The field a path ends on, with a readable trail of labels (「章節 2 › 內文 › 第 1 個區塊（段落）› 段落文字」). */
export function describeContentPath(
  kind: ContentKind,
  data: unknown,
  path: readonly PathPart[],
): { field: ContentField | null; label: string; trail: string } {
  let fields: readonly ContentField[] = CONTENT_KIND_DEFS[kind].fields;
  let field: ContentField | null = null;
  let value: unknown = data;
  const trail: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const part = path[i]!;
    if (typeof part === 'string') {
      const found = fields.find((f) => f.key === part);
      if (!found) break;
      field = found;
      trail.push(found.label);
      value = isRecord(value) ? value[part] : undefined;
    } else if (field) {
      const item = Array.isArray(value) ? value[part] : undefined;
      value = item;
      if (field.type === 'strings') {
        trail.push(`第 ${part + 1} 個${field.itemLabel}`);
      } else if (field.type === 'list') {
        trail.push(`第 ${part + 1} 個${field.itemLabel}`);
        fields = field.fields;
      } else if (field.type === 'blocks') {
        const type =
          isRecord(item) && typeof item.type === 'string' && item.type in BLOCK_FIELDS
            ? (item.type as BlockType)
            : null;
        trail.push(type ? `第 ${part + 1} 個區塊（${BLOCK_LABELS[type]}）` : `第 ${part + 1} 個區塊`);
        fields = type ? BLOCK_FIELDS[type] : [];
        if (path[i + 1] === 'type') {
          trail.push('區塊類型');
          break;
        }
      }
    }
  }
  const last = trail.at(-1) ?? '內容';
  return { field, label: last, trail: trail.join(' › ') || '內容' };
}

interface IssueLike {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly origin?: string;
  readonly minimum?: number | bigint;
  readonly maximum?: number | bigint;
  readonly exact?: boolean;
  readonly expected?: string;
  readonly format?: string;
  readonly values?: readonly unknown[];
  readonly keys?: readonly string[];
  readonly options?: readonly unknown[];
}

const SLUG_MESSAGE = '只能使用小寫英文字母、數字與連字號（最多 80 個字）';

function valueAt(data: unknown, path: readonly PathPart[]): unknown {
  let v = data;
  for (const p of path)
    v = typeof p === 'number' ? (Array.isArray(v) ? v[p] : undefined) : isRecord(v) ? v[p] : undefined;
  return v;
}

/** One zh-TW sentence for one zod issue, named after the field's label. */
function issueMessage(kind: ContentKind, data: unknown, issue: IssueLike): string {
  const path = issue.path.filter((p): p is PathPart => typeof p === 'string' || typeof p === 'number');
  const { field, label } = describeContentPath(kind, data, path);
  const name = label.replace(/（選填）$/, '');
  const lastPart = path.at(-1);
  const isSlugValue =
    field?.type === 'slug' || field?.type === 'category' || (field?.type === 'strings' && field.slugs);
  const isDate = field?.type === 'date';
  const min = Number(issue.minimum);
  const max = Number(issue.maximum);
  switch (issue.code) {
    case 'invalid_type': {
      const present = valueAt(data, path);
      if (present === undefined || present === null || present === '') {
        if (field?.type === 'image') return `請上傳${name}`;
        if (field?.type === 'file') return '請上傳檔案';
        if (field?.type === 'select' || field?.type === 'category') return `請選擇${name}`;
        return `請填寫${name}`;
      }
      if (issue.expected === 'int' || issue.expected === 'number') return `${name}必須是整數`;
      if (issue.expected === 'array') return `${name}必須是清單`;
      if (issue.expected === 'boolean') return `${name}必須是「是」或「否」`;
      return `${name}格式不正確`;
    }
    case 'too_small':
      if (issue.origin === 'string') return min <= 1 ? `請填寫${name}` : `${name}至少需要 ${min} 個字`;
      if (issue.origin === 'array') {
        const unit =
          field?.type === 'strings' || field?.type === 'list'
            ? field.itemLabel
            : field?.type === 'blocks'
              ? '區塊'
              : '項';
        return issue.exact ? `${name}必須剛好 ${min} 個${unit}` : `${name}至少需要 ${min} 個${unit}`;
      }
      return `${name}至少為 ${min}`;
    case 'too_big':
      if (issue.origin === 'string') return `${name}最多 ${max} 個字`;
      if (issue.origin === 'array') {
        const unit =
          field?.type === 'strings' || field?.type === 'list'
            ? field.itemLabel
            : field?.type === 'blocks'
              ? '區塊'
              : '項';
        return issue.exact ? `${name}必須剛好 ${max} 個${unit}` : `${name}最多 ${max} 個${unit}`;
      }
      return `${name}最多為 ${max}`;
    case 'invalid_format':
      if (issue.format === 'url') return `${name}必須是完整網址（https:// 開頭）`;
      if (isDate) return `${name}必須是日期（例如 2026-11-01）`;
      if (isSlugValue) return `${name}${SLUG_MESSAGE}`;
      if (lastPart === 'videoId') return `${name}格式不正確（6 到 20 個英文字母、數字、- 或 _）`;
      return `${name}格式不正確`;
    case 'invalid_value':
      if (field?.type === 'select') return `請從選項中選擇${name}`;
      return `${name}必須是 ${(issue.values ?? []).map(String).join('、')} 其中之一`;
    case 'invalid_union':
      if (lastPart === 'type') return `區塊類型必須是 ${BLOCK_TYPES.map((b) => b.label).join('、')} 其中之一`;
      return `${name}格式不正確`;
    case 'unrecognized_keys':
      return `不認得的欄位：${(issue.keys ?? []).join('、')}`;
    default:
      return `${name}格式不正確`;
  }
}

/** Field path (`sections.0.blocks.1.text`) → zh-TW message, the first issue per path. */
export function contentIssueFields(
  kind: ContentKind,
  data: unknown,
  issues: readonly IssueLike[],
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issueMessage(kind, data, issue);
  }
  return fields;
}

/** Amount tokens nobody knows ({{home.fees}}), by the field path they are in. */
export function contentTokenFields(data: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  const known = CONTENT_TOKEN_NAMES.map((t) => `{{${t}}}`).join('、');
  const walk = (v: unknown, path: PathPart[]) => {
    if (typeof v === 'string') {
      const bad = unknownTokens(v);
      if (bad.length)
        fields[path.join('.')] =
          `不認得的金額代碼 ${bad.map((t) => `{{${t}}}`).join('、')}；可用的代碼：${known}`;
    } else if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i]));
    else if (isRecord(v)) for (const [k, item] of Object.entries(v)) walk(item, [...path, k]);
  };
  walk(data, []);
  return fields;
}

/** The readable trail for a field path (for a page-level message naming the first problem). */
export function contentFieldTrail(kind: ContentKind, data: unknown, key: string): string {
  const path = key.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return describeContentPath(kind, data, path).trail;
}

/** A list item's name and second line, from whichever document the editor last saved. */
export function contentItemTitle(
  kind: ContentKind,
  doc: Record<string, unknown>,
): { title: string; subtitle: string | null } {
  const def = CONTENT_KIND_DEFS[kind];
  const title = doc[def.titleKey];
  const subtitle = def.subtitleKey ? doc[def.subtitleKey] : undefined;
  return {
    title: typeof title === 'string' && title ? title : '（未命名）',
    subtitle: typeof subtitle === 'string' || typeof subtitle === 'number' ? String(subtitle) : null,
  };
}
