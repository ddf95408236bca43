import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DescriptionBlock } from './catalog-blocks.ts';
import { CONTENT_KINDS, ContentImage, type ContentKind } from './content.ts';
import {
  BLOCK_FIELDS,
  BLOCK_TYPES,
  CONTENT_KIND_DEFS,
  CONTENT_SLUG,
  type ContentField,
} from './admin-content.ts';

/**
 * Each kind of site content is declared twice: as the zod schema every write is checked against
 * (content.ts) and as the console editor's fields (admin-content.ts). Both are brought to one plain
 * description here, a kind's schema key by key and its editor field by field, and must be equal:
 * the same keys, a compatible field type, the same required/optional/nullable, the same lengths,
 * ranges, item counts and choices.
 */

type Presence = 'required' | 'optional' | 'may-be-empty';
type Shape =
  | {
      t: 'string';
      presence: Presence;
      max: number | null;
      format: 'slug' | 'date' | 'url' | null;
      nullable?: true;
    }
  | { t: 'number'; presence: Presence; int: boolean; min: number | null; max: number | null }
  | { t: 'boolean'; presence: Presence }
  | { t: 'enum'; presence: Presence; values: string[] }
  | { t: 'array'; presence: Presence; min: number; max: number | null; of: Shape }
  | { t: 'object'; presence: Presence; keys: Record<string, Shape> }
  | { t: 'blocks' }
  | { t: 'image'; presence: Presence; nullable?: true }
  | { t: 'file'; presence: Presence };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/.source;

/** The longest string a simple pattern accepts (`^[a-z0-9-]{1,80}$` → 80), or null. */
const patternMax = (pattern: string): number | null => {
  const m = /\{\d+,(\d+)\}\$$/.exec(pattern);
  return m ? Number(m[1]) : null;
};

interface Check {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  format?: string;
  pattern?: RegExp;
}
interface Def {
  type: string;
  checks?: Array<{ _zod: { def: Check } }>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, string>;
  format?: string;
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): Check[] => (def.checks ?? []).map((c) => c._zod.def);

function schemaShape(schema: z.ZodType, presence: Presence = 'required', nullable = false): Shape {
  if (schema === (DescriptionBlock as z.ZodType)) return { t: 'blocks' };
  if (schema === (ContentImage as z.ZodType))
    return { t: 'image', presence, ...(nullable ? { nullable: true as const } : {}) };
  const def = defOf(schema);
  const checks = checksOf(def);
  switch (def.type) {
    case 'optional':
      return schemaShape(def.innerType!, 'optional', nullable);
    case 'nullable':
      return schemaShape(def.innerType!, presence, true);
    case 'string': {
      const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      const pattern =
        checks.find((c) => c.check === 'string_format' && c.format === 'regex')?.pattern?.source ?? null;
      const url = def.format === 'url';
      const format = url
        ? 'url'
        : pattern === CONTENT_SLUG.source
          ? 'slug'
          : pattern === ISO_DATE
            ? 'date'
            : null;
      const max =
        checks.find((c) => c.check === 'max_length')?.maximum ?? (pattern ? patternMax(pattern) : null);
      const nonEmpty = min >= 1 || pattern !== null || url;
      return {
        t: 'string',
        presence: presence === 'optional' ? 'optional' : nonEmpty ? 'required' : 'may-be-empty',
        max,
        format,
        ...(nullable ? { nullable: true as const } : {}),
      };
    }
    case 'number':
      return {
        t: 'number',
        presence,
        int: checks.some((c) => c.check === 'number_format' && c.format === 'safeint'),
        min: checks.find((c) => c.check === 'greater_than')?.value ?? null,
        max: checks.find((c) => c.check === 'less_than')?.value ?? null,
      };
    case 'boolean':
      return { t: 'boolean', presence };
    case 'enum':
      return { t: 'enum', presence, values: Object.values(def.entries!) };
    case 'array': {
      const exact = checks.find((c) => c.check === 'length_equals')?.length;
      return {
        t: 'array',
        presence,
        min: exact ?? checks.find((c) => c.check === 'min_length')?.minimum ?? 0,
        max: exact ?? checks.find((c) => c.check === 'max_length')?.maximum ?? null,
        of: schemaShape(def.element!),
      };
    }
    case 'object': {
      const keys = Object.keys(def.shape!);
      if (keys.length === 2 && keys.includes('bucket') && keys.includes('name'))
        return { t: 'file', presence };
      return {
        t: 'object',
        presence,
        keys: Object.fromEntries(keys.map((k) => [k, schemaShape(def.shape![k]!)])),
      };
    }
    default:
      throw new Error(`no editor field can stand for a zod ${def.type}`);
  }
}

function fieldShape(f: ContentField): Shape {
  switch (f.type) {
    case 'slug':
    case 'category':
      return { t: 'string', presence: 'required', max: patternMax(CONTENT_SLUG.source), format: 'slug' };
    case 'text':
      return {
        t: 'string',
        presence: f.optional ? 'optional' : 'required',
        max: f.maxLength,
        format: f.inputType === 'url' ? 'url' : null,
      };
    case 'textarea':
      return { t: 'string', presence: 'required', max: f.maxLength, format: null };
    case 'date':
      return {
        t: 'string',
        presence: 'required',
        max: null,
        format: 'date',
        ...(f.nullable ? { nullable: true as const } : {}),
      };
    case 'number':
      return { t: 'number', presence: 'required', int: true, min: f.min, max: f.max };
    case 'boolean':
      return { t: 'boolean', presence: 'required' };
    case 'select':
      return { t: 'enum', presence: 'required', values: f.options.map((o) => o.value) };
    case 'strings':
      return {
        t: 'array',
        presence: 'required',
        min: f.minItems,
        max: f.maxItems,
        of: { t: 'string', presence: 'required', max: f.itemMaxLength, format: f.slugs ? 'slug' : null },
      };
    case 'list':
      return {
        t: 'array',
        presence: 'required',
        min: f.minItems,
        max: f.maxItems,
        of: { t: 'object', presence: 'required', keys: fieldsShape(f.fields) },
      };
    case 'blocks':
      return { t: 'array', presence: 'required', min: f.minItems, max: f.maxItems, of: { t: 'blocks' } };
    case 'image':
      return { t: 'image', presence: 'required', ...(f.nullable ? { nullable: true as const } : {}) };
    case 'file':
      return { t: 'file', presence: 'required' };
  }
}

function fieldsShape(fields: readonly ContentField[]): Record<string, Shape> {
  const out: Record<string, Shape> = {};
  for (const f of fields) {
    if (f.key in out) throw new Error(`two editor fields for ${f.key}`);
    out[f.key] = fieldShape(f);
  }
  return out;
}

const kindKeys = (kind: ContentKind) => {
  const shape = schemaShape(CONTENT_KINDS[kind]);
  if (shape.t !== 'object') throw new Error(`${kind} is not an object schema`);
  return shape.keys;
};

describe('the content editor and the content schemas agree', () => {
  it.each(Object.keys(CONTENT_KINDS) as ContentKind[])(
    '%s: every schema key has an editor field of the same kind, limits and presence, and no field is extra',
    (kind) => {
      expect(CONTENT_KIND_DEFS[kind].kind).toBe(kind);
      expect(fieldsShape(CONTENT_KIND_DEFS[kind].fields)).toEqual(kindKeys(kind));
    },
  );

  it('every content kind has an editor definition and no definition lacks a schema', () => {
    expect(Object.keys(CONTENT_KIND_DEFS).sort()).toEqual(Object.keys(CONTENT_KINDS).sort());
  });

  it.each(BLOCK_TYPES.map((b) => b.type))(
    'rich-text block %s: the editor fields are the block schema (its type aside)',
    (type) => {
      const option = (DescriptionBlock as unknown as { options: z.ZodType[] }).options.find((o) => {
        const shape = defOf(o).shape!;
        return (defOf(shape.type!) as unknown as { values: string[] }).values.includes(type);
      });
      expect(option).toBeDefined();
      const keys = Object.entries(defOf(option!).shape!).filter(([key]) => key !== 'type');
      expect(fieldsShape(BLOCK_FIELDS[type])).toEqual(
        Object.fromEntries(keys.map(([key, schema]) => [key, schemaShape(schema)])),
      );
    },
  );

  it('the comparison notices a field that disagrees', () => {
    const fields = CONTENT_KIND_DEFS.faq.fields.map((f) =>
      f.key === 'question' && f.type === 'text' ? { ...f, maxLength: 81 } : f,
    );
    expect(fieldsShape(fields)).not.toEqual(kindKeys('faq'));
    const missing = CONTENT_KIND_DEFS.faq.fields.filter((f) => f.key !== 'answer');
    expect(fieldsShape(missing)).not.toEqual(kindKeys('faq'));
    const optional = CONTENT_KIND_DEFS.job.fields.map((f) =>
      f.key === 'title' && f.type === 'text' ? { ...f, optional: true } : f,
    );
    expect(fieldsShape(optional)).not.toEqual(kindKeys('job'));
  });
});
