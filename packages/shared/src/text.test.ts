import { describe, expect, it } from 'vitest';
import { atmDeadline, bankLabel, groupDigits } from './atm.ts';
import { inSentence } from './text.ts';

describe('inSentence: a space between Chinese and Latin letters or digits', () => {
  it('spaces a name on the side where it begins or ends with a Latin letter or digit', () => {
    expect(`另一間${inSentence('7-ELEVEN')}門市`).toBe('另一間 7-ELEVEN 門市');
    expect(`到${inSentence('OK超商')}網站查詢`).toBe('到 OK超商網站查詢');
    expect(`到${inSentence('7-ELEVEN 交貨便')}網站查詢`).toBe('到 7-ELEVEN 交貨便網站查詢');
    expect(`到${inSentence('黑貓宅急便')}網站查詢`).toBe('到黑貓宅急便網站查詢');
  });
});

describe('ATM details as the buyer reads them', () => {
  it('names the bank beside its code, groups the account in fours and gives the deadline its time', () => {
    expect(bankLabel('812')).toBe('812 台新銀行');
    expect(groupDigits('9103522175887271')).toBe('9103 5221 7588 7271');
    expect(groupDigits('91234567890123')).toBe('9123 4567 8901 23');
    expect(atmDeadline('2026/11/26')).toBe('2026/11/26 23:59');
    expect(atmDeadline('2026-11-26')).toBe('2026/11/26 23:59');
  });
});
