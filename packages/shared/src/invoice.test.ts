import { describe, expect, it } from 'vitest';
import { isCitizenCertificate, isDonationCode, isMobileBarcode, isTaxId, taxIdProblem } from './invoice.ts';

/** The weighted digit sum, spelled out independently so the cases below show why they pass or fail. */
function weightedSum(id: string): number {
  const weights = [1, 2, 1, 2, 1, 2, 4, 1];
  return weights.reduce((sum, weight, i) => {
    const product = Number(id[i]) * weight;
    return (
      sum +
      String(product)
        .split('')
        .reduce((s, d) => s + Number(d), 0)
    );
  }, 0);
}

describe('taxIdProblem: a 統一編號 message that fits what was typed', () => {
  it('asks for 8 digits when it is not 8 digits, and for a second look when 8 digits fail the check', () => {
    expect(taxIdProblem('2209913')).toBe('統一編號為 8 位數字');
    expect(taxIdProblem('2209913A')).toBe('統一編號為 8 位數字');
    expect(taxIdProblem('12345678')).toBe('統一編號的檢查碼不符，請對照發票或營業登記再確認一次');
    expect(taxIdProblem('22099131')).toBeNull();
  });
});

describe('isTaxId (統一編號)', () => {
  it('accepts published business IDs of well-known companies', () => {
    // 台灣積體電路製造 (TWSE 2330): 22099131 — sum 30
    expect(isTaxId('22099131')).toBe(true);
    // 中華電信 (TWSE 2412): 96979933 — sum 50
    expect(isTaxId('96979933')).toBe(true);
    // 聯發科技 (TWSE 2454): 84149961 — sum 50
    expect(isTaxId('84149961')).toBe(true);
    // 台灣大哥大 (TWSE 3045): 97176270 — 7th digit 7, sum 40 itself divisible
    expect(isTaxId('97176270')).toBe(true);
  });

  it('accepts a number valid only under the divisible-by-5 rule (2023 on), not the old divisible-by-10 one', () => {
    expect(weightedSum('22099136')).toBe(35);
    expect(isTaxId('22099136')).toBe(true);
    expect(weightedSum('04595252')).toBe(35);
    expect(isTaxId('04595252')).toBe(true);
  });

  it('accepts a 7th-digit-7 number only through the (sum + 1) rule', () => {
    // 4 × 7 = 28 → 2 + 8 = 10, which the rule also lets count as 1: sum 29 → 30.
    expect(weightedSum('10458574')).toBe(29);
    expect(isTaxId('10458574')).toBe(true);
    // sum 34 → 35: needs both the (sum + 1) rule and the divisible-by-5 rule.
    expect(weightedSum('10458579')).toBe(34);
    expect(isTaxId('10458579')).toBe(true);
    // sum + 1 is not always enough: 10458576 sums to 31, and 32 is not divisible by 5.
    expect(weightedSum('10458576')).toBe(31);
    expect(isTaxId('10458576')).toBe(false);
  });

  it('grants the (sum + 1) allowance only when the 7th digit is 7', () => {
    // 7th digit 0: sum 19, and 19 + 1 = 20 would pass if the allowance applied.
    expect(weightedSum('10458504')).toBe(19);
    expect(isTaxId('10458504')).toBe(false);
    // A 7 elsewhere (2nd digit) does not count either: sum 24, 24 + 1 = 25.
    expect(weightedSum('17458504')).toBe(24);
    expect(isTaxId('17458504')).toBe(false);
  });

  it('rejects numbers whose checksum fails', () => {
    expect(isTaxId('22099132')).toBe(false); // sum 31
    expect(isTaxId('96979934')).toBe(false); // sum 51
    expect(isTaxId('12345678')).toBe(false); // sum 42, 7th digit 7 but 43 fails too
    expect(isTaxId('00000001')).toBe(false);
  });

  it('rejects non-digits and wrong lengths', () => {
    for (const bad of [
      '',
      '2209913',
      '220991310',
      '2209913A',
      'A2209913',
      ' 22099131',
      '22099131 ',
      '2209-9131',
      '２２０９９１３１',
      '22099131\n',
      '-2209913',
      '2.099131',
    ]) {
      expect(isTaxId(bad), bad).toBe(false);
    }
  });
});

describe('isMobileBarcode (手機條碼載具)', () => {
  it('accepts "/" followed by 7 of 0-9 A-Z . - +', () => {
    for (const good of ['/ABC1234', '/0000000', '/ZZZZZZZ', '/A.B-C+1', '/+-.+-.+', '/1234567']) {
      expect(isMobileBarcode(good), good).toBe(true);
    }
  });

  it('rejects lower-case letters', () => {
    expect(isMobileBarcode('/abc1234')).toBe(false);
    expect(isMobileBarcode('/ABc1234')).toBe(false);
  });

  it('rejects the wrong length', () => {
    for (const bad of ['/', '/ABC123', '/ABC12345', '']) {
      expect(isMobileBarcode(bad), bad).toBe(false);
    }
  });

  it('rejects a missing or misplaced slash', () => {
    for (const bad of ['ABC12345', 'ABC1234', 'AABC1234', 'ABC1234/', '//ABC123', '\\ABC1234']) {
      expect(isMobileBarcode(bad), bad).toBe(false);
    }
  });

  it('rejects other symbols and whitespace', () => {
    for (const bad of [
      '/ABC 123',
      '/ABC_123',
      '/ABC*123',
      '/ABC$123',
      '/ABC%123',
      '/ABC/123',
      '/ABCＤ123',
      ' /ABC1234',
      '/ABC1234 ',
      '/ABC1234\n',
    ]) {
      expect(isMobileBarcode(bad), bad).toBe(false);
    }
  });
});

describe('isDonationCode (捐贈碼 / 愛心碼)', () => {
  it('accepts 3 to 7 digits', () => {
    for (const good of ['123', '001', '8585', '25885', '1234567']) {
      expect(isDonationCode(good), good).toBe(true);
    }
  });

  it('rejects other lengths and non-digits', () => {
    for (const bad of ['', '1', '12', '12345678', '12a', 'ABC', ' 123', '123 ', '12-3', '１２３', '123\n']) {
      expect(isDonationCode(bad), bad).toBe(false);
    }
  });
});

describe('mobile barcode as typed', () => {
  it('is upper-cased and made half-width the way the checkout box and the server both read it', async () => {
    const { normalizeMobileBarcode } = await import('./invoice.ts');
    expect(normalizeMobileBarcode(' /abc+123 ')).toBe('/ABC+123');
    // A zh-TW keyboard in full-width mode types ／ＡＢＣ＋１２３.
    expect(normalizeMobileBarcode('／ａｂｃ＋１２３')).toBe('/ABC+123');
    expect(isMobileBarcode(normalizeMobileBarcode('／ａｂｃ．－１２'))).toBe(true);
  });

  it('the order form takes a lower-case or full-width barcode and keeps it upper-case', async () => {
    const { PlaceOrderBody } = await import('./checkout.ts');
    const body = (mobileBarcode: string) => ({
      idempotencyKey: '7f8c2a4e-3b1d-4c5e-9f6a-1b2c3d4e5f60',
      shipping: {
        method: 'home',
        recipientName: '林小嵐',
        phone: '0912345678',
        city: '南投縣',
        district: '鹿谷鄉',
        address: '興產路 87 號',
      },
      invoice: { type: 'mobile', mobileBarcode },
      paymentMethod: 'cod',
    });
    expect(PlaceOrderBody.parse(body('/abc+123')).invoice).toEqual({
      type: 'mobile',
      mobileBarcode: '/ABC+123',
    });
    expect(PlaceOrderBody.parse(body('／ａｂｃ＋１２３')).invoice).toEqual({
      type: 'mobile',
      mobileBarcode: '/ABC+123',
    });
  });
});

describe('isCitizenCertificate (自然人憑證條碼載具)', () => {
  it('accepts 2 upper-case letters followed by 14 digits', () => {
    for (const good of ['AB12345678901234', 'ZZ00000000000000', 'TP03000000000001']) {
      expect(isCitizenCertificate(good), good).toBe(true);
    }
  });

  it('rejects lower case, the wrong length, letters and digits out of place, and anything else', () => {
    for (const bad of [
      '',
      'ab12345678901234',
      'Ab12345678901234',
      'AB1234567890123',
      'AB123456789012345',
      'A123456789012345',
      'ABC1234567890123',
      '1212345678901234',
      'AB1234567890123A',
      'AB 2345678901234',
      ' AB12345678901234',
      'AB12345678901234\n',
      'ＡＢ12345678901234',
      'AB１2345678901234',
      '/ABC1234',
    ]) {
      expect(isCitizenCertificate(bad), bad).toBe(false);
    }
  });
});

describe('citizen certificate carrier as typed at checkout', () => {
  const body = (certificate: unknown) => ({
    idempotencyKey: '7f8c2a4e-3b1d-4c5e-9f6a-1b2c3d4e5f60',
    shipping: {
      method: 'home',
      recipientName: '林小嵐',
      phone: '0912345678',
      city: '南投縣',
      district: '鹿谷鄉',
      address: '興產路 87 號',
    },
    invoice: { type: 'certificate', certificate },
    paymentMethod: 'cod',
  });
  const problem = async (certificate: unknown) => {
    const { PlaceOrderBody } = await import('./checkout.ts');
    const r = PlaceOrderBody.safeParse(body(certificate));
    return r.success ? null : r.error.issues.map((i) => [i.path.join('.'), i.message]);
  };
  const MESSAGE = '自然人憑證條碼格式不正確：2 碼英文字母加上 14 碼數字';

  it('takes a well-formed number as it is', async () => {
    const { PlaceOrderBody } = await import('./checkout.ts');
    expect(PlaceOrderBody.parse(body('AB12345678901234')).invoice).toEqual({
      type: 'certificate',
      certificate: 'AB12345678901234',
    });
  });

  it('upper-cases, trims and makes half-width what was typed', async () => {
    const { PlaceOrderBody } = await import('./checkout.ts');
    expect(PlaceOrderBody.parse(body('ab12345678901234')).invoice).toEqual({
      type: 'certificate',
      certificate: 'AB12345678901234',
    });
    expect(PlaceOrderBody.parse(body('  Ab12345678901234 ')).invoice).toEqual({
      type: 'certificate',
      certificate: 'AB12345678901234',
    });
    expect(PlaceOrderBody.parse(body('ａｂ１２３４５６７８９０１２３４')).invoice).toEqual({
      type: 'certificate',
      certificate: 'AB12345678901234',
    });
  });

  it('refuses the wrong length or pattern beside the field, in zh-TW', async () => {
    for (const bad of [
      '',
      'AB1234567890123',
      'AB123456789012345',
      'A1234567890123456',
      '1234567890123456',
      'ABC1234567890123',
      'AB-1234567890123',
      'AB 1234567890123',
      'x'.repeat(33),
      undefined,
      1234567890123456,
    ]) {
      expect(await problem(bad), String(bad)).toEqual([['invoice.certificate', MESSAGE]]);
    }
  });

  it('is a carrier of its own: no other invoice field is taken with it', async () => {
    const { PlaceOrderBody } = await import('./checkout.ts');
    expect(
      PlaceOrderBody.safeParse({
        ...body('AB12345678901234'),
        invoice: { type: 'certificate', certificate: 'AB12345678901234', mobileBarcode: '/ABC1234' },
      }).success,
    ).toBe(false);
  });
});
