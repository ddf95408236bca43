/**
 * The validation rule set (docs/product-rules.md#validation-rules), shared by the forms and the
 * server. Rule names and semantics are the vee-validate ones; messages are zh-TW with
 * `{field}` replaced by the field's label and the bound filled in. Every rule except `required`
 * passes on an empty value, so optional fields stay optional.
 */

export const RULE_NAMES = [
  'alpha',
  'alpha_dash',
  'alpha_num',
  'alpha_spaces',
  'between',
  'confirmed',
  'digits',
  'dimensions',
  'email',
  'ext',
  'image',
  'integer',
  'is',
  'is_not',
  'length',
  'max',
  'max_value',
  'mimes',
  'min',
  'min_value',
  'not_one_of',
  'numeric',
  'one_of',
  'regex',
  'required',
  'size',
  'url',
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
 * zh-TW messages (docs/product-rules.md#validation-rules). Placeholders: {field}, {length}, {min}, {max}, {size}, {target}.
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

/**
 * Longest value a pattern or number rule looks at, in UTF-16 units. Longer values fail those rules
 * without being scanned: no field of ours comes near it, and a 1 MB request body must cost no more
 * than a short one. Equality rules (`is`, `one_of`, `confirmed`…) and the length rules need no cap.
 */
export const PATTERN_INPUT_MAX = 10_000;

/** Longest e-mail address (RFC 5321 path limit) and local part. */
export const EMAIL_MAX = 254;
const EMAIL_LOCAL_MAX = 64;

/**
 * Code points of `text`, counting at most up to `limit + 1`: a string of UTF-16 length n holds
 * between n/2 and n code points, so only lengths in that band need counting at all.
 */
function codePointsUpTo(text: string, limit: number): number {
  if (text.length <= limit) {
    if (text.length * 2 <= limit) return text.length;
  } else if (text.length > limit * 2) {
    return limit + 1;
  }
  let count = 0;
  for (let i = 0; i < text.length && count <= limit; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character (𠮷 counts once).
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * The sign of (length − bound), the length in characters as a reader counts them (code points, so
 * 山 is one); NaN for a bound that is not a number, so every length rule fails on it.
 */
function lengthVersus(value: unknown, bound: number): number {
  if (Number.isNaN(bound)) return Number.NaN;
  if (Array.isArray(value)) return Math.sign(value.length - bound);
  if (bound < 0) return 1;
  return Math.sign(codePointsUpTo(String(value), Math.min(bound, 2 ** 30)) - bound);
}

/** The value as text for a pattern rule, or null when it is too long to be any honest value. */
function patternInput(value: unknown): string | null {
  const text = String(value);
  return text.length > PATTERN_INPUT_MAX ? null : text;
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.length <= PATTERN_INPUT_MAX && value.trim() !== '')
    return Number(value);
  return Number.NaN;
}

const num = (p: string | undefined) => Number(p);

function all<T>(value: unknown, test: (v: unknown) => T): boolean {
  return Array.isArray(value) ? value.every((v) => Boolean(test(v))) : Boolean(test(value));
}

/** `pattern` matches the whole value, which is short enough to look at. */
function matches(pattern: RegExp, value: unknown): boolean {
  const text = patternInput(value);
  return text !== null && pattern.test(text);
}

/**
 * Characters no address of ours may hold: whitespace, control characters, the RFC 5322 specials
 * (`@` only once, checked apart), and `? # % & = /`, which are legal in an exotic local part but
 * never seen in a real one, and which would change the meaning of a `mailto:` link or a URL the
 * address is put in. One character class, so the test is linear.
 */
const EMAIL_FORBIDDEN = /[\s\p{Cc}<>()[\]\\,;:"?#%&=/]/u;

/**
 * A practical e-mail check, in code rather than one pattern so it is linear on any input: at most
 * 254 characters; one `@`; a local part of 1–64 without a leading, trailing or doubled dot; a
 * domain of dotted non-empty labels whose last one has two or more characters. Internationalised
 * addresses (王小明@例子.台灣) pass.
 */
export function isEmailAddress(text: string): boolean {
  if (text.length > EMAIL_MAX) return false;
  const at = text.indexOf('@');
  if (at < 1 || at > EMAIL_LOCAL_MAX || text.indexOf('@', at + 1) >= 0) return false;
  if (EMAIL_FORBIDDEN.test(text)) return false;
  const local = text.slice(0, at);
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  const labels = text.slice(at + 1).split('.');
  if (labels.length < 2 || labels.some((label) => label.length === 0)) return false;
  return [...(labels[labels.length - 1] ?? '')].length >= 2;
}

// The shared package compiles with neither DOM nor Node types; both runtimes have the WHATWG URL.
declare const URL: new (input: string) => { readonly protocol: string };

/** Longest media type (RFC 6838: 127 characters each side of the slash). */
const MIME_MAX = 255;

function mimeMatches(type: string, pattern: string): boolean {
  if (type.length > MIME_MAX) return false;
  const slash = (text: string) => {
    const i = text.indexOf('/');
    return i < 0
      ? [text.toLowerCase(), undefined]
      : [text.slice(0, i).toLowerCase(), text.slice(i + 1).toLowerCase()];
  };
  const [pt, ps] = slash(pattern);
  const [t, s] = slash(type);
  return pt === t && (ps === '*' || ps === s);
}

function fileExt(name: string): string {
  const i = name.lastIndexOf('.');
  // An extension is short; a "name" that is one long tail is not a file name we take.
  return i < 0 || name.length - i > 17 ? '' : name.slice(i + 1).toLowerCase();
}

/** True when `value` satisfies `rule` with `params`. */
export function checkRule(
  rule: RuleName,
  value: unknown,
  params: readonly string[] = [],
  ctx: RuleContext = {},
): boolean {
  if (rule === 'required') return !isEmpty(value);
  if (rule === 'confirmed') {
    const target = params[0];
    return target === undefined ? false : (value ?? '') === (ctx.values?.[target] ?? '');
  }
  if (isEmpty(value)) return true;
  switch (rule) {
    case 'alpha':
      return all(value, (v) => matches(/^[\p{L}\p{M}]+$/u, v));
    case 'alpha_dash':
      return all(value, (v) => matches(/^[\p{L}\p{M}\p{Nd}_-]+$/u, v));
    case 'alpha_num':
      return all(value, (v) => matches(/^[\p{L}\p{M}\p{Nd}]+$/u, v));
    case 'alpha_spaces':
      return all(value, (v) => matches(/^[\p{L}\p{M}\s]+$/u, v));
    case 'between': {
      const n = toNumber(value);
      return !Number.isNaN(n) && n >= num(params[0]) && n <= num(params[1]);
    }
    case 'digits':
      // Length first: the pattern never sees a value of the wrong length.
      return all(value, (v) => String(v).length === num(params[0]) && matches(/^[0-9]*$/, v));
    case 'dimensions':
      return all(value, (v) => isFileLike(v) && v.width === num(params[0]) && v.height === num(params[1]));
    case 'email':
      return all(value, (v) => isEmailAddress(String(v)));
    case 'ext':
      return all(value, (v) => isFileLike(v) && params.map((p) => p.toLowerCase()).includes(fileExt(v.name)));
    case 'image':
      return all(value, (v) => isFileLike(v) && mimeMatches(v.type, 'image/*'));
    case 'integer':
      return all(value, (v) => matches(/^-?[0-9]+$/, v));
    case 'is':
      return String(value) === (params[0] ?? '');
    case 'is_not':
      return String(value) !== (params[0] ?? '');
    case 'length':
      return lengthVersus(value, num(params[0])) === 0;
    case 'max':
      return lengthVersus(value, num(params[0])) <= 0;
    case 'min':
      return lengthVersus(value, num(params[0])) >= 0;
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
      return all(value, (v) => matches(/^[0-9]+$/, v));
    case 'regex': {
      // Patterns come only from our own code (never from a request); each must be linear.
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
        return matches(pattern, v);
      });
    }
    case 'size':
      return all(value, (v) => isFileLike(v) && v.size <= num(params[0]) * 1024);
    case 'url':
      return all(value, (v) => {
        const text = patternInput(v);
        if (text === null) return false;
        try {
          const u = new URL(text);
          return u.protocol === 'http:' || u.protocol === 'https:';
        } catch {
          return false;
        }
      });
  }
}

/** The zh-TW message for a failed rule, with the label and bound filled in. */
export function ruleMessage(
  rule: RuleName,
  label: string,
  params: readonly string[] = [],
  targetLabel?: string,
): string {
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

/** Rules that bound a value's length: checked before any other, so no pattern sees an overlong value. */
const LENGTH_RULES: ReadonlySet<RuleName> = new Set(['max', 'length']);

/**
 * Runs the rules in order, except that `required` and then the length bounds (`max`, `length`) go
 * first; returns the first failing rule's message, or null when all pass.
 */
export function validateValue(
  value: unknown,
  rules: string | readonly RuleRef[],
  label: string,
  ctx: RuleContext & { targetLabel?: string } = {},
): string | null {
  const parsed = parseRules(rules);
  const rank = (r: RuleRef) => (r.rule === 'required' ? 0 : LENGTH_RULES.has(r.rule) ? 1 : 2);
  // A stable sort keeps the written order within each group.
  for (const { rule, params } of [...parsed].sort((a, b) => rank(a) - rank(b))) {
    if (!checkRule(rule, value, params, ctx)) return ruleMessage(rule, label, params, ctx.targetLabel);
  }
  return null;
}
