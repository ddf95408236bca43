import type { InputHTMLAttributes, Ref } from 'react';
import type { FieldErrors, Resolver } from 'react-hook-form';
import {
  CreateProductBody,
  OptionName,
  OptionValue,
  UpdateProductBody,
  type AdminProductDetail,
  type AdminVariant,
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
  /** The value chosen for each of the product's options, in their order ('' while none is chosen). */
  options: string[];
  price: string;
  compareAtPrice: string;
  /** The starting stock of a new variant; existing variants change stock through adjustments. */
  stock: string;
  lowStockThreshold: string;
  active: boolean;
  ordered: boolean;
}

/**
 * One of the product's options, as Shopify's editor has them: a name (規格, 包裝) and the values a
 * variant may take (75 g, 150 g). Each variant then picks one value of each option.
 */
export interface OptionFormValue {
  name: string;
  values: Array<{ value: string }>;
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
  options: OptionFormValue[];
  variants: VariantFormValue[];
}

/** Steps are written 「標題｜說明」, one per line. */
export const STEP_SEPARATOR = '｜';

export function toEditableBlock(block: DescriptionBlockInput): EditableBlock {
  switch (block.type) {
    case 'list':
      return { type: 'list', text: block.items.join('\n') };
    case 'steps':
      return {
        type: 'steps',
        text: block.items.map((s) => `${s.title}${STEP_SEPARATOR}${s.text}`).join('\n'),
      };
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
          return at < 0
            ? { title: line, text: '' }
            : { title: line.slice(0, at).trim(), text: line.slice(at + 1).trim() };
        }),
      };
    case 'quote':
      return block.cite.trim()
        ? { type: 'quote', text: block.text, cite: block.cite }
        : { type: 'quote', text: block.text };
    default:
      return { type: block.type, text: block.text };
  }
}

/** A new variant row: no value chosen yet for any of the product's `optionCount` options. */
export const emptyVariant = (optionCount = 0): VariantFormValue => ({
  sku: '',
  options: Array.from({ length: optionCount }, () => ''),
  price: '',
  compareAtPrice: '',
  stock: '0',
  lowStockThreshold: '5',
  active: true,
  ordered: false,
});

/** The product's options from its variants: names in the order they first appear, each with its values. */
export function optionsOf(variants: readonly Pick<AdminVariant, 'options'>[]): OptionFormValue[] {
  const values = new Map<string, string[]>();
  for (const v of variants) {
    for (const [name, value] of Object.entries(v.options)) {
      const list = values.get(name) ?? [];
      if (!list.includes(value)) list.push(value);
      values.set(name, list);
    }
  }
  return [...values].map(([name, list]) => ({ name, values: list.map((value) => ({ value })) }));
}

/**
 * A new variant is blank until someone types its SKU or a price (a row made from the options has
 * its choices but nothing typed yet): its errors wait for that, or for a save.
 */
export function isBlankNewVariant(v: VariantFormValue): boolean {
  return !v.id && !v.sku.trim() && !v.price.trim() && !v.compareAtPrice.trim();
}

/** Every combination of the options' values, in order (規格 × 包裝 …); none when an option has no value. */
export function optionCombinations(offered: readonly (readonly string[])[]): string[][] {
  if (offered.length === 0 || offered.some((values) => values.length === 0)) return [];
  return offered.reduce<string[][]>(
    (combos, values) => combos.flatMap((c) => values.map((v) => [...c, v])),
    [[]],
  );
}

/** The values each option offers, as typed (blank and repeated ones left out). */
export function offeredValues(options: readonly OptionFormValue[]): string[][] {
  return options.map((o) => [...new Set(o.values.map((v) => v.value.trim()).filter(Boolean))]);
}

export function toFormValues(detail: AdminProductDetail | null): ProductFormValues {
  if (!detail) {
    return {
      name: '',
      slug: '',
      summary: '',
      categorySlug: '',
      tags: '',
      status: 'draft',
      specs: [],
      description: [],
      images: [],
      options: [],
      variants: [emptyVariant()],
    };
  }
  const options = optionsOf(detail.variants);
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
    options,
    variants: detail.variants.map((v) => ({
      id: v.id,
      sku: v.sku,
      options: options.map((o) => v.options[o.name] ?? ''),
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

/**
 * The product's options checked as the editor shows them: a message per option name and per
 * option's values, keyed by form path; and the values each option offers.
 */
function checkOptions(options: readonly OptionFormValue[]): {
  errors: Record<string, string>;
  offered: string[][];
} {
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  const offered = options.map((option, k) => {
    const name = OptionName.safeParse(option.name);
    if (!name.success) errors[`options.${k}.name`] = name.error.issues[0]?.message ?? '選項名稱不正確';
    else if (seen.has(name.data)) errors[`options.${k}.name`] = `選項「${name.data}」重複了`;
    else seen.add(name.data);
    const values: string[] = [];
    for (const { value } of option.values) {
      if (!value.trim()) continue;
      const checked = OptionValue.safeParse(value);
      if (!checked.success)
        errors[`options.${k}.values`] ??= checked.error.issues[0]?.message ?? '選項內容不正確';
      else if (values.includes(checked.data)) errors[`options.${k}.values`] ??= `「${checked.data}」重複了`;
      else values.push(checked.data);
    }
    if (values.length === 0) errors[`options.${k}.values`] ??= '請至少填一個內容，例如「75 g」';
    return values;
  });
  return { errors, offered };
}

/** The API body of the form, and the option problems the API's schema cannot see (form paths). */
export function toBody(values: ProductFormValues, updatedAt?: string) {
  const { errors: optionErrors, offered } = checkOptions(values.options);
  const variants = values.variants.map((v, i) => {
    const options: Record<string, string> = {};
    values.options.forEach((option, k) => {
      const value = v.options[k]?.trim() ?? '';
      if (offered[k]?.includes(value)) options[option.name.trim()] = value;
      else optionErrors[`variants.${i}.options`] ??= `請選擇「${option.name.trim() || `選項 ${k + 1}`}」`;
    });
    return {
      ...(v.id ? { id: v.id } : {}),
      sku: v.sku.trim(),
      options,
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
  // An option of a variant (`variants.0.options.規格`) shows under the row's option choices.
  if (parts[0] === 'variants' && parts[2] === 'options') return parts.slice(0, 3).join('.');
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

/**
 * The editor's check and its save: `save` runs a submit handler with the check in its save mode,
 * so a save reports every error, new rows included.
 */
export function productChecker(mode: 'create' | 'update') {
  let saving = false;
  return {
    resolver: productResolver(mode, () => saving),
    async save(submit: () => Promise<void>): Promise<void> {
      saving = true;
      try {
        await submit();
      } finally {
        saving = false;
      }
    },
  };
}

/** Flat { 'variants.0.price': message } to react-hook-form's nested errors. */
export function nestErrors(flat: Record<string, string>): FieldErrors<ProductFormValues> {
  const out: Record<string, unknown> = {};
  for (const [path, message] of Object.entries(flat)) setPath(out, formPath(path), message);
  return out as FieldErrors<ProductFormValues>;
}

/**
 * Checks the whole form with the API's schema (create or update). While someone edits (not on
 * save: `isSaving` says which), a new variant row nobody has typed in yet has no errors: a row just
 * added must not greet its author in red.
 */
export function productResolver(
  mode: 'create' | 'update',
  isSaving: () => boolean = () => false,
): Resolver<ProductFormValues> {
  return (values) => {
    const { body, optionErrors } = toBody(values);
    const parsed = mode === 'create' ? CreateProductBody.safeParse(body) : UpdateProductBody.safeParse(body);
    const flat: Record<string, string> = { ...optionErrors };
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        flat[formPath(issue.path.join('.')) || 'root'] ??= issue.message;
      }
    }
    if (!isSaving()) {
      values.variants.forEach((v, i) => {
        if (!isBlankNewVariant(v)) return;
        for (const key of Object.keys(flat)) if (key.startsWith(`variants.${i}.`)) delete flat[key];
      });
    }
    if (Object.keys(flat).length === 0) return { values, errors: {} };
    return { values: {}, errors: nestErrors(flat) };
  };
}

/** A compact input for a table cell: labelled for screen readers, its error right below it. */
export function CellInput({
  label,
  error,
  className,
  ref,
  id,
  ...rest
}: InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
  id: string;
}) {
  return (
    <div className="flex flex-col gap-1">
      <input
        ref={ref}
        id={id}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={cn(
          'block min-h-10 w-full rounded-md border bg-surface px-2.5 text-[0.9375rem] text-ink focus-visible:outline-3 focus-visible:outline-solid focus-visible:outline-tea-dark disabled:bg-paper disabled:text-ink-muted',
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
