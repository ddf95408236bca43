import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DescriptionBlock, ProductSpec } from '@shop/shared/catalog-blocks';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Spec §7: path-based redirect lookup. `path` is stored lower-cased without a trailing slash. */
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
    role: text('role', { enum: ['customer', 'owner', 'staff', 'viewer'] }).notNull().default('customer'),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
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
    index('sessions_user_id_idx').on(t.userId).where(sql`${t.revokedAt} is null`),
  ],
);

/** Single-use codes mailed as links: e-mail verification (24 h) and password reset (1 h). */
export const actionCodes = pgTable(
  'action_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the account is deleted: its links then answer `user-not-found`. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['verify-email', 'reset-password'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    /** The address the code was sent to. */
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('action_codes_code_hash_key').on(t.codeHash), index('action_codes_user_kind_idx').on(t.userId, t.kind)],
);

/** Mail kept instead of sent when no SMTP server is configured (never in production). */
export const mailOutbox = pgTable('mail_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  html: text('html').notNull(),
  text: text('text').notNull(),
  /** The main link of the mail, for the mailbox page and tests. */
  meta: jsonb('meta').$type<{ link?: string; kind?: string }>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

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
    status: text('status', { enum: ['draft', 'active', 'archived'] }).notNull().default('draft'),
    sortWeight: integer('sort_weight').notNull().default(0),
    /** Units sold; orders add to it when paid (drives "best-selling"). */
    soldCount: integer('sold_count').notNull().default(0),
    /** name + summary + tags, lower-cased, kept by the service for substring search (pg_trgm index). */
    searchText: text('search_text').notNull().default(''),
    /** Where an archived product's page now points. */
    replacementId: uuid('replacement_id').references((): AnyPgColumn => products.id, { onDelete: 'set null' }),
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
