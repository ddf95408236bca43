/**
 * The validation rule set of spec §5, shared by the forms and the server. Rule names and
 * semantics follow the spec's list (the vee-validate rule names); messages are zh-TW with
 * `{field}` replaced by the field's label and the bound filled in. Every rule except `required`
 * passes on an empty value, so optional fields stay optional.
 */

export const RULE_NAMES = [
  'alpha', 'alpha_dash', 'alpha_num', 'alpha_spaces', 'between', 'confirmed', 'digits', 'dimensions',
  'email', 'ext', 'image', 'integer', 'is', 'is_not', 'length', 'max', 'max_value', 'mimes', 'min',
  'min_value', 'not_one_of', 'numeric', 'one_of', 'regex', 'required', 'size', 'url',
] as const;
export type RuleName = (typeof RULE_NAMES)[number];

/** A file as the rules see it: a browser File, or the server's record of an upload. */
export interface FileLike {
  readonly name: string;
  readonly size: number;
  readonly type: string;
  /** Pixel size, for `dimensions` (the caller reads it from the image). */
  readonly width?: number;
  readonly height?: number;
}

/**
 * zh-TW messages (spec §5 table). Placeholders: {field}, {length}, {min}, {max}, {size}, {target}.
 * Rules without an entry use `default`.
 */
export const RULE_MESSAGES: Readonly<Partial<Record<RuleName, string>>> & { readonly default: string } = {
  default: '{field}的內容不正確',
  required: '{field}為必填欄位',
  email: '{field}必須是有效的電子郵件地址',
  min: '{field}不能少於 {length} 個字元',
  max: '{field}不能超過 {length} 個字元',
  min_value: '{field}不能小於 {min}',
  max_value: '{field}不能大於 {max}',
  digits: '{field}必須是 {length} 位數字',
  numeric: '{field}只能輸入數字',
  integer: '{field}必須是整數',
  confirmed: '{field}不一致',
  url: '{field}必須是有效的網址',
  image: '{field}必須是圖片檔',
  size: '{field}的檔案大小必須小於 {size} KB',
  regex: '{field}格式不正確',
};

export interface RuleContext {
  /** Other values of the same form, for `confirmed`. */
  readonly values?: Readonly<Record<string, unknown>>;
}

export interface RuleRef {
  readonly rule: RuleName;
  readonly params: readonly string[];
}

function isFileLike(value: unknown): value is FileLike {
  return typeof value === 'object' && value !== null && 'name' in value && 'size' in value && 'type' in value;
}

export function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (typeof value === 'string') return value.trim().length === 0;
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** Length in characters as a reader counts them (code points, so 山 is one). */
function charLength(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return [...String(value)].length;
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

const num = (p: string | undefined) => Number(p);

function all<T>(value: unknown, test: (v: unknown) => T): boolean {
  return Array.isArray(value) ? value.every((v) => Boolean(test(v))) : Boolean(test(value));
}

// A practical e-mail check: local part, one @, a dotted domain; no spaces or brackets.
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/u;

// The shared package compiles with neither DOM nor Node types; both runtimes have the WHATWG URL.
declare const URL: new (input: string) => { readonly protocol: string };

function mimeMatches(type: string, pattern: string): boolean {
  const [pt, ps] = pattern.toLowerCase().split('/');
  const [t, s] = type.toLowerCase().split('/');
  return pt === t && (ps === '*' || ps === s);
}

function fileExt(name: string): string {
  const i = name.lastIndexOf('.');
  return i < 0 ? '' : name.slice(i + 1).toLowerCase();
}

/** True when `value` satisfies `rule` with `params`. */
export function checkRule(rule: RuleName, value: unknown, params: readonly string[] = [], ctx: RuleContext = {}): boolean {
  if (rule === 'required') return !isEmpty(value);
  if (rule === 'confirmed') {
    const target = params[0];
    return target === undefined ? false : (value ?? '') === (ctx.values?.[target] ?? '');
  }
  if (isEmpty(value)) return true;
  switch (rule) {
    case 'alpha':
      return all(value, (v) => /^[\p{L}\p{M}]+$/u.test(String(v)));
    case 'alpha_dash':
      return all(value, (v) => /^[\p{L}\p{M}\p{Nd}_-]+$/u.test(String(v)));
    case 'alpha_num':
      return all(value, (v) => /^[\p{L}\p{M}\p{Nd}]+$/u.test(String(v)));
    case 'alpha_spaces':
      return all(value, (v) => /^[\p{L}\p{M}\s]+$/u.test(String(v)));
    case 'between': {
      const n = toNumber(value);
      return !Number.isNaN(n) && n >= num(params[0]) && n <= num(params[1]);
    }
    case 'digits':
      return all(value, (v) => /^[0-9]*$/.test(String(v)) && String(v).length === num(params[0]));
    case 'dimensions':
      return all(value, (v) => isFileLike(v) && v.width === num(params[0]) && v.height === num(params[1]));
    case 'email':
      return all(value, (v) => EMAIL.test(String(v)));
    case 'ext':
      return all(value, (v) => isFileLike(v) && params.map((p) => p.toLowerCase()).includes(fileExt(v.name)));
    case 'image':
      return all(value, (v) => isFileLike(v) && mimeMatches(v.type, 'image/*'));
    case 'integer':
      return all(value, (v) => /^-?[0-9]+$/.test(String(v)));
    case 'is':
      return String(value) === (params[0] ?? '');
    case 'is_not':
      return String(value) !== (params[0] ?? '');
    case 'length':
      return charLength(value) === num(params[0]);
    case 'max':
      return charLength(value) <= num(params[0]);
    case 'min':
      return charLength(value) >= num(params[0]);
    case 'max_value': {
      const n = toNumber(value);
      return !Number.isNaN(n) && n <= num(params[0]);
    }
    case 'min_value': {
      const n = toNumber(value);
      return !Number.isNaN(n) && n >= num(params[0]);
    }
    case 'mimes':
      return all(value, (v) => isFileLike(v) && params.some((p) => mimeMatches(v.type, p)));
    case 'not_one_of':
      return all(value, (v) => !params.includes(String(v)));
    case 'one_of':
      return all(value, (v) => params.includes(String(v)));
    case 'numeric':
      return all(value, (v) => /^[0-9]+$/.test(String(v)));
    case 'regex': {
      const source = params.join(':');
      let pattern: RegExp;
      try {
        const literal = /^\/(.*)\/([a-z]*)$/s.exec(source);
        pattern = literal ? new RegExp(literal[1] ?? '', literal[2]) : new RegExp(source);
      } catch {
        return false;
      }
      // Reset lastIndex: with a `g` or `y` flag `test` is stateful across an array's items.
      return all(value, (v) => {
        pattern.lastIndex = 0;
        return pattern.test(String(v));
      });
    }
    case 'size':
      return all(value, (v) => isFileLike(v) && v.size <= num(params[0]) * 1024);
    case 'url':
      return all(value, (v) => {
        try {
          const u = new URL(String(v));
          return u.protocol === 'http:' || u.protocol === 'https:';
        } catch {
          return false;
        }
      });
  }
}

/** The zh-TW message for a failed rule, with the label and bound filled in. */
export function ruleMessage(rule: RuleName, label: string, params: readonly string[] = [], targetLabel?: string): string {
  const template = RULE_MESSAGES[rule] ?? RULE_MESSAGES.default;
  const bound = params[0] ?? '';
  const field = rule === 'confirmed' && targetLabel ? `${label}與${targetLabel}` : label;
  // Replacer functions, so a `$&` or `$'` in a label or bound is inserted literally.
  return template
    .replaceAll('{field}', () => field)
    .replaceAll('{length}', () => bound)
    .replaceAll('{min}', () => bound)
    .replaceAll('{max}', () => bound)
    .replaceAll('{size}', () => bound)
    .replaceAll('{target}', () => targetLabel ?? '');
}

/**
 * Parses `required|min:8|max:128`. Params are comma-separated; `regex` takes the rest of its
 * segment whole, so write regex rules in the array form when the pattern holds a `|`.
 */
export function parseRules(spec: string | readonly RuleRef[]): RuleRef[] {
  if (typeof spec !== 'string') return [...spec];
  return spec
    .split('|')
    .filter((s) => s.length > 0)
    .map((segment) => {
      const colon = segment.indexOf(':');
      const name = (colon < 0 ? segment : segment.slice(0, colon)) as RuleName;
      if (!RULE_NAMES.includes(name)) throw new Error(`unknown validation rule: ${name}`);
      const raw = colon < 0 ? '' : segment.slice(colon + 1);
      const params = name === 'regex' ? [raw] : raw === '' ? [] : raw.split(',');
      return { rule: name, params };
    });
}

/** Runs the rules in order; returns the first failing rule's message, or null when all pass. */
export function validateValue(
  value: unknown,
  rules: string | readonly RuleRef[],
  label: string,
  ctx: RuleContext & { targetLabel?: string } = {},
): string | null {
  for (const { rule, params } of parseRules(rules)) {
    if (!checkRule(rule, value, params, ctx)) return ruleMessage(rule, label, params, ctx.targetLabel);
  }
  return null;
}
