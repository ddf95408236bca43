import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { DescriptionBlock, ProductSpec } from '@shop/shared/catalog-blocks';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Path-based redirect lookup (docs/product-rules.md#http-behaviour). `path` is stored lower-cased without a trailing slash. */
export const redirects = pgTable('redirects', {
  path: text('path').primaryKey(),
  target: text('target').notNull(),
  permanent: boolean('permanent').notNull().default(true),
  ...timestamps,
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased and trimmed; uniqueness is on this value. */
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    passwordHash: text('password_hash'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Shoppers are `customer`; the operations console's staff roles are owner, staff and viewer. */
    role: text('role', { enum: ['customer', 'owner', 'staff', 'viewer'] })
      .notNull()
      .default('customer'),
    phone: text('phone'),
    /** yyyy-mm-dd; set once by the member (it unlocks the birthday-month coupon). */
    birthday: date('birthday', { mode: 'string' }),
    /** The member's current tier, recomputed when an order's payment state changes. */
    tierCode: text('tier_code').notNull().default('regular'),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

/**
 * Consent to mail a member about something other than their orders, one row each time it is given
 * or withdrawn (never updated or deleted while the account lives): what (`kind`), yes or no, when,
 * and where (`source`). The member's current choice is their newest row of a kind; no row is no.
 * Kept apart from any browser (cookie) consent: this is the member's say over mail.
 */
export const marketingConsents = pgTable(
  'marketing_consents',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `marketing-mail`: new teas and offers, and the abandoned-cart reminder. */
    kind: text('kind', { enum: ['marketing-mail'] }).notNull(),
    granted: boolean('granted').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** `sign-up` (the box at sign-up), `settings` (the member area's switch), `unsubscribe` (the mail's link, or one click from the mail app), `account-deleted`. */
    source: text('source', { enum: ['sign-up', 'settings', 'unsubscribe', 'account-deleted'] }).notNull(),
  },
  (t) => [index('marketing_consents_user_kind_idx').on(t.userId, t.kind, t.id)],
);

/** Server-side sessions: the cookie carries a random token, the table only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Set when the user confirmed their password again; opens a short window for sensitive changes. */
    reauthenticatedAt: timestamp('reauthenticated_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_id_idx')
      .on(t.userId)
      .where(sql`${t.revokedAt} is null`),
  ],
);

/**
 * Single-use codes mailed as links: e-mail verification (24 h), password reset (1 h), e-mail change
 * (24 h) and staff invites (72 h). Any credential change ends every unused code of the account.
 */
export const actionCodes = pgTable(
  'action_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the account is deleted: its links then answer `user-not-found`. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', {
      enum: ['verify-email', 'reset-password', 'change-email', 'staff-invite'],
    }).notNull(),
    /** A staff invite's console role, granted only when the invite is accepted. */
    role: text('role', { enum: ['owner', 'staff', 'viewer'] }),
    codeHash: text('code_hash').notNull(),
    /** The address the code was sent to. */
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('action_codes_code_hash_key').on(t.codeHash),
    index('action_codes_user_kind_idx').on(t.userId, t.kind),
  ],
);

/**
 * Sign-ins through another provider (LINE Login, Google) linked to an account: the provider's
 * subject identifier names the person there, for good (docs/decisions/040-social-sign-in.md).
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider', { enum: ['line', 'google'] }).notNull(),
    /** The ID token's `sub`: stable per person and provider (never the e-mail). */
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the provider gave when linked, for the member to recognise it; never used to sign in. */
    email: text('email'),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_identities_provider_subject_key').on(t.provider, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

/**
 * One trip to a sign-in provider and what follows it, keyed by a random token the browser keeps in
 * an HttpOnly cookie: the PKCE verifier, `state` and `nonce` until the provider answers, then the
 * identity it vouched for while the person gives an e-mail or proves an existing account.
 */
export const socialSignIns = pgTable(
  'social_sign_ins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    provider: text('provider', { enum: ['line', 'google'] }).notNull(),
    /** `sign-in` (also signs up) or `link` (a signed-in member adds this provider). */
    intent: text('intent', { enum: ['sign-in', 'link'] }).notNull(),
    stage: text('stage', { enum: ['authorizing', 'needs-email', 'needs-proof'] })
      .notNull()
      .default('authorizing'),
    /** `link`: the member linking; `needs-proof`: the existing account to prove. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    state: text('state').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    /** Where the member goes afterwards: an in-app path, checked when the trip starts. */
    returnTo: text('return_to'),
    subject: text('subject'),
    displayName: text('display_name'),
    /** The provider's address (and whether it said the address is verified). */
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** A code mailed to the existing account's address (SHA-256), its end and the tries left. */
    proofCodeHash: text('proof_code_hash'),
    proofCodeExpiresAt: timestamp('proof_code_expires_at', { withTimezone: true }),
    proofAttempts: integer('proof_attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('social_sign_ins_token_hash_key').on(t.tokenHash)],
);

/** Mail kept instead of sent when no SMTP server is configured (never in production). */
export const mailOutbox = pgTable('mail_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  html: text('html').notNull(),
  text: text('text').notNull(),
  /** The main link of the mail, for the mailbox page and tests. */
  meta: jsonb('meta')
    .$type<{ link?: string; kind?: string; replyTo?: string; headers?: Record<string, string> }>()
    .notNull()
    .default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The durable outbox: every mail and gateway call that follows a change is written here in the
 * change's own transaction and delivered afterwards by a worker (plugins/outbox.ts), so a crash or
 * an outage loses nothing. `key` makes an enqueue idempotent: the same message enqueued twice is
 * kept once. A row is claimed by setting `lease_until`; a worker that died mid-delivery leaves a
 * lease that runs out, and another worker takes the row again.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Which handler delivers it (`mail`, and the gateway calls). */
    kind: text('kind').notNull(),
    key: text('key').notNull().unique(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** A short line for the console's list (the mail's subject and address, the call and its order). */
    summary: text('summary').notNull().default(''),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When staff last asked for it to be sent again: the day of retries counts from here. */
    retriedAt: timestamp('retried_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('outbox_messages_due_idx').on(t.status, t.nextAttemptAt)],
);

/** Categories nest one level: a top-level category may have children, children have none. */
export const categories = pgTable('categories', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  parentId: uuid('parent_id').references((): AnyPgColumn => categories.id, { onDelete: 'restrict' }),
  sortOrder: integer('sort_order').notNull().default(0),
  ...timestamps,
});

/** A product image: a storage object; resized WebP variants sit beside it (see storage service). */
export interface ProductImage {
  bucket: string;
  name: string;
  alt: string;
  width: number;
  height: number;
}

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    summary: text('summary').notNull().default(''),
    description: jsonb('description').$type<DescriptionBlock[]>().notNull().default([]),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
    tags: text('tags').array().notNull().default([]),
    specs: jsonb('specs').$type<ProductSpec[]>().notNull().default([]),
    images: jsonb('images').$type<ProductImage[]>().notNull().default([]),
    status: text('status', { enum: ['draft', 'active', 'archived'] })
      .notNull()
      .default('draft'),
    sortWeight: integer('sort_weight').notNull().default(0),
    /** Units sold; orders add to it when paid (drives "best-selling"). */
    soldCount: integer('sold_count').notNull().default(0),
    /** name + summary + tags, lower-cased, kept by the service for substring search (pg_trgm index). */
    searchText: text('search_text').notNull().default(''),
    /** Where an archived product's page now points. */
    replacementId: uuid('replacement_id').references((): AnyPgColumn => products.id, {
      onDelete: 'set null',
    }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('products_slug_key').on(t.slug),
    index('products_category_idx').on(t.categoryId),
    index('products_status_idx').on(t.status, t.sortWeight),
    // Trigram index: substring search (including Chinese) on name, summary and tags.
    index('products_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

export const productVariants = pgTable(
  'product_variants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sku: text('sku').notNull(),
    /** Option name → value, e.g. { "規格": "75 g" }. */
    options: jsonb('options').$type<Record<string, string>>().notNull().default({}),
    /** Integer TWD. */
    price: integer('price').notNull(),
    compareAtPrice: integer('compare_at_price'),
    stock: integer('stock').notNull().default(0),
    lowStockThreshold: integer('low_stock_threshold').notNull().default(5),
    sortOrder: integer('sort_order').notNull().default(0),
    archived: boolean('archived').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('product_variants_sku_key').on(t.sku),
    index('product_variants_product_idx').on(t.productId),
    check('product_variants_stock_nonnegative', sql`${t.stock} >= 0`),
    check('product_variants_price_nonnegative', sql`${t.price} >= 0`),
  ],
);

/** Metadata of stored files; the bytes live under DATA_DIR/storage or in S3. */
export const storageObjects = pgTable(
  'storage_objects',
  {
    bucket: text('bucket').notNull(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    /** SHA-256 of the bytes, hex; also the HTTP ETag. */
    sha256: text('sha256').notNull(),
    width: integer('width'),
    height: integer('height'),
    /** Widths of the resized WebP copies made for images. */
    variants: integer('variants').array().notNull().default([]),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.bucket, t.name] })],
);

/** A member's cart, kept on the server: it follows the member across tabs and devices. */
export const cartItems = pgTable(
  'cart_items',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    variantId: uuid('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    /** The price when it was put in the cart, so a later change can be pointed out. */
    addedPrice: integer('added_price').notNull(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.variantId] }),
    check('cart_items_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

/** A member's 收藏: products kept to look at again (docs/product-rules.md#wishlist). */
export const wishlistItems = pgTable(
  'wishlist_items',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    index('wishlist_items_product_idx').on(t.productId),
  ],
);

/**
 * 貨到通知: a member waiting for a sold-out variant. `notifiedAt` is set, in the transaction that
 * brings stock back, by the one statement that claims the waiting rows, so each gets one mail.
 */
export const restockRequests = pgTable(
  'restock_requests',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    variantId: uuid('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.variantId] }),
    index('restock_requests_waiting_idx')
      .on(t.variantId)
      .where(sql`${t.notifiedAt} is null`),
  ],
);

/**
 * The abandoned-cart reminder, one row per member: the cart's last change it was sent for. A
 * reminder is claimed by moving `cart_changed_at` forward (a conditional upsert), so a cart is
 * reminded of once until a line is added or changed again (docs/product-rules.md#reminders).
 */
export const cartReminders = pgTable('cart_reminders', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The newest line's `updated_at` when the reminder went. */
  cartChangedAt: timestamp('cart_changed_at', { withTimezone: true }).notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Order numbers: TW + date (Asia/Taipei) + 6 digits of this sequence. */
export const orderNumberSeq = pgSequence('order_number_seq', { startWith: 1, increment: 1 });

export interface ShippingDetails {
  method: 'home' | 'cvs';
  recipientName: string;
  phone: string;
  /** Home delivery. */
  city?: string;
  district?: string;
  postalCode?: string;
  address?: string;
  /** Store pickup: copied onto the order, since stores close. */
  cvsBrand?: string;
  storeId?: string;
  storeName?: string;
  storeAddress?: string;
  storePhone?: string;
  /** The store is on an outlying island (priced by the outlying rule). */
  storeOutlying?: boolean;
}

export interface InvoiceDetails {
  type: 'member' | 'mobile' | 'certificate' | 'donation' | 'company';
  mobileBarcode?: string;
  /** 自然人憑證條碼 (ECPay CarrierType 2): 2 upper-case letters and 14 digits. */
  certificate?: string;
  donationCode?: string;
  taxId?: string;
  companyTitle?: string;
  /** The mobile barcode or donation code could not be checked with ECPay at checkout (its service was down): checked again before the invoice is issued. */
  unverified?: boolean;
}

export interface AppliedDiscount {
  kind: 'tier' | 'coupon';
  code?: string;
  label: string;
  amount: number;
}

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderNo: text('order_no').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    status: text('status', {
      enum: [
        'pending_payment',
        'payment_failed',
        'paid',
        'processing',
        'shipped',
        'returned',
        'delivered',
        'completed',
        'expired',
        'cancelled',
        'refunded',
      ],
    }).notNull(),
    paymentMethod: text('payment_method', {
      enum: ['credit_card', 'atm', 'cod', 'line_pay', 'cvs_code', 'cvs_barcode'],
    }).notNull(),
    /** Card instalments (ECPay's CreditInstallment) the buyer chose; null when paid at once. */
    installments: integer('installments'),
    shipping: jsonb('shipping').$type<ShippingDetails>().notNull(),
    invoice: jsonb('invoice').$type<InvoiceDetails>().notNull(),
    subtotal: integer('subtotal').notNull(),
    discountTotal: integer('discount_total').notNull().default(0),
    discounts: jsonb('discounts').$type<AppliedDiscount[]>().notNull().default([]),
    shippingFee: integer('shipping_fee').notNull(),
    total: integer('total').notNull(),
    note: text('note').notNull().default(''),
    /** Sent by the client with each checkout attempt: a retried request finds the same order. */
    idempotencyKey: text('idempotency_key').notNull(),
    /** Unpaid orders give their stock back after this time. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * When the payment reminder (card: shortly before the hold ends; ATM: a day before the transfer
     * deadline) was written to the outbox; set once, by the conditional update that claims it.
     */
    paymentReminderAt: timestamp('payment_reminder_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('orders_order_no_key').on(t.orderNo),
    uniqueIndex('orders_user_idempotency_key').on(t.userId, t.idempotencyKey),
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    index('orders_pending_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} in ('pending_payment', 'payment_failed')`),
  ],
);

/** What was bought, as it was at the time: names, options and prices are copied. */
export const orderItems = pgTable(
  'order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    variantId: uuid('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    productSlug: text('product_slug').notNull(),
    productName: text('product_name').notNull(),
    variantLabel: text('variant_label').notNull(),
    sku: text('sku').notNull(),
    image: jsonb('image').$type<ProductImage | null>(),
    unitPrice: integer('unit_price').notNull(),
    quantity: integer('quantity').notNull(),
    lineTotal: integer('line_total').notNull(),
  },
  (t) => [index('order_items_order_idx').on(t.orderId)],
);

/** A store payment's references as ECPay issued them (payments.store). */
export interface StoreCode {
  paymentNo: string | null;
  barcodes: [string, string, string] | null;
  expireDate: string;
}

/** One row per payment attempt (each has its own MerchantTradeNo at ECPay). */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull().default('ecpay'),
    merchantTradeNo: text('merchant_trade_no').notNull(),
    method: text('method', { enum: ['credit_card', 'atm', 'line_pay', 'cvs_code', 'cvs_barcode'] }).notNull(),
    amount: integer('amount').notNull(),
    status: text('status', { enum: ['pending', 'waiting_transfer', 'paid', 'failed'] })
      .notNull()
      .default('pending'),
    tradeNo: text('trade_no'),
    rtnCode: text('rtn_code'),
    rtnMsg: text('rtn_msg'),
    /** ATM: bank code, virtual account, deadline. */
    atm: jsonb('atm').$type<{ bankCode: string; account: string; expireDate: string } | null>(),
    /**
     * Paying at a store: the CVS code (PaymentNo) or the three barcodes, and ECPay's ExpireDate
     * (Taiwan time, yyyy/MM/dd HH:mm:ss). The attempt waits (`waiting_transfer`) until paid.
     */
    store: jsonb('store').$type<StoreCode | null>(),
    /** Card: the instalment term this attempt asked ECPay for (CreditInstallment); null at once. */
    installments: integer('installments'),
    /** Card: ECPay's authorisation number (gwsr), which its trade query for a refund needs. */
    gwsr: text('gwsr'),
    /**
     * LINE Pay: since when one request confirms this attempt at LINE (set by a conditional update,
     * cleared with the outcome), so a second return to the confirm URL never confirms it twice.
     */
    confirmingAt: timestamp('confirming_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payments_merchant_trade_no_key').on(t.merchantTradeNo),
    index('payments_order_idx').on(t.orderId),
  ],
);

/**
 * The uniform e-invoice of an order (ECPay B2C), once issued: its number, date and random code as
 * ECPay answered, the amount, and what became of it (voided; allowances below). One per order:
 * `relate_number` is the order number, which ECPay keeps unique, so a repeated issue is refused there too.
 */
export const invoices = pgTable('invoices', {
  id: uuid('id').primaryKey().defaultRandom(),
  orderId: uuid('order_id')
    .notNull()
    .unique()
    .references(() => orders.id, { onDelete: 'cascade' }),
  relateNumber: text('relate_number').notNull().unique(),
  invoiceNo: text('invoice_no').notNull().unique(),
  /** As ECPay writes it: 'yyyy-MM-dd HH:mm:ss', Taiwan time. */
  invoiceDate: text('invoice_date').notNull(),
  randomNumber: text('random_number').notNull(),
  amount: integer('amount').notNull(),
  /** The carrier, donation or company it was issued to (as the order asked, or as re-checked). */
  issuedTo: jsonb('issued_to').$type<InvoiceDetails>().notNull(),
  status: text('status', { enum: ['issued', 'void'] })
    .notNull()
    .default('issued'),
  voidReason: text('void_reason'),
  voidedAt: timestamp('voided_at', { withTimezone: true }),
  /**
   * After its period's draw, as ECPay's GetIssue reports it: '0' not won, '1' won (`award_type`
   * says which prize, IIS_Award_Type), 'X' a company invoice (not in the draw); null until known.
   */
  awardFlag: text('award_flag', { enum: ['0', '1', 'X'] }),
  awardType: text('award_type'),
  awardCheckedAt: timestamp('award_checked_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Credits (折讓) on an issued invoice for money given back after its filing period or in part.
 * Asked for online (ECPay's AllowanceByCollegiate): `pending` until the buyer agrees in ECPay's mail
 * (then `issued`, at `issued_at`); one still pending after `expires_at` (72 hours) has lapsed.
 * Rows from before online consent were issued on paper and read `issued`.
 */
export const invoiceAllowances = pgTable('invoice_allowances', {
  id: uuid('id').primaryKey().defaultRandom(),
  invoiceId: uuid('invoice_id')
    .notNull()
    .references(() => invoices.id, { onDelete: 'cascade' }),
  /** Our key for it (the refund it follows), so a repeated request is one allowance. */
  key: text('key').notNull().unique(),
  allowanceNo: text('allowance_no').notNull(),
  amount: integer('amount').notNull(),
  reason: text('reason').notNull(),
  state: text('state', { enum: ['pending', 'issued'] })
    .notNull()
    .default('issued'),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  issuedAt: timestamp('issued_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The order's history: status changes and shipment events, with time and place. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['status', 'shipment'] }).notNull(),
    status: text('status'),
    shipmentEvent: text('shipment_event'),
    location: text('location'),
    note: text('note'),
    carrier: text('carrier'),
    trackingNo: text('tracking_no'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.createdAt)],
);

/**
 * The built-in sandbox gateway's own record of the trades it handled (its side of the protocol,
 * kept apart from the shop's tables): ATM accounts wait here for a simulated transfer.
 */
export const sandboxGatewayTrades = pgTable('sandbox_gateway_trades', {
  merchantTradeNo: text('merchant_trade_no').primaryKey(),
  tradeNo: text('trade_no').notNull(),
  amount: integer('amount').notNull(),
  paymentType: text('payment_type').notNull(),
  bankCode: text('bank_code'),
  vAccount: text('v_account'),
  expireDate: text('expire_date'),
  returnUrl: text('return_url').notNull(),
  /** A CVS code or barcodes the sandbox issued (ATM keeps its own columns). */
  store: jsonb('store').$type<StoreCode | null>(),
  status: text('status', { enum: ['waiting', 'paid', 'failed', 'expired'] }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The card sandbox's trades (authorised, settled, refunded), kept across restarts like its ATM trades. */
export const sandboxCardTrades = pgTable('sandbox_card_trades', {
  tradeNo: text('trade_no').primaryKey(),
  gwsr: text('gwsr').notNull().unique(),
  trade: jsonb('trade').$type<Record<string, unknown>>().notNull(),
});

/**
 * The LINE Pay sandbox's transactions (requested, confirmed, refunded), kept across restarts like
 * the card sandbox's trades. `transaction_id` is LINE's 19-digit number, kept as text.
 */
export const sandboxLinePayTransactions = pgTable(
  'sandbox_line_pay_transactions',
  {
    transactionId: text('transaction_id').primaryKey(),
    orderId: text('order_id').notNull(),
    channelId: text('channel_id').notNull(),
    transaction: jsonb('transaction').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // LINE refuses a second request with the same orderId (1172).
  (t) => [uniqueIndex('sandbox_line_pay_channel_order_key').on(t.channelId, t.orderId)],
);

/**
 * Money given back on an order: by card through ECPay's card action API, or by bank transfer
 * (ATM and cash-on-delivery orders), which staff make and then mark done. `key` makes a refund
 * request idempotent: asking twice for the same thing is one refund.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    key: text('key').notNull().unique(),
    method: text('method', { enum: ['card', 'transfer', 'line_pay'] }).notNull(),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['pending', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    /** Transfers: where the money goes. */
    bank: jsonb('bank').$type<{ bankCode: string; account: string; holder: string } | null>(),
    /** Card: the action ECPay took (N, R, or E then N) and its answer. */
    result: text('result'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [index('refunds_order_idx').on(t.orderId)],
);

/**
 * A member's request to return a delivered order, or some of its items (docs/product-rules.md#returns).
 * requested → approved or refused by staff → received (the goods are back: staff chose, per item,
 * whether it goes back to stock, and the refund was written in the same transaction).
 */
export const orderReturns = pgTable(
  'order_returns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** The order's number and a sequence: TW20261126000012-R1. */
    returnNo: text('return_no').notNull().unique(),
    status: text('status', { enum: ['requested', 'approved', 'refused', 'received'] })
      .notNull()
      .default('requested'),
    reason: text('reason').notNull(),
    detail: text('detail').notNull().default(''),
    /** Photos in the private `returns` bucket. */
    photos: jsonb('photos').$type<string[]>().notNull().default([]),
    /** What the returned items are worth, their share of the order's discounts taken off. */
    amount: integer('amount').notNull(),
    /** ATM and cash-on-delivery orders: where the money goes back to. */
    bank: jsonb('bank').$type<{ bankCode: string; account: string; holder: string } | null>(),
    staffMessage: text('staff_message'),
    refundId: uuid('refund_id').references(() => refunds.id, { onDelete: 'set null' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('order_returns_order_idx').on(t.orderId),
    index('order_returns_status_idx').on(t.status, t.requestedAt),
  ],
);

/** The items of a return: how many of an order line, what they are worth, and whether they went back to stock. */
export const orderReturnItems = pgTable(
  'order_return_items',
  {
    returnId: uuid('return_id')
      .notNull()
      .references(() => orderReturns.id, { onDelete: 'cascade' }),
    orderItemId: uuid('order_item_id')
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    amount: integer('amount').notNull(),
    /** Staff's choice when the goods arrived: back on the shelf, or not (damaged). Null until then. */
    restock: boolean('restock'),
  },
  (t) => [
    primaryKey({ columns: [t.returnId, t.orderItemId] }),
    check('order_return_items_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

/** The e-invoice sandbox's invoices (with their allowances), so a restarted sandbox still knows what it issued. */
export const sandboxEinvoices = pgTable('sandbox_einvoices', {
  invoiceNo: text('invoice_no').primaryKey(),
  relateNumber: text('relate_number').notNull().unique(),
  invoice: jsonb('invoice').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Membership tiers: reached by paid spending over the last 12 months. */
export const membershipTiers = pgTable('membership_tiers', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  /** Paid spending over the last 12 months (integer TWD) that reaches this tier. */
  threshold: integer('threshold').notNull(),
  /** Automatic discount on every order, in whole percent. */
  discountPercent: integer('discount_percent').notNull().default(0),
  /** Free shipping from this order amount (integer TWD); null keeps the shop's rule. */
  freeShippingOver: integer('free_shipping_over'),
  sortOrder: integer('sort_order').notNull(),
  ...timestamps,
});

/** A member's saved delivery destinations: home addresses and convenience stores; one default. */
export const addresses = pgTable(
  'addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['home', 'cvs'] }).notNull(),
    label: text('label').notNull().default(''),
    recipientName: text('recipient_name').notNull(),
    phone: text('phone').notNull(),
    city: text('city'),
    district: text('district'),
    address: text('address'),
    cvsBrand: text('cvs_brand'),
    storeId: text('store_id'),
    storeName: text('store_name'),
    storeAddress: text('store_address'),
    isDefault: boolean('is_default').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('addresses_user_idx').on(t.userId),
    uniqueIndex('addresses_one_default')
      .on(t.userId)
      .where(sql`${t.isDefault}`),
  ],
);

export const coupons = pgTable(
  'coupons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['percent', 'fixed'] }).notNull(),
    /** Percent (1–100) or integer TWD. */
    value: integer('value').notNull(),
    minSpend: integer('min_spend').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    totalLimit: integer('total_limit'),
    perMemberLimit: integer('per_member_limit').notNull().default(1),
    /** Only these tiers may use it; null for every member. */
    tierCodes: text('tier_codes').array(),
    /** Only lines of these categories (or their children) count; null for the whole cart. */
    categoryIds: uuid('category_ids').array(),
    usedCount: integer('used_count').notNull().default(0),
    status: text('status', { enum: ['active', 'paused'] })
      .notNull()
      .default('active'),
    /** Shown to every member under "my coupons". */
    listed: boolean('listed').notNull().default(false),
    /** A personal coupon (e.g. the birthday coupon) belongs to one member only. */
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The birthday coupon's Taipei year: one per member and year, held by the index below. */
    birthdayYear: integer('birthday_year'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('coupons_code_key').on(t.code),
    check('coupons_used_within_limit', sql`${t.totalLimit} is null or ${t.usedCount} <= ${t.totalLimit}`),
    uniqueIndex('coupons_birthday_once')
      .on(t.ownerId, t.birthdayYear)
      .where(sql`${t.birthdayYear} is not null`),
  ],
);

/** Each use of a coupon by an order; released when an unpaid order is cancelled or expires. */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    couponId: uuid('coupon_id')
      .notNull()
      .references(() => coupons.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('coupon_redemptions_coupon_user_idx').on(t.couponId, t.userId),
    uniqueIndex('coupon_redemptions_order_key').on(t.orderId, t.couponId),
  ],
);

/** Editable site content: one row per page document or list item, validated by kind (shared/content.ts). */
export const contentItems = pgTable(
  'content_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    slug: text('slug').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** An edit saved in the console but not yet published (previewed before it goes live). */
    draftData: jsonb('draft_data').$type<Record<string, unknown>>(),
    sortOrder: integer('sort_order').notNull().default(0),
    published: boolean('published').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('content_items_kind_slug_key').on(t.kind, t.slug),
    index('content_items_kind_idx').on(t.kind, t.sortOrder),
  ],
);

/** Site-wide switches the owner sets without a deploy (maintenance mode). */
export const siteSettings = pgTable('site_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<Record<string, unknown>>().notNull(),
  ...timestamps,
});

/** Messages sent through /contact. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    referenceNo: text('reference_no').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    jobSlug: text('job_slug'),
    ip: text('ip'),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('contact_messages_reference_key').on(t.referenceNo)],
);

/** The shop's replies to a contact message, sent by mail from the console and kept with it. */
export const contactReplies = pgTable(
  'contact_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => contactMessages.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept as written, so the reply still says who wrote it after an account is removed. */
    actorEmail: text('actor_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_replies_message_idx').on(t.messageId, t.createdAt)],
);

export const contactNumberSeq = pgSequence('contact_number_seq', { startWith: 1, increment: 1 });

/** Every write made through the operations console: who, what, when, and the data before and after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept as written, so the trail still reads after an account is removed. */
    actorEmail: text('actor_email'),
    actorRole: text('actor_role'),
    /** e.g. `product.update`, `order.ship`, `content.publish`. */
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
  },
  (t) => [index('audit_log_at_idx').on(t.at), index('audit_log_entity_idx').on(t.entity, t.entityId)],
);

/** Stock changed by hand in the console (a count, damage, a delivery), with its reason. */
/** The console's stock adjustments as staff wrote them (the editor lists them); every move of stock is in stockLedger. */
export const stockAdjustments = pgTable(
  'stock_adjustments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    variantId: uuid('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    stockAfter: integer('stock_after').notNull(),
    reason: text('reason').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stock_adjustments_variant_idx').on(t.variantId, t.at)],
);

/**
 * The stock ledger: one row for every change of a variant's stock, written in the same
 * transaction as the change by the catalog's stock service (the only code that changes stock), so
 * a variant's rows always add up to its stock (docs/product-rules.md). `kind` says what moved it.
 */
export const stockLedger = pgTable(
  'stock_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    variantId: uuid('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    stockAfter: integer('stock_after').notNull(),
    kind: text('kind', {
      enum: ['opening', 'initial', 'sale', 'cancellation', 'expiry', 'refund', 'import', 'adjustment'],
    }).notNull(),
    reason: text('reason').notNull(),
    /** The order that took or gave back the stock, when an order did. */
    orderNo: text('order_no'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stock_ledger_variant_idx').on(t.variantId, t.at, t.id)],
);

/**
 * Convenience stores a store map (ECPay's 電子地圖, or the sandbox's) has named, as the logistics
 * provider's own store list (GetStoreList) or the owner describes them: order placement and the
 * address book accept only a store found here. The map's reply is unsigned, so it only names the
 * store; nothing it says of it is kept (docs/decisions/013-ecpay-logistics.md).
 */
export const cvsStores = pgTable(
  'cvs_stores',
  {
    brand: text('brand', { enum: ['7-ELEVEN', 'FAMILY', 'HILIFE', 'OK'] }).notNull(),
    storeId: text('store_id').notNull(),
    name: text('name').notNull(),
    address: text('address').notNull(),
    phone: text('phone').notNull().default(''),
    /** The store's address is on an outlying island (離島), by the rule home addresses are priced by. */
    outlying: boolean('outlying').notNull().default(false),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.brand, t.storeId] })],
);

/**
 * One trip to the store map: the token travels as MerchantTradeNo and comes back with the chosen
 * store. The reply is unsigned and cookieless, so the token is all that ties it to the member who
 * asked; it expires after 30 minutes and is read only with that member's session.
 */
export const cvsMapRequests = pgTable(
  'cvs_map_requests',
  {
    token: text('token').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    brand: text('brand', { enum: ['7-ELEVEN', 'FAMILY', 'HILIFE', 'OK'] }).notNull(),
    /** Where the browser goes back to (a path of this shop). */
    returnTo: text('return_to').notNull(),
    storeId: text('store_id'),
    chosenAt: timestamp('chosen_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('cvs_map_requests_user_idx').on(t.userId, t.createdAt),
    index('cvs_map_requests_expiry_idx').on(t.expiresAt),
  ],
);

/**
 * A logistics order made with ECPay (or the sandbox) for an order's parcel: ECPay's logistics id,
 * our MerchantTradeNo, what the store or carrier needs (payment and validation numbers for a
 * store, the booking note for home delivery), the amount to collect at the counter, and the
 * latest status ECPay reported (docs/decisions/013-ecpay-logistics.md).
 */
export const shipments = pgTable(
  'shipments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    merchantTradeNo: text('merchant_trade_no').notNull(),
    logisticsId: text('logistics_id').notNull(),
    logisticsType: text('logistics_type', { enum: ['CVS', 'HOME'] }).notNull(),
    subType: text('sub_type').notNull(),
    goodsAmount: integer('goods_amount').notNull(),
    /** Cash the store collects from the buyer (超商取貨付款); 0 when paid online. */
    collectionAmount: integer('collection_amount').notNull().default(0),
    cvsPaymentNo: text('cvs_payment_no').notNull().default(''),
    cvsValidationNo: text('cvs_validation_no').notNull().default(''),
    bookingNote: text('booking_note').notNull().default(''),
    statusCode: integer('status_code').notNull(),
    statusMessage: text('status_message').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('shipments_trade_no_idx').on(t.merchantTradeNo),
    uniqueIndex('shipments_logistics_id_idx').on(t.logisticsId),
    index('shipments_order_idx').on(t.orderId),
  ],
);

/** The sandbox logistics gateway's own record of the shipments it took (its side of the protocol). */
export const sandboxLogisticsShipments = pgTable('sandbox_logistics_shipments', {
  logisticsId: text('logistics_id').primaryKey(),
  merchantTradeNo: text('merchant_trade_no').notNull(),
  fields: jsonb('fields').$type<Record<string, string>>().notNull(),
  statusCode: integer('status_code').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Each status notice ECPay sent, once: a replayed notice finds its row and changes nothing. */
export const logisticsNotices = pgTable(
  'logistics_notices',
  {
    logisticsId: text('logistics_id').notNull(),
    statusCode: integer('status_code').notNull(),
    /** ECPay's UpdateStatusDate, as sent (yyyy/MM/dd HH:mm:ss, Taiwan time). */
    statusDate: text('status_date').notNull(),
    message: text('message').notNull().default(''),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.logisticsId, t.statusCode, t.statusDate] })],
);

/**
 * A signed-in member's cookie choices (docs/decisions/042): one row per optional category each time
 * they choose, never updated, so the shop can show what was agreed and when. The browser's own copy
 * (localStorage) is what decides what loads. Distinct from a marketing-mail consent.
 */
export const cookieConsents = pgTable(
  'cookie_consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'analytics' or 'marketing'. */
    kind: text('kind').notNull(),
    granted: boolean('granted').notNull(),
    /** 'banner' (the first choice) or 'settings' (the footer's 「Cookie 設定」). */
    source: text('source').notNull(),
    /** The banner's version the member answered. */
    version: integer('version').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('cookie_consents_user_idx').on(t.userId, t.at),
    check('cookie_consents_kind_known', sql`${t.kind} in ('analytics', 'marketing')`),
    check('cookie_consents_source_known', sql`${t.source} in ('banner', 'settings')`),
  ],
);
