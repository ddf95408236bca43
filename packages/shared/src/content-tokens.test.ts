import { describe, expect, it } from 'vitest';
import { fillTokens, fillTokensDeep, unknownTokens } from './content-tokens.ts';
import { COD_FEE, OUTLYING_SURCHARGE, SHIPPING_RULES } from './shipping.ts';
import { formatTwd } from './money.ts';

describe('content tokens', () => {
  it('fills shipping amounts from the same table checkout uses', () => {
    expect(fillTokens('宅配 {{home.fee}}，滿 {{ home.freeOver }} 免運')).toBe(`宅配 ${formatTwd(SHIPPING_RULES.home.fee)}，滿 ${formatTwd(SHIPPING_RULES.home.freeOver)} 免運`);
    expect(fillTokens('{{cvs.fee}}/{{cvs.freeOver}}/{{outlying}}/{{cod}}')).toBe(
      [SHIPPING_RULES.cvs.fee, SHIPPING_RULES.cvs.freeOver, OUTLYING_SURCHARGE, COD_FEE].map(formatTwd).join('/'),
    );
  });

  it('leaves unknown tokens and plain braces alone, and reports the unknown ones', () => {
    expect(fillTokens('{{nope}} {single} {{home.fee')).toBe('{{nope}} {single} {{home.fee');
    expect(unknownTokens('{{home.fee}} {{nope}} {{gold.freeOver}}')).toEqual(['nope', 'gold.freeOver']);
  });

  it('fills every string of a document and keeps other values', () => {
    const doc = { title: '運費 {{home.fee}}', n: 3, ok: true, none: null, list: [{ text: '{{cod}}' }, 'x'] };
    expect(fillTokensDeep(doc)).toEqual({ title: `運費 ${formatTwd(SHIPPING_RULES.home.fee)}`, n: 3, ok: true, none: null, list: [{ text: formatTwd(COD_FEE) }, 'x'] });
  });
});
