import { describe, expect, it } from 'vitest';
import {
  CONTENT_TOKEN_NAMES,
  contentTokens,
  fillTokens,
  fillTokensDeep,
  unknownTokens,
} from './content-tokens.ts';
import { DEFAULT_SHIPPING_RULES, withLabels } from './shipping.ts';

const rules = DEFAULT_SHIPPING_RULES;
const edited = withLabels({
  home: { fee: 100, freeOver: 2000, leadTime: '兩天內出貨' },
  cvs: { fee: 60, freeOver: 1200, leadTime: '三天內到店' },
  outlyingSurcharge: 180,
  codFee: 35,
});

describe('content tokens', () => {
  it('fill shipping amounts from the rules they are given', () => {
    expect(fillTokens('宅配 {{home.fee}}，滿 {{ home.freeOver }} 免運', rules)).toBe(
      '宅配 NT$120，滿 NT$1,500 免運',
    );
    expect(fillTokens('{{cvs.fee}}/{{cvs.freeOver}}/{{outlying}}/{{cod}}', rules)).toBe(
      'NT$65/NT$1,000/NT$150/NT$30',
    );
    expect(fillTokens('宅配 {{home.fee}}，滿 {{home.freeOver}} 免運', edited)).toBe(
      '宅配 NT$100，滿 NT$2,000 免運',
    );
    expect(fillTokens('{{cvs.fee}}/{{cvs.freeOver}}/{{outlying}}/{{cod}}', edited)).toBe(
      'NT$60/NT$1,200/NT$180/NT$35',
    );
  });

  it('name every amount a page may quote', () => {
    expect(Object.keys(contentTokens(edited)).sort()).toEqual([...CONTENT_TOKEN_NAMES].sort());
    expect(contentTokens(edited)).toEqual({
      'home.fee': 100,
      'home.freeOver': 2000,
      'cvs.fee': 60,
      'cvs.freeOver': 1200,
      outlying: 180,
      cod: 35,
    });
  });

  it('leave unknown tokens and plain braces alone, and report the unknown ones', () => {
    expect(fillTokens('{{nope}} {single} {{home.fee', rules)).toBe('{{nope}} {single} {{home.fee');
    expect(unknownTokens('{{home.fee}} {{nope}} {{gold.freeOver}}')).toEqual(['nope', 'gold.freeOver']);
    expect(unknownTokens('{{toString}} {{constructor}}')).toEqual(['toString', 'constructor']);
  });

  it('fill every string of a document and keep other values', () => {
    const doc = { title: '運費 {{home.fee}}', n: 3, ok: true, none: null, list: [{ text: '{{cod}}' }, 'x'] };
    expect(fillTokensDeep(doc, edited)).toEqual({
      title: '運費 NT$100',
      n: 3,
      ok: true,
      none: null,
      list: [{ text: 'NT$35' }, 'x'],
    });
  });
});
