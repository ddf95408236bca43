import type { DescriptionBlock, ProductSpec } from '@shop/shared/catalog-blocks';

/** Shapes of the demo catalog (seed data only; the database schema is in ../schema.ts). */

export interface DemoCategory {
  readonly slug: string;
  readonly name: string;
  readonly description: string;
  /** Slug of the parent category; categories nest one level. */
  readonly parent?: string;
  readonly sortOrder: number;
}

export type IllustrationKind =
  'tea-tin' | 'tea-pouch' | 'teapot' | 'cup' | 'bottle' | 'gift-box' | 'tea-bag-box' | 'tray';

export interface Illustration {
  readonly kind: IllustrationKind;
  /** Main colour of the object (hex, e.g. '#3F6B4F'). */
  readonly primary: string;
  /** Accent colour (label, lid, ribbon). */
  readonly accent: string;
  /** Background tint behind the object (a light hex). */
  readonly background: string;
  /** Up to 4 Chinese characters printed on the label, e.g. '凍頂'. */
  readonly label?: string;
}

export interface DemoVariant {
  readonly sku: string;
  /** Option name → value, e.g. { 規格: '75 g' } or { 規格: '150 g', 包裝: '罐裝' }. */
  readonly options: Readonly<Record<string, string>>;
  /** Integer TWD. */
  readonly price: number;
  /** Integer TWD, higher than price when on sale. */
  readonly compareAtPrice?: number;
  readonly stock: number;
  readonly lowStockThreshold: number;
}

export interface DemoProduct {
  readonly slug: string;
  readonly name: string;
  /** One or two sentences for the grid and search. */
  readonly summary: string;
  /** Slug of a child category (or a top-level one without children). */
  readonly category: string;
  readonly tags: readonly string[];
  readonly specs: readonly ProductSpec[];
  readonly description: readonly DescriptionBlock[];
  readonly status: 'active' | 'draft' | 'archived';
  /** Higher sorts first in the default order. */
  readonly sortWeight: number;
  /** How long ago it was added (drives "newest"). */
  readonly createdDaysAgo: number;
  /** Units sold so far (drives "best-selling"). */
  readonly soldCount: number;
  /** 1–3 images, the first is the cover; each one an illustration drawn by code. */
  readonly images: readonly (Illustration & { readonly alt: string })[];
  readonly variants: readonly DemoVariant[];
}
