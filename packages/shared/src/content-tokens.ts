import { formatTwd } from './money.ts';
import type { ShippingRules } from './shipping.ts';

/**
 * Amounts that site content may name through a token instead of a copy, so the words on the
 * shipping, transport and FAQ pages always match what checkout charges. `{{home.fee}}` in a stored
 * text becomes 「NT$120」 when the page is served, from the shipping rules in force at that moment.
 */
export const CONTENT_TOKEN_NAMES = [
  'home.fee',
  'home.freeOver',
  'cvs.fee',
  'cvs.freeOver',
  'outlying',
  'cod',
] as const;
export type ContentTokenName = (typeof CONTENT_TOKEN_NAMES)[number];

/** Each token's amount under the given rules. */
export function contentTokens(rules: ShippingRules): Readonly<Record<ContentTokenName, number>> {
  return {
    'home.fee': rules.home.fee,
    'home.freeOver': rules.home.freeOver,
    'cvs.fee': rules.cvs.fee,
    'cvs.freeOver': rules.cvs.freeOver,
    outlying: rules.outlyingSurcharge,
    cod: rules.codFee,
  };
}

const TOKEN = /\{\{\s*([a-zA-Z.]+)\s*\}\}/g;
const isTokenName = (name: string): name is ContentTokenName =>
  (CONTENT_TOKEN_NAMES as readonly string[]).includes(name);

/** Replaces known tokens with their amount; an unknown token is left as written (and `unknownTokens` finds it). */
export function fillTokens(text: string, rules: ShippingRules): string {
  const amounts = contentTokens(rules);
  return text.replace(TOKEN, (whole, name: string) => (isTokenName(name) ? formatTwd(amounts[name]) : whole));
}

/** Tokens in a text that have no amount: for checking content before it is saved. */
export function unknownTokens(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((m) => m[1]!).filter((name) => !isTokenName(name));
}

/** Every string inside a JSON document, tokens filled from the given rules. */
export function fillTokensDeep<T>(value: T, rules: ShippingRules): T {
  if (typeof value === 'string') return fillTokens(value, rules) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => fillTokensDeep(v, rules)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillTokensDeep(v, rules)])) as T;
  return value;
}
