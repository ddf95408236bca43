import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PATTERN_INPUT_MAX } from './rules.ts';
import { acceptField, confirmed, textField } from './zod.ts';

/** The messages of a failed parse, or [] when it passed. */
function messages(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe('textField', () => {
  it('trims the value before checking and returns the trimmed value', () => {
    const name = textField('姓名', 'required|max:3');
    expect(name.parse('  王小明  ')).toBe('王小明');
    expect(messages(name, '  王小明  ')).toEqual([]);
  });

  it('treats a blank value as empty after trimming, so required fails', () => {
    expect(messages(textField('姓名', 'required'), '   ')).toEqual(['姓名為必填欄位']);
  });

  it('keeps every character when raw is set', () => {
    const password = textField('密碼', 'required|min:8', { raw: true });
    expect(password.parse('  pass  ')).toBe('  pass  ');
    expect(messages(password, '  pass  ')).toEqual([]);
    expect(messages(textField('密碼', 'required|min:8'), '  pass  ')).toEqual(['密碼不能少於 8 個字元']);
  });

  it('reports the zh-TW message of the first failing rule as the issue message', () => {
    const password = textField('密碼', 'required|min:8|max:128', { raw: true });
    const result = password.safeParse('short');
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]).toMatchObject({
      code: 'custom',
      message: '密碼不能少於 8 個字元',
      path: [],
    });
  });

  it('reports required, email and default messages', () => {
    const email = textField('電子郵件', 'required|email');
    expect(messages(email, '')).toEqual(['電子郵件為必填欄位']);
    expect(messages(email, 'not-an-email')).toEqual(['電子郵件必須是有效的電子郵件地址']);
    expect(messages(email, ' user@example.com ')).toEqual([]);
    expect(messages(textField('付款方式', 'one_of:card,atm'), 'cash')).toEqual(['付款方式的內容不正確']);
  });

  it('refuses an over-long value with the max message before running any rule', () => {
    const email = textField('電子郵件', 'required|email|max:254');
    expect(messages(email, `a@${'.'.repeat(1_000_000)}@`)).toEqual(['電子郵件不能超過 254 個字元']);
    // Within twice the bound in UTF-16 units the rules decide: 254 characters of 𠮷 are 508 units.
    expect(messages(textField('名稱', 'max:254'), '𠮷'.repeat(254))).toEqual([]);
    expect(messages(textField('名稱', 'max:254'), '𠮷'.repeat(255))).toEqual(['名稱不能超過 254 個字元']);
  });

  it('caps a field without a length bound at PATTERN_INPUT_MAX', () => {
    const confirm = textField('確認密碼', 'required', { raw: true });
    expect(messages(confirm, 'x'.repeat(PATTERN_INPUT_MAX))).toEqual([]);
    expect(messages(confirm, 'x'.repeat(PATTERN_INPUT_MAX + 1))).toEqual([
      `確認密碼不能超過 ${PATTERN_INPUT_MAX} 個字元`,
    ]);
    expect(
      messages(textField('電子郵件', 'required|email'), `${'a'.repeat(PATTERN_INPUT_MAX)}@example.com`),
    ).toEqual([`電子郵件不能超過 ${PATTERN_INPUT_MAX} 個字元`]);
  });

  it('lets an optional field be empty', () => {
    expect(messages(textField('備註', 'max:10'), '')).toEqual([]);
  });

  it('counts Chinese characters as one each', () => {
    const title = textField('標題', 'max:4');
    expect(messages(title, '山嵐茶事')).toEqual([]);
    expect(messages(title, '山嵐茶事店')).toEqual(['標題不能超過 4 個字元']);
  });

  it('rejects non-strings with "{label}為必填欄位"', () => {
    const name = textField('姓名', 'max:3');
    for (const v of [undefined, null, 42, true, ['a'], { a: 1 }]) {
      expect(messages(name, v), JSON.stringify(v)).toEqual(['姓名為必填欄位']);
    }
    expect(messages(textField('密碼', 'min:8', { raw: true }), undefined)).toEqual(['密碼為必填欄位']);
  });

  it('accepts the array rule form', () => {
    const code = textField('代碼', [{ rule: 'regex', params: ['^(TW|HK)\\d{3}$'] }]);
    expect(messages(code, 'TW123')).toEqual([]);
    expect(messages(code, 'JP123')).toEqual(['代碼格式不正確']);
  });

  it('reports issues at the field path inside an object', () => {
    const form = z.object({ name: textField('姓名', 'required') });
    const result = form.safeParse({ name: ' ' });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['name'], message: '姓名為必填欄位' }),
    ]);
  });
});

describe('acceptField', () => {
  const terms = acceptField('請同意服務條款');

  it('passes only on true', () => {
    expect(terms.parse(true)).toBe(true);
  });

  it('fails on false with the given message', () => {
    expect(messages(terms, false)).toEqual(['請同意服務條款']);
  });

  it('fails on non-booleans with the given message', () => {
    for (const v of [undefined, null, 'true', 1, 'on'])
      expect(messages(terms, v), String(v)).toEqual(['請同意服務條款']);
  });
});

describe('confirmed', () => {
  const form = confirmed(
    z.object({
      password: textField('密碼', 'required|min:8', { raw: true }),
      passwordConfirm: textField('確認密碼', 'required', { raw: true }),
    }),
    'passwordConfirm',
    'password',
    '確認密碼',
    '密碼',
  );

  it('passes when the confirmation equals the target field', () => {
    expect(form.safeParse({ password: 'Secret123', passwordConfirm: 'Secret123' }).success).toBe(true);
  });

  it('puts the mismatch issue on the confirmation field path with both labels', () => {
    const result = form.safeParse({ password: 'Secret123', passwordConfirm: 'Secret124' });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ code: 'custom', path: ['passwordConfirm'], message: '確認密碼與密碼不一致' }),
    ]);
  });

  it('compares raw values, so a trailing space is a mismatch', () => {
    const result = form.safeParse({ password: 'Secret123', passwordConfirm: 'Secret123 ' });
    expect(result.error?.issues.map((i) => i.path)).toEqual([['passwordConfirm']]);
  });

  it('still reports the mismatch alongside a rule failure of the target field', () => {
    const result = form.safeParse({ password: 'short', passwordConfirm: 'shorT' });
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [['password'], '密碼不能少於 8 個字元'],
      [['passwordConfirm'], '確認密碼與密碼不一致'],
    ]);
  });

  it('reports a missing confirmation as required on its own path', () => {
    const result = form.safeParse({ password: 'Secret123' });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['passwordConfirm'], message: '確認密碼為必填欄位' }),
    ]);
  });
});
