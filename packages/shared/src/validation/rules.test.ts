import { describe, expect, it } from 'vitest';
import {
  checkRule,
  isEmpty,
  parseRules,
  RULE_MESSAGES,
  RULE_NAMES,
  ruleMessage,
  validateValue,
  type FileLike,
  type RuleName,
} from './rules.ts';

const file = (name: string, type: string, size: number, width?: number, height?: number): FileLike => ({
  name,
  type,
  size,
  ...(width === undefined ? {} : { width }),
  ...(height === undefined ? {} : { height }),
});

const PNG = file('茶葉.png', 'image/png', 2048, 800, 600);
const JPG = file('PHOTO.JPG', 'image/jpeg', 500 * 1024, 1024, 768);
const PDF = file('型錄.pdf', 'application/pdf', 1024);

/** The product's rule set (docs/product-rules.md#validation-rules), written out here independently of RULE_NAMES. */
const SPEC_RULES = [
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
];

/** Params that make each rule meaningful, for the table-driven checks below. */
const SAMPLE_PARAMS: Record<RuleName, string[]> = {
  alpha: [],
  alpha_dash: [],
  alpha_num: [],
  alpha_spaces: [],
  between: ['1', '10'],
  confirmed: ['password'],
  digits: ['4'],
  dimensions: ['800', '600'],
  email: [],
  ext: ['png'],
  image: [],
  integer: [],
  is: ['yes'],
  is_not: ['no'],
  length: ['3'],
  max: ['5'],
  max_value: ['10'],
  mimes: ['image/png'],
  min: ['8'],
  min_value: ['1'],
  not_one_of: ['a'],
  numeric: [],
  one_of: ['a'],
  regex: ['^[a-z]+$'],
  required: [],
  size: ['10'],
  url: [],
};

describe('RULE_NAMES', () => {
  it("lists exactly the 27 rules of the product's rule set (docs/product-rules.md#validation-rules)", () => {
    expect(RULE_NAMES).toHaveLength(27);
    expect([...RULE_NAMES].sort()).toEqual([...SPEC_RULES].sort());
    expect(new Set(RULE_NAMES).size).toBe(27);
  });
});

describe('isEmpty', () => {
  it('treats null, undefined, false, blank strings and empty arrays as empty', () => {
    for (const v of [null, undefined, false, '', '   ', '\t\n', []])
      expect(isEmpty(v), JSON.stringify(v)).toBe(true);
  });

  it('treats 0, true, non-blank strings, non-empty arrays and objects as filled', () => {
    for (const v of [0, true, 'a', ' 山 ', ['x'], PNG, {}]) expect(isEmpty(v), JSON.stringify(v)).toBe(false);
  });
});

describe('empty values', () => {
  const rulesExceptRequiredAndConfirmed = RULE_NAMES.filter((r) => r !== 'required' && r !== 'confirmed');

  it.each(rulesExceptRequiredAndConfirmed)('%s passes on every kind of empty value', (rule) => {
    for (const v of ['', '   ', null, undefined, false, []]) {
      expect(checkRule(rule, v, SAMPLE_PARAMS[rule]), `${rule} on ${JSON.stringify(v)}`).toBe(true);
    }
  });

  it('confirmed passes on an empty value when the target is empty too', () => {
    for (const v of ['', null, undefined]) {
      expect(checkRule('confirmed', v, ['password'], { values: { password: '' } })).toBe(true);
      expect(checkRule('confirmed', v, ['password'], { values: {} })).toBe(true);
    }
  });
});

describe('checkRule', () => {
  describe('required', () => {
    it('fails on empty string, blank string, null, undefined, false and empty array', () => {
      for (const v of ['', '   ', '\t', null, undefined, false, []]) {
        expect(checkRule('required', v), JSON.stringify(v)).toBe(false);
      }
    });

    it('passes on text, zero, true, a non-empty array and a file', () => {
      for (const v of ['山嵐', 'a', 0, true, ['x'], PNG]) expect(checkRule('required', v)).toBe(true);
    });
  });

  describe('alpha', () => {
    it('accepts Latin and CJK letters', () => {
      expect(checkRule('alpha', 'abcXYZ')).toBe(true);
      expect(checkRule('alpha', '山嵐茶事')).toBe(true);
      expect(checkRule('alpha', 'café')).toBe(true);
      expect(checkRule('alpha', 'ㄅㄆㄇ')).toBe(true);
    });

    it('rejects digits, spaces, dashes and punctuation', () => {
      for (const v of ['abc1', '山 嵐', 'a-b', 'a_b', '茶。', '12'])
        expect(checkRule('alpha', v), v).toBe(false);
    });

    it('checks every item of an array', () => {
      expect(checkRule('alpha', ['茶', 'tea'])).toBe(true);
      expect(checkRule('alpha', ['茶', 'tea1'])).toBe(false);
    });
  });

  describe('alpha_dash', () => {
    it('accepts letters (incl. CJK), digits, dashes and underscores', () => {
      expect(checkRule('alpha_dash', 'oolong-75g_tw')).toBe(true);
      expect(checkRule('alpha_dash', '烏龍-茶_2024')).toBe(true);
    });

    it('rejects spaces and other punctuation', () => {
      for (const v of ['a b', 'a.b', '烏龍/茶', 'a@b']) expect(checkRule('alpha_dash', v), v).toBe(false);
    });
  });

  describe('alpha_num', () => {
    it('accepts letters (incl. CJK) and digits', () => {
      expect(checkRule('alpha_num', 'abc123')).toBe(true);
      expect(checkRule('alpha_num', '台北101')).toBe(true);
    });

    it('rejects dashes, underscores and spaces', () => {
      for (const v of ['a-1', 'a_1', '台北 101']) expect(checkRule('alpha_num', v), v).toBe(false);
    });
  });

  describe('alpha_spaces', () => {
    it('accepts letters (incl. CJK) and spaces', () => {
      expect(checkRule('alpha_spaces', 'John Smith')).toBe(true);
      expect(checkRule('alpha_spaces', '王 小明')).toBe(true);
    });

    it('rejects digits and punctuation', () => {
      for (const v of ['John 2', 'a-b', '王小明!']) expect(checkRule('alpha_spaces', v), v).toBe(false);
    });
  });

  describe('between', () => {
    it('passes inside the range and on both bounds, for numbers and numeric strings', () => {
      for (const v of [1, 5, 10, '1', '5.5', '10', ' 7 '])
        expect(checkRule('between', v, ['1', '10']), String(v)).toBe(true);
    });

    it('fails outside the range and on non-numbers', () => {
      for (const v of [0, 11, '0.99', '10.01', '-5', 'abc', '5元']) {
        expect(checkRule('between', v, ['1', '10']), String(v)).toBe(false);
      }
    });

    it('handles negative and decimal bounds', () => {
      expect(checkRule('between', '-1.5', ['-2', '-1'])).toBe(true);
      expect(checkRule('between', '-0.5', ['-2', '-1'])).toBe(false);
    });
  });

  describe('confirmed', () => {
    it('passes when the value equals the target field in ctx.values', () => {
      expect(checkRule('confirmed', 'Secret123', ['password'], { values: { password: 'Secret123' } })).toBe(
        true,
      );
    });

    it('fails when the value differs from the target field', () => {
      expect(checkRule('confirmed', 'Secret123', ['password'], { values: { password: 'Secret124' } })).toBe(
        false,
      );
      expect(checkRule('confirmed', 'secret123', ['password'], { values: { password: 'Secret123' } })).toBe(
        false,
      );
    });

    it('fails when the confirmation is empty but the target is filled', () => {
      expect(checkRule('confirmed', '', ['password'], { values: { password: 'Secret123' } })).toBe(false);
    });

    it('fails when the target is missing from ctx.values or ctx has no values', () => {
      expect(checkRule('confirmed', 'Secret123', ['password'], { values: {} })).toBe(false);
      expect(checkRule('confirmed', 'Secret123', ['password'])).toBe(false);
    });

    it('fails without a target param', () => {
      expect(checkRule('confirmed', 'x', [], { values: { x: 'x' } })).toBe(false);
    });
  });

  describe('digits', () => {
    it('passes on exactly N ASCII digits, as a string or a number', () => {
      expect(checkRule('digits', '0912', ['4'])).toBe(true);
      expect(checkRule('digits', 1234, ['4'])).toBe(true);
      expect(checkRule('digits', '0912345678', ['10'])).toBe(true);
    });

    it('fails on too few or too many digits', () => {
      expect(checkRule('digits', '123', ['4'])).toBe(false);
      expect(checkRule('digits', '12345', ['4'])).toBe(false);
    });

    it('fails on non-digit characters of the right length', () => {
      for (const v of ['12a4', '-123', '12.4', '１２３４'])
        expect(checkRule('digits', v, ['4']), v).toBe(false);
    });
  });

  describe('dimensions', () => {
    it('passes when width and height both match exactly', () => {
      expect(checkRule('dimensions', PNG, ['800', '600'])).toBe(true);
    });

    it('fails when width or height differ', () => {
      expect(checkRule('dimensions', PNG, ['800', '601'])).toBe(false);
      expect(checkRule('dimensions', PNG, ['799', '600'])).toBe(false);
      expect(checkRule('dimensions', PNG, ['600', '800'])).toBe(false);
    });

    it('fails when the pixel size is unknown or the value is not a file', () => {
      expect(checkRule('dimensions', file('a.png', 'image/png', 10), ['800', '600'])).toBe(false);
      expect(checkRule('dimensions', '800x600', ['800', '600'])).toBe(false);
    });

    it('checks every file of a list', () => {
      expect(checkRule('dimensions', [PNG, file('b.png', 'image/png', 1, 800, 600)], ['800', '600'])).toBe(
        true,
      );
      expect(checkRule('dimensions', [PNG, JPG], ['800', '600'])).toBe(false);
    });
  });

  describe('email', () => {
    it('accepts ordinary and internationalised addresses', () => {
      for (const v of ['user@example.com', 'first.last+tag@mail.example.com.tw', '王小明@例子.台灣']) {
        expect(checkRule('email', v), v).toBe(true);
      }
    });

    it('rejects addresses without @, domain dot, or with spaces and brackets', () => {
      for (const v of [
        'userexample.com',
        'user@',
        '@example.com',
        'user@example',
        'us er@example.com',
        'a@@b.com',
        'a@b.c',
        '<a@b.com>',
      ]) {
        expect(checkRule('email', v), v).toBe(false);
      }
    });

    it('keeps honest addresses valid: dots, plus tags, digits, hyphens, long domains', () => {
      for (const v of [
        'a.b+tag@example.com.tw',
        'o_brien-2@mail.school.edu.tw',
        'x@sub-domain.example.co',
        `${'a'.repeat(64)}@example.com`,
      ]) {
        expect(checkRule('email', v), v).toBe(true);
      }
    });

    it('refuses characters that would change a mailto: link or URL the address is put in', () => {
      for (const v of [
        'x?cc=attacker@evil.example',
        'x@shop.example?cc=attacker@evil.example',
        'a&b@example.com',
        'a=b@example.com',
        'a#b@example.com',
        'a%40b@example.com',
        'a/b@example.com',
        'a@example.com/x',
      ]) {
        expect(checkRule('email', v), v).toBe(false);
      }
    });

    it('refuses control characters, empty labels, stray dots and overlong parts', () => {
      for (const v of [
        'a\u0000b@example.com',
        'a@b\u0007.com',
        'a@.example.com',
        'a@example..com',
        'a@example.com.',
        '.a@example.com',
        'a.@example.com',
        'a..b@example.com',
        `${'a'.repeat(65)}@example.com`,
        `a@${'b'.repeat(250)}.com`,
      ]) {
        expect(checkRule('email', v), JSON.stringify(v)).toBe(false);
      }
    });
  });

  describe('ext', () => {
    it('passes when the file name ends in one of the extensions, case-insensitively', () => {
      expect(checkRule('ext', PNG, ['png', 'jpg'])).toBe(true);
      expect(checkRule('ext', JPG, ['png', 'jpg'])).toBe(true);
      expect(checkRule('ext', JPG, ['JPG'])).toBe(true);
    });

    it('fails on another extension, no extension, or a non-file', () => {
      expect(checkRule('ext', PDF, ['png', 'jpg'])).toBe(false);
      expect(checkRule('ext', file('README', 'text/plain', 1), ['png'])).toBe(false);
      expect(checkRule('ext', file('a.png.exe', 'application/x-msdownload', 1), ['png'])).toBe(false);
      expect(checkRule('ext', 'photo.png', ['png'])).toBe(false);
    });
  });

  describe('image', () => {
    it('passes on any image/* MIME type', () => {
      for (const t of ['image/png', 'image/jpeg', 'image/webp', 'IMAGE/GIF']) {
        expect(checkRule('image', file('x', t, 1)), t).toBe(true);
      }
    });

    it('fails on non-image types, a missing type and non-files', () => {
      expect(checkRule('image', PDF)).toBe(false);
      expect(checkRule('image', file('x.png', '', 1))).toBe(false);
      expect(checkRule('image', 'x.png')).toBe(false);
      expect(checkRule('image', [PNG, PDF])).toBe(false);
    });
  });

  describe('integer', () => {
    it('accepts whole numbers, negative too', () => {
      for (const v of ['0', '42', '-42', 7, -3]) expect(checkRule('integer', v), String(v)).toBe(true);
    });

    it('rejects decimals, signs alone, plus signs and letters', () => {
      for (const v of ['4.2', '-', '+4', '4e2', 'abc', 1.5, ' 4'])
        expect(checkRule('integer', v), String(v)).toBe(false);
    });
  });

  describe('is', () => {
    it('passes only when the value equals the param exactly', () => {
      expect(checkRule('is', 'yes', ['yes'])).toBe(true);
      expect(checkRule('is', 5, ['5'])).toBe(true);
      expect(checkRule('is', 'Yes', ['yes'])).toBe(false);
      expect(checkRule('is', 'no', ['yes'])).toBe(false);
    });
  });

  describe('is_not', () => {
    it('passes only when the value differs from the param', () => {
      expect(checkRule('is_not', 'other', ['admin'])).toBe(true);
      expect(checkRule('is_not', 'Admin', ['admin'])).toBe(true);
      expect(checkRule('is_not', 'admin', ['admin'])).toBe(false);
    });
  });

  describe('length', () => {
    it('passes on exactly N characters, counting each Chinese character as one', () => {
      expect(checkRule('length', 'abc', ['3'])).toBe(true);
      expect(checkRule('length', '山嵐茶', ['3'])).toBe(true);
      expect(checkRule('length', '𠮷野家', ['3'])).toBe(true);
    });

    it('fails on fewer or more characters', () => {
      expect(checkRule('length', '山嵐', ['3'])).toBe(false);
      expect(checkRule('length', '山嵐茶事', ['3'])).toBe(false);
    });

    it('counts the items of an array', () => {
      expect(checkRule('length', ['a', 'b'], ['2'])).toBe(true);
      expect(checkRule('length', ['a'], ['2'])).toBe(false);
    });
  });

  describe('max', () => {
    it('passes at or under N characters, Chinese counted as one each', () => {
      expect(checkRule('max', 'abcde', ['5'])).toBe(true);
      expect(checkRule('max', '山嵐茶事店', ['5'])).toBe(true);
      expect(checkRule('max', '山', ['5'])).toBe(true);
    });

    it('fails over N characters', () => {
      expect(checkRule('max', 'abcdef', ['5'])).toBe(false);
      expect(checkRule('max', '山嵐茶事小店', ['5'])).toBe(false);
    });
  });

  describe('min', () => {
    it('passes at or over N characters, Chinese counted as one each', () => {
      expect(checkRule('min', 'abcdefgh', ['8'])).toBe(true);
      expect(checkRule('min', '山嵐茶事山嵐茶事', ['8'])).toBe(true);
    });

    it('fails under N characters', () => {
      expect(checkRule('min', 'abcdefg', ['8'])).toBe(false);
      expect(checkRule('min', '山嵐茶事山嵐茶', ['8'])).toBe(false);
    });
  });

  describe('max_value', () => {
    it('passes at or below N, for numbers and numeric strings', () => {
      for (const v of [10, '10', '9.99', '-100', 0])
        expect(checkRule('max_value', v, ['10']), String(v)).toBe(true);
    });

    it('fails above N and on non-numbers', () => {
      for (const v of [11, '10.01', 'ten', '5個'])
        expect(checkRule('max_value', v, ['10']), String(v)).toBe(false);
    });
  });

  describe('min_value', () => {
    it('passes at or above N, for numbers and numeric strings', () => {
      for (const v of [1, '1', '1.5', '1000', 0.5 + 0.5])
        expect(checkRule('min_value', v, ['1']), String(v)).toBe(true);
    });

    it('fails below N and on non-numbers', () => {
      for (const v of [0, '0.99', '-1', 'one', '1a'])
        expect(checkRule('min_value', v, ['1']), String(v)).toBe(false);
    });

    it('treats zero as a value, not as empty', () => {
      expect(checkRule('min_value', 0, ['1'])).toBe(false);
      expect(checkRule('min_value', '0', ['0'])).toBe(true);
    });
  });

  describe('mimes', () => {
    it('passes when the MIME type is one of the listed types', () => {
      expect(checkRule('mimes', PNG, ['image/png', 'image/jpeg'])).toBe(true);
      expect(checkRule('mimes', JPG, ['image/png', 'image/jpeg'])).toBe(true);
    });

    it('matches a type/* wildcard against any subtype', () => {
      expect(checkRule('mimes', PNG, ['image/*'])).toBe(true);
      expect(checkRule('mimes', file('x.webp', 'image/webp', 1), ['image/*'])).toBe(true);
      expect(checkRule('mimes', PDF, ['image/*'])).toBe(false);
    });

    it('fails on an unlisted type and on non-files', () => {
      expect(checkRule('mimes', PDF, ['image/png', 'image/jpeg'])).toBe(false);
      expect(checkRule('mimes', file('x.png', 'image/pngx', 1), ['image/png'])).toBe(false);
      expect(checkRule('mimes', 'image/png', ['image/png'])).toBe(false);
    });

    it('checks every file of a list', () => {
      expect(checkRule('mimes', [PNG, JPG], ['image/*'])).toBe(true);
      expect(checkRule('mimes', [PNG, PDF], ['image/*'])).toBe(false);
    });
  });

  describe('not_one_of', () => {
    it('passes when the value is not in the list', () => {
      expect(checkRule('not_one_of', 'c', ['a', 'b'])).toBe(true);
    });

    it('fails when the value is in the list, also for numbers', () => {
      expect(checkRule('not_one_of', 'a', ['a', 'b'])).toBe(false);
      expect(checkRule('not_one_of', 2, ['1', '2'])).toBe(false);
    });

    it('fails when any item of an array is in the list', () => {
      expect(checkRule('not_one_of', ['c', 'd'], ['a', 'b'])).toBe(true);
      expect(checkRule('not_one_of', ['c', 'b'], ['a', 'b'])).toBe(false);
    });
  });

  describe('numeric', () => {
    it('accepts strings of ASCII digits and non-negative integers', () => {
      for (const v of ['0', '0912345678', 42]) expect(checkRule('numeric', v), String(v)).toBe(true);
    });

    it('rejects signs, decimals, spaces, letters and full-width digits', () => {
      for (const v of ['-1', '1.5', '1 2', '12a', '１２', -1])
        expect(checkRule('numeric', v), String(v)).toBe(false);
    });
  });

  describe('one_of', () => {
    it('passes when the value is in the list, also for numbers', () => {
      expect(checkRule('one_of', 'b', ['a', 'b'])).toBe(true);
      expect(checkRule('one_of', 2, ['1', '2'])).toBe(true);
    });

    it('fails when the value is not in the list', () => {
      expect(checkRule('one_of', 'c', ['a', 'b'])).toBe(false);
      expect(checkRule('one_of', 'A', ['a', 'b'])).toBe(false);
    });

    it('requires every item of an array to be in the list', () => {
      expect(checkRule('one_of', ['a', 'b'], ['a', 'b'])).toBe(true);
      expect(checkRule('one_of', ['a', 'c'], ['a', 'b'])).toBe(false);
    });
  });

  describe('regex', () => {
    it('uses a bare pattern as the regular expression source', () => {
      expect(checkRule('regex', 'abc', ['^[a-z]+$'])).toBe(true);
      expect(checkRule('regex', 'abC', ['^[a-z]+$'])).toBe(false);
    });

    it('reads the /pattern/flags literal form, flags included', () => {
      expect(checkRule('regex', 'ABC', ['/^[a-z]+$/i'])).toBe(true);
      expect(checkRule('regex', 'ABC', ['/^[a-z]+$/'])).toBe(false);
      expect(checkRule('regex', '09-1234', ['/^\\d{2}-\\d{4}$/'])).toBe(true);
    });

    it('keeps a pattern with commas and colons whole', () => {
      expect(checkRule('regex', '12:345', ['^\\d{1,2}:\\d{3}$'])).toBe(true);
      expect(checkRule('regex', '12:345', ['^\\d{1,2}', '\\d{3}$'])).toBe(true);
    });

    it('matches CJK text with the u flag', () => {
      expect(checkRule('regex', '台北市', ['/^\\p{Script=Han}+$/u'])).toBe(true);
      expect(checkRule('regex', '台北1', ['/^\\p{Script=Han}+$/u'])).toBe(false);
    });

    it('fails (does not throw) on an invalid pattern', () => {
      expect(checkRule('regex', 'abc', ['[unclosed'])).toBe(false);
    });

    it('tests every array item the same way even with a g flag', () => {
      expect(checkRule('regex', ['a', 'a'], ['/a/g'])).toBe(true);
      expect(checkRule('regex', ['a', 'b'], ['/a/g'])).toBe(false);
    });
  });

  describe('size', () => {
    it('passes at or under N KB, the boundary of exactly N*1024 bytes included', () => {
      expect(checkRule('size', file('a.png', 'image/png', 10 * 1024), ['10'])).toBe(true);
      expect(checkRule('size', file('a.png', 'image/png', 1), ['10'])).toBe(true);
      expect(checkRule('size', JPG, ['500'])).toBe(true);
    });

    it('fails one byte over N KB', () => {
      expect(checkRule('size', file('a.png', 'image/png', 10 * 1024 + 1), ['10'])).toBe(false);
      expect(checkRule('size', JPG, ['499'])).toBe(false);
    });

    it('fails on non-files and checks every file of a list', () => {
      expect(checkRule('size', 1, ['10'])).toBe(false);
      expect(checkRule('size', [PNG, JPG], ['10'])).toBe(false);
      expect(checkRule('size', [PNG, PDF], ['10'])).toBe(true);
    });
  });

  describe('url', () => {
    it('accepts http and https URLs', () => {
      for (const v of ['https://example.com', 'http://example.com/path?q=1#x', 'https://例子.台灣/茶']) {
        expect(checkRule('url', v), v).toBe(true);
      }
    });

    it('rejects other schemes and non-URLs', () => {
      for (const v of [
        'ftp://example.com',
        'javascript:alert(1)',
        'mailto:a@b.com',
        'file:///etc/passwd',
        'example.com',
        'http://',
        'not a url',
      ]) {
        expect(checkRule('url', v), v).toBe(false);
      }
    });
  });
});

describe('ruleMessage', () => {
  it('gives the zh-TW text of each rule that has its own message', () => {
    const expected: [RuleName, string[], string][] = [
      ['required', [], '密碼為必填欄位'],
      ['email', [], '密碼必須是有效的電子郵件地址'],
      ['min', ['8'], '密碼不能少於 8 個字元'],
      ['max', ['128'], '密碼不能超過 128 個字元'],
      ['min_value', ['1'], '密碼不能小於 1'],
      ['max_value', ['99'], '密碼不能大於 99'],
      ['digits', ['6'], '密碼必須是 6 位數字'],
      ['numeric', [], '密碼只能輸入數字'],
      ['integer', [], '密碼必須是整數'],
      ['confirmed', ['password'], '密碼不一致'],
      ['url', [], '密碼必須是有效的網址'],
      ['image', [], '密碼必須是圖片檔'],
      ['size', ['2048'], '密碼的檔案大小必須小於 2048 KB'],
      ['regex', ['^a$'], '密碼格式不正確'],
    ];
    for (const [rule, params, text] of expected) expect(ruleMessage(rule, '密碼', params), rule).toBe(text);
  });

  it('covers every rule that has its own entry in RULE_MESSAGES', () => {
    const withOwn = RULE_NAMES.filter((r) => RULE_MESSAGES[r] !== undefined).sort();
    expect(withOwn).toEqual(
      [
        'confirmed',
        'digits',
        'email',
        'image',
        'integer',
        'max',
        'max_value',
        'min',
        'min_value',
        'numeric',
        'regex',
        'required',
        'size',
        'url',
      ].sort(),
    );
  });

  it('uses the default message for every rule without its own', () => {
    const without = RULE_NAMES.filter((r) => RULE_MESSAGES[r] === undefined);
    expect([...without].sort()).toEqual(
      [
        'alpha',
        'alpha_dash',
        'alpha_num',
        'alpha_spaces',
        'between',
        'dimensions',
        'ext',
        'is',
        'is_not',
        'length',
        'mimes',
        'not_one_of',
        'one_of',
      ].sort(),
    );
    expect(RULE_MESSAGES.default).toBe('{field}的內容不正確');
    for (const rule of without)
      expect(ruleMessage(rule, '商品名稱', SAMPLE_PARAMS[rule]), rule).toBe('商品名稱的內容不正確');
  });

  it('names both fields in the confirmed message when a target label is given', () => {
    expect(ruleMessage('confirmed', '確認密碼', ['password'], '密碼')).toBe('確認密碼與密碼不一致');
  });

  it('ignores the target label for rules other than confirmed', () => {
    expect(ruleMessage('required', '確認密碼', [], '密碼')).toBe('確認密碼為必填欄位');
  });

  it('leaves no placeholder behind', () => {
    for (const rule of RULE_NAMES)
      expect(ruleMessage(rule, '欄位', SAMPLE_PARAMS[rule], '目標'), rule).not.toMatch(/[{}]/);
  });

  it('inserts labels containing $ replacement patterns literally', () => {
    expect(ruleMessage('required', "價格($')", [])).toBe("價格($')為必填欄位");
    expect(ruleMessage('min', 'A$&B', ['8'])).toBe('A$&B不能少於 8 個字元');
  });
});

describe('parseRules', () => {
  it('splits rules on pipes and params on commas', () => {
    expect(parseRules('required|min:8|between:1,10|one_of:a,b,c')).toEqual([
      { rule: 'required', params: [] },
      { rule: 'min', params: ['8'] },
      { rule: 'between', params: ['1', '10'] },
      { rule: 'one_of', params: ['a', 'b', 'c'] },
    ]);
  });

  it('keeps the whole segment after regex: as one param, commas and colons included', () => {
    expect(parseRules('regex:^\\d{2,3}$')).toEqual([{ rule: 'regex', params: ['^\\d{2,3}$'] }]);
    expect(parseRules('required|regex:/^[a-z]{1,2}:x$/i|max:5')).toEqual([
      { rule: 'required', params: [] },
      { rule: 'regex', params: ['/^[a-z]{1,2}:x$/i'] },
      { rule: 'max', params: ['5'] },
    ]);
  });

  it('skips empty segments', () => {
    expect(parseRules('required||max:5|')).toEqual([
      { rule: 'required', params: [] },
      { rule: 'max', params: ['5'] },
    ]);
    expect(parseRules('')).toEqual([]);
  });

  it('throws on an unknown rule', () => {
    expect(() => parseRules('required|mni:8')).toThrow('unknown validation rule: mni');
    expect(() => parseRules('Required')).toThrow(/unknown validation rule/);
  });

  it('returns a copy of the array form unchanged', () => {
    const refs = [
      { rule: 'regex', params: ['^a|b$'] },
      { rule: 'max', params: ['3'] },
    ] as const;
    const parsed = parseRules(refs);
    expect(parsed).toEqual(refs);
    expect(parsed).not.toBe(refs);
  });

  it('accepts every rule name', () => {
    for (const rule of RULE_NAMES) expect(parseRules(`${rule}:1`).map((r) => r.rule)).toEqual([rule]);
  });
});

describe('validateValue', () => {
  it('returns null when every rule passes', () => {
    expect(validateValue('Secret123', 'required|min:8|max:128', '密碼')).toBeNull();
    expect(validateValue('', 'min:8|email', '電子郵件')).toBeNull();
  });

  it('returns the message of the first failing rule, in order', () => {
    expect(validateValue('', 'required|min:8', '密碼')).toBe('密碼為必填欄位');
    expect(validateValue('abc', 'required|min:8|numeric', '密碼')).toBe('密碼不能少於 8 個字元');
    expect(validateValue('abc', 'required|numeric|min:8', '密碼')).toBe('密碼只能輸入數字');
    expect(validateValue('abcdefgh', 'required|min:8|max:6', '密碼')).toBe('密碼不能超過 6 個字元');
  });

  it('checks the length bounds before any pattern, whatever order they are written in', () => {
    const long = `a@${'.'.repeat(300)}@`;
    expect(validateValue(long, 'required|email|max:254', '電子郵件')).toBe('電子郵件不能超過 254 個字元');
    expect(validateValue('abcd', 'integer|max:3', '代碼')).toBe('代碼不能超過 3 個字元');
    expect(validateValue('', 'email|required', '電子郵件')).toBe('電子郵件為必填欄位');
  });

  it('uses the default message for rules without their own', () => {
    expect(validateValue('x', 'one_of:a,b', '付款方式')).toBe('付款方式的內容不正確');
  });

  it('accepts the array form, so a regex may hold a pipe', () => {
    expect(validateValue('b', [{ rule: 'regex', params: ['^(a|b)$'] }], '代碼')).toBeNull();
    expect(validateValue('c', [{ rule: 'regex', params: ['^(a|b)$'] }], '代碼')).toBe('代碼格式不正確');
  });

  it('checks confirmed against ctx.values and names the target label', () => {
    const ctx = { values: { password: 'Secret123' }, targetLabel: '密碼' };
    expect(validateValue('Secret123', 'required|confirmed:password', '確認密碼', ctx)).toBeNull();
    expect(validateValue('Secret124', 'required|confirmed:password', '確認密碼', ctx)).toBe(
      '確認密碼與密碼不一致',
    );
    expect(validateValue('Secret124', 'confirmed:password', '確認密碼', { values: { password: 'x' } })).toBe(
      '確認密碼不一致',
    );
  });

  it('fills the bound into the message', () => {
    expect(validateValue('12345', 'digits:10', '手機號碼')).toBe('手機號碼必須是 10 位數字');
    expect(validateValue(file('a.png', 'image/png', 3 * 1024 * 1024), 'image|size:2048', '頭像')).toBe(
      '頭像的檔案大小必須小於 2048 KB',
    );
    expect(validateValue('0', 'min_value:1', '數量')).toBe('數量不能小於 1');
    expect(validateValue('100', 'max_value:99', '數量')).toBe('數量不能大於 99');
  });

  it('throws on an unknown rule in the string form', () => {
    expect(() => validateValue('x', 'requird', '欄位')).toThrow(/unknown validation rule/);
  });
});
