import type { InputHTMLAttributes, Ref } from 'react';
import type { FieldErrors, Resolver } from 'react-hook-form';
import {
  CreateProductBody,
  UpdateProductBody,
  formatOptions,
  parseOptions,
  type AdminProductDetail,
  type DescriptionBlockInput,
  type ProductStatus,
} from '@shop/shared/admin-products';
import { cn } from '../../../components/ui/cn.ts';

/**
 * The product editor's form model. Every input holds text (numbers too), so a half-typed value is
 * never lost or coerced; toBody() turns the form into the API body, and the resolver checks it
 * with the same zod schema the server uses, so a field's message reads the same on both sides.
 */

export interface VariantFormValue {
  id?: string | undefined;
  sku: string;
  /** 規格=75 g;包裝=罐裝 */
  options: string;
  price: string;
  compareAtPrice: string;
  /** The starting stock of a new variant; existing variants change stock through adjustments. */
  stock: string;
  lowStockThreshold: string;
  active: boolean;
  ordered: boolean;
}

export interface ImageFormValue {
  name: string;
  alt: string;
  url: string;
}

/** A description block as the editor holds it: lists and steps as one line per item. */
export type EditableBlock =
  | { type: 'heading'; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; text: string }
  | { type: 'quote'; text: string; cite: string }
  | { type: 'steps'; text: string };

export interface ProductFormValues {
  name: string;
  slug: string;
  summary: string;
  categorySlug: string;
  /** Comma-separated. */
  tags: string;
  status: ProductStatus;
  specs: Array<{ label: string; value: string }>;
  description: EditableBlock[];
  images: ImageFormValue[];
  variants: VariantFormValue[];
}

/** Steps are written 「標題｜說明」, one per line. */
export const STEP_SEPARATOR = '｜';

export function toEditableBlock(block: DescriptionBlockInput): EditableBlock {
  switch (block.type) {
    case 'list':
      return { type: 'list', text: block.items.join('\n') };
    case 'steps':
      return { type: 'steps', text: block.items.map((s) => `${s.title}${STEP_SEPARATOR}${s.text}`).join('\n') };
    case 'quote':
      return { type: 'quote', text: block.text, cite: block.cite ?? '' };
    default:
      return { type: block.type, text: block.text };
  }
}

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

export function fromEditableBlock(block: EditableBlock): DescriptionBlockInput {
  switch (block.type) {
    case 'list':
      return { type: 'list', items: lines(block.text) };
    case 'steps':
      return {
        type: 'steps',
        items: lines(block.text).map((line) => {
          const at = line.search(/[｜|]/);
          return at < 0 ? { title: line, text: '' } : { title: line.slice(0, at).trim(), text: line.slice(at + 1).trim() };
        }),
      };
    case 'quote':
      return block.cite.trim() ? { type: 'quote', text: block.text, cite: block.cite } : { type: 'quote', text: block.text };
    default:
      return { type: block.type, text: block.text };
  }
}

export const emptyVariant = (): VariantFormValue => ({ sku: '', options: '', price: '', compareAtPrice: '', stock: '0', lowStockThreshold: '5', active: true, ordered: false });

export function toFormValues(detail: AdminProductDetail | null): ProductFormValues {
  if (!detail) {
    return { name: '', slug: '', summary: '', categorySlug: '', tags: '', status: 'draft', specs: [], description: [], images: [], variants: [emptyVariant()] };
  }
  return {
    name: detail.name,
    slug: detail.slug,
    summary: detail.summary,
    categorySlug: detail.category.slug,
    tags: detail.tags.join('、'),
    status: detail.status,
    specs: detail.specs.map((s) => ({ ...s })),
    description: detail.description.map(toEditableBlock),
    images: detail.images.map((i) => ({ name: i.name, alt: i.alt, url: i.url })),
    variants: detail.variants.map((v) => ({
      id: v.id,
      sku: v.sku,
      options: formatOptions(v.options),
      price: String(v.price),
      compareAtPrice: v.compareAtPrice === null ? '' : String(v.compareAtPrice),
      stock: String(v.stock),
      lowStockThreshold: String(v.lowStockThreshold),
      active: v.active,
      ordered: v.ordered,
    })),
  };
}

/** Whole numbers only; anything else becomes NaN so the schema names the field. */
function int(text: string): number {
  const t = text.trim().replaceAll(',', '');
  return /^-?\d{1,12}$/.test(t) ? Number(t) : Number.NaN;
}

export function splitTags(text: string): string[] {
  return text
    .split(/[,，、]/)
    .map((t) => t.trim())
    .filter(Boolean);
}

/** The API body of the form, and the option cells that could not be read. */
export function toBody(values: ProductFormValues, updatedAt?: string) {
  const optionErrors: Record<string, string> = {};
  const variants = values.variants.map((v, i) => {
    const options = parseOptions(v.options);
    if (!options.ok) optionErrors[`variants.${i}.options`] = options.message;
    return {
      ...(v.id ? { id: v.id } : {}),
      sku: v.sku.trim(),
      options: options.ok ? options.options : {},
      price: int(v.price),
      compareAtPrice: v.compareAtPrice.trim() === '' ? null : int(v.compareAtPrice),
      ...(v.id ? {} : { stock: v.stock.trim() === '' ? 0 : int(v.stock) }),
      lowStockThreshold: v.lowStockThreshold.trim() === '' ? 5 : int(v.lowStockThreshold),
      active: v.active,
    };
  });
  const body = {
    slug: values.slug.trim().toLowerCase(),
    name: values.name.trim(),
    summary: values.summary.trim(),
    categorySlug: values.categorySlug,
    tags: splitTags(values.tags),
    status: values.status,
    specs: values.specs.map((s) => ({ label: s.label.trim(), value: s.value.trim() })),
    description: values.description.map(fromEditableBlock),
    images: values.images.map((i) => ({ name: i.name, alt: i.alt.trim() })),
    variants,
    ...(updatedAt ? { updatedAt } : {}),
  };
  return { body, optionErrors };
}

/** Collapses a zod/server path to the form field that shows it (description items show on their block). */
export function formPath(path: string): string {
  const parts = path.split('.');
  if (parts[0] === 'description' && parts.length > 2) return `description.${parts[1]}`;
  if (parts[0] === 'tags' && parts.length > 1) return 'tags';
  if (parts[0] === 'images' && parts[2] === 'name') return `images.${parts[1]}.alt`;
  return path;
}

const ARRAY_FIELDS = new Set(['variants', 'images', 'specs', 'description']);

function setPath(target: Record<string, unknown>, path: string, message: string) {
  // An error about a whole list (「至少要有一個規格」) sits on its `root`, beside the items' errors.
  const parts = ARRAY_FIELDS.has(path) ? [path, 'root'] : path.split('.');
  let node: Record<string, unknown> = target;
  for (const [i, part] of parts.entries()) {
    if (i === parts.length - 1) {
      node[part] ??= { type: 'validate', message };
    } else {
      node[part] ??= /^\d+$/.test(parts[i + 1]!) ? [] : {};
      node = node[part] as Record<string, unknown>;
    }
  }
}

/** Flat { 'variants.0.price': message } to react-hook-form's nested errors. */
export function nestErrors(flat: Record<string, string>): FieldErrors<ProductFormValues> {
  const out: Record<string, unknown> = {};
  for (const [path, message] of Object.entries(flat)) setPath(out, formPath(path), message);
  return out as FieldErrors<ProductFormValues>;
}

/** Checks the whole form with the API's schema (create or update). */
export function productResolver(mode: 'create' | 'update'): Resolver<ProductFormValues> {
  return (values) => {
    const { body, optionErrors } = toBody(values);
    const parsed = mode === 'create' ? CreateProductBody.safeParse(body) : UpdateProductBody.safeParse(body);
    const flat: Record<string, string> = { ...optionErrors };
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        flat[issue.path.join('.') || 'root'] ??= issue.message;
      }
    }
    if (Object.keys(flat).length === 0) return { values, errors: {} };
    return { values: {}, errors: nestErrors(flat) };
  };
}

/** A compact input for a table cell: labelled for screen readers, its error right below it. */
export function CellInput({ label, error, className, ref, id, ...rest }: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | undefined; ref?: Ref<HTMLInputElement>; id: string }) {
  return (
    <div className="flex flex-col gap-1">
      <input
        ref={ref}
        id={id}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={cn(
          'block min-h-10 w-full rounded-md border bg-surface px-2.5 text-[0.9375rem] text-ink focus:outline-none focus-visible:outline-3 focus-visible:outline-tea-dark disabled:bg-paper disabled:text-ink-muted',
          error ? 'border-danger' : 'border-line',
          className,
        )}
        {...rest}
      />
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs leading-snug text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
