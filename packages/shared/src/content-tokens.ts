import { formatTwd } from './money.ts';
import { COD_FEE, OUTLYING_SURCHARGE, SHIPPING_RULES } from './shipping.ts';

/**
 * Amounts that site content may name through a token instead of a copy, so the words on the
 * shipping, transport and FAQ pages always match what checkout charges. `{{home.fee}}` in a stored
 * text becomes 「NT$120」 when the page is served.
 */
export const CONTENT_TOKENS: Readonly<Record<string, number>> = {
  'home.fee': SHIPPING_RULES.home.fee,
  'home.freeOver': SHIPPING_RULES.home.freeOver,
  'cvs.fee': SHIPPING_RULES.cvs.fee,
  'cvs.freeOver': SHIPPING_RULES.cvs.freeOver,
  outlying: OUTLYING_SURCHARGE,
  cod: COD_FEE,
};

const TOKEN = /\{\{\s*([a-zA-Z.]+)\s*\}\}/g;

/** Replaces known tokens with their amount; an unknown token is left as written (and `unknownTokens` finds it). */
export function fillTokens(text: string): string {
  return text.replace(TOKEN, (whole, name: string) => (name in CONTENT_TOKENS ? formatTwd(CONTENT_TOKENS[name]!) : whole));
}

/** Tokens in a text that have no amount: for checking content before it is saved. */
export function unknownTokens(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((m) => m[1]!).filter((name) => !(name in CONTENT_TOKENS));
}

/** Every string inside a JSON document, tokens filled. */
export function fillTokensDeep<T>(value: T): T {
  if (typeof value === 'string') return fillTokens(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => fillTokensDeep(v)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillTokensDeep(v)])) as T;
  return value;
}
