import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkMacPlaintext, checkMacValue, ecpayUrlEncode, verifyCheckMacValue } from './ecpay-check-mac.ts';

// ECPay's published stage (test) merchant 3002607 and its keys.
const HASH_KEY = 'pwFHCqoQZGmho4w6';
const HASH_IV = 'EkRm7iFT261dpevs';

/*
 * Worked example from ECPay 全方位金流 API 技術文件 — 附錄 / 檢查碼機制 (AioCheckOut, EncryptType=1):
 * https://developers.ecpay.com.tw/?p=2902 (English: https://developers.ecpay.com.tw/?p=16623).
 * The parameters and the URL-encoded string of step (3) are quoted from that page. The final SHA256 value
 * (step 6) is the one the page gives, as quoted by several independent integrations' test suites; we could
 * not read step 6 ourselves in the stored copy of the page, but our implementation reproduces the documented
 * intermediate strings character for character and lands on this value.
 */
const OFFICIAL_PARAMS = {
  TradeDesc: '促銷方案',
  PaymentType: 'aio',
  MerchantTradeDate: '2023/03/12 15:30:23',
  MerchantTradeNo: 'ecpay20230312153023',
  MerchantID: '3002607',
  ReturnURL: 'https://www.ecpay.com.tw/receive.php',
  ItemName: 'Apple iphone 15',
  TotalAmount: '30000',
  ChoosePayment: 'ALL',
  EncryptType: '1',
} as const;
const OFFICIAL_SORTED =
  'HashKey=pwFHCqoQZGmho4w6&ChoosePayment=ALL&EncryptType=1&ItemName=Apple iphone 15&MerchantID=3002607' +
  '&MerchantTradeDate=2023/03/12 15:30:23&MerchantTradeNo=ecpay20230312153023&PaymentType=aio' +
  '&ReturnURL=https://www.ecpay.com.tw/receive.php&TotalAmount=30000&TradeDesc=促銷方案&HashIV=EkRm7iFT261dpevs';
const OFFICIAL_ENCODED =
  'HashKey%3dpwFHCqoQZGmho4w6%26ChoosePayment%3dALL%26EncryptType%3d1%26ItemName%3dApple+iphone+15' +
  '%26MerchantID%3d3002607%26MerchantTradeDate%3d2023%2f03%2f12+15%3a30%3a23%26MerchantTradeNo%3decpay20230312153023' +
  '%26PaymentType%3daio%26ReturnURL%3dhttps%3a%2f%2fwww.ecpay.com.tw%2freceive.php%26TotalAmount%3d30000' +
  '%26TradeDesc%3d%e4%bf%83%e9%8a%b7%e6%96%b9%e6%a1%88%26HashIV%3dEkRm7iFT261dpevs';
const OFFICIAL_CHECK_MAC = '6C51C9E6888DE861FD62FB1DD17029FC742634498FD813DC43D4243B5685B840';

describe('checkMacValue — ECPay AIO worked example (developers.ecpay.com.tw/?p=2902)', () => {
  it('sorts the parameters and wraps them in HashKey/HashIV as in steps (1)–(2)', () => {
    expect(checkMacPlaintext(OFFICIAL_PARAMS, HASH_KEY, HASH_IV)).toBe(OFFICIAL_SORTED);
  });

  it('URL-encodes exactly as in step (3)', () => {
    expect(ecpayUrlEncode(OFFICIAL_SORTED)).toBe(OFFICIAL_ENCODED);
  });

  it('produces the published CheckMacValue', () => {
    expect(checkMacValue(OFFICIAL_PARAMS, HASH_KEY, HASH_IV)).toBe(OFFICIAL_CHECK_MAC);
  });

  it('is the documented pipeline: lower-case the encoded string, SHA256, upper-case hex', () => {
    const stepByStep = createHash('sha256')
      .update(OFFICIAL_ENCODED.toLowerCase(), 'utf8')
      .digest('hex')
      .toUpperCase();
    expect(stepByStep).toBe(OFFICIAL_CHECK_MAC);
  });

  it('accepts numbers as values (stringified as-is)', () => {
    expect(checkMacValue({ ...OFFICIAL_PARAMS, TotalAmount: 30000, EncryptType: 1 }, HASH_KEY, HASH_IV)).toBe(
      OFFICIAL_CHECK_MAC,
    );
  });
});

describe('encoding pipeline — ECPay 電子發票 checksum example (developers.ecpay.com.tw/?p=38242)', () => {
  // The same sort/encode/lower-case steps, hashed with MD5 on that API; the page publishes every step.
  it('reproduces the published intermediate string and MD5 value', () => {
    const params = {
      RtnCode: '1',
      RtnMsg: '',
      IA_Allow_No: '1909181313013546',
      IA_Invoice_No: 'UV11100019',
      IA_Date: '2019-09-18 13:13:23',
      IIS_Remain_Allowance_Amt: '0',
    };
    const lowered = ecpayUrlEncode(
      checkMacPlaintext(params, 'ejCk326UnaZWKisg', 'q9jcZX8Ib9LM8wYk'),
    ).toLowerCase();
    expect(lowered).toBe(
      'hashkey%3dejck326unazwkisg%26ia_allow_no%3d1909181313013546%26ia_date%3d2019-09-18+13%3a13%3a23' +
        '%26ia_invoice_no%3duv11100019%26iis_remain_allowance_amt%3d0%26rtncode%3d1%26rtnmsg%3d%26hashiv%3dq9jczx8ib9lm8wyk',
    );
    expect(createHash('md5').update(lowered, 'utf8').digest('hex')).toBe('50a276e71dae26343013958b405eeea0');
  });
});

describe('checkMacValue — key order is case-insensitive', () => {
  it('orders mixed-case keys A–Z ignoring case, unlike a plain code-unit sort', () => {
    const params = {
      card4no: '2222',
      CustomField1: 'x',
      amount: '100',
      ATMAccBank: '',
      eci: '0',
      ExecTimes: '',
    };
    expect(checkMacPlaintext(params, 'K', 'V')).toBe(
      'HashKey=K&amount=100&ATMAccBank=&card4no=2222&CustomField1=x&eci=0&ExecTimes=&HashIV=V',
    );
    // A code-unit sort would put every upper-case key first; the value must not depend on that.
    const asciiSorted = Object.keys(params).sort();
    expect(asciiSorted[0]).toBe('ATMAccBank');
    const reordered = Object.fromEntries(asciiSorted.map((key) => [key, params[key as keyof typeof params]]));
    expect(checkMacValue(reordered, HASH_KEY, HASH_IV)).toBe(checkMacValue(params, HASH_KEY, HASH_IV));
  });

  /*
   * A real payment-result notification from ECPay's stage environment (merchant 3002607), as posted in
   * https://www.tshopping.com.tw/thread-265081-1-1.html. Its keys mix cases (amount, auth_code, card4no,
   * process_date, …), so it only verifies with case-insensitive ordering. RtnMsg is 交易成功 (shown
   * mis-decoded on that page).
   */
  it('verifies a real stage notification whose keys mix upper and lower case', () => {
    const notification: Record<string, string> = {
      AlipayID: '',
      AlipayTradeNo: '',
      amount: '80800',
      ATMAccBank: '',
      ATMAccNo: '',
      auth_code: '777777',
      card4no: '2222',
      card6no: '431195',
      CustomField1: '',
      CustomField2: '',
      CustomField3: '',
      CustomField4: '',
      eci: '0',
      ExecTimes: '',
      Frequency: '',
      gwsr: '13955622',
      MerchantID: '3002607',
      MerchantTradeNo: '2025101423404152',
      PayFrom: '',
      PaymentDate: '2025/10/14 23:35:34',
      PaymentNo: '',
      PaymentType: 'Credit_CreditCard',
      PaymentTypeChargeFee: '1981',
      PeriodAmount: '',
      PeriodType: '',
      process_date: '2025/10/14 23:35:34',
      red_dan: '0',
      red_de_amt: '0',
      red_ok_amt: '0',
      red_yet: '0',
      RtnCode: '1',
      RtnMsg: '交易成功',
      SimulatePaid: '0',
      staed: '0',
      stage: '0',
      stast: '0',
      StoreID: '',
      TenpayTradeNo: '',
      TotalSuccessAmount: '',
      TotalSuccessTimes: '',
      TradeAmt: '80800',
      TradeDate: '2025/10/14 23:35:01',
      TradeNo: '2510142335016248',
      WebATMAccBank: '',
      WebATMAccNo: '',
      WebATMBankName: '',
      CheckMacValue: 'EE759D314B59ACB73C8B9129620F90964D78C3EDE06B2661C63BB984AC41AC3E',
    };
    expect(checkMacValue(notification, HASH_KEY, HASH_IV)).toBe(notification.CheckMacValue);
    expect(verifyCheckMacValue(notification, HASH_KEY, HASH_IV)).toBe(true);
  });
});

describe('checkMacValue — CheckMacValue in the input', () => {
  it('is left out of the calculation', () => {
    expect(checkMacValue({ ...OFFICIAL_PARAMS, CheckMacValue: 'ANYTHING' }, HASH_KEY, HASH_IV)).toBe(
      OFFICIAL_CHECK_MAC,
    );
    expect(checkMacPlaintext({ ...OFFICIAL_PARAMS, CheckMacValue: 'X' }, HASH_KEY, HASH_IV)).toBe(
      OFFICIAL_SORTED,
    );
  });
});

describe('verifyCheckMacValue', () => {
  const signed = { ...OFFICIAL_PARAMS, CheckMacValue: OFFICIAL_CHECK_MAC };

  it('accepts the correct value, in upper or lower case hex', () => {
    expect(verifyCheckMacValue(signed, HASH_KEY, HASH_IV)).toBe(true);
    expect(
      verifyCheckMacValue({ ...signed, CheckMacValue: OFFICIAL_CHECK_MAC.toLowerCase() }, HASH_KEY, HASH_IV),
    ).toBe(true);
  });

  it('rejects a tampered parameter', () => {
    expect(verifyCheckMacValue({ ...signed, TotalAmount: '1' }, HASH_KEY, HASH_IV)).toBe(false);
    expect(verifyCheckMacValue({ ...signed, Extra: '' }, HASH_KEY, HASH_IV)).toBe(false);
  });

  it('rejects a tampered, truncated, non-hex or missing CheckMacValue', () => {
    const flipped = `${OFFICIAL_CHECK_MAC.slice(0, -1)}${OFFICIAL_CHECK_MAC.endsWith('0') ? '1' : '0'}`;
    expect(verifyCheckMacValue({ ...signed, CheckMacValue: flipped }, HASH_KEY, HASH_IV)).toBe(false);
    expect(
      verifyCheckMacValue({ ...signed, CheckMacValue: OFFICIAL_CHECK_MAC.slice(0, 62) }, HASH_KEY, HASH_IV),
    ).toBe(false);
    expect(
      verifyCheckMacValue(
        { ...signed, CheckMacValue: `${OFFICIAL_CHECK_MAC.slice(0, 63)}G` },
        HASH_KEY,
        HASH_IV,
      ),
    ).toBe(false);
    expect(verifyCheckMacValue({ ...signed, CheckMacValue: '' }, HASH_KEY, HASH_IV)).toBe(false);
    expect(verifyCheckMacValue({ ...OFFICIAL_PARAMS }, HASH_KEY, HASH_IV)).toBe(false);
  });

  it('rejects a value made with other keys', () => {
    expect(verifyCheckMacValue(signed, HASH_KEY, 'wrongHashIV00000')).toBe(false);
  });
});

describe('ecpayUrlEncode (.NET HttpUtility.UrlEncode rules, ECPay URLEncode 轉換表)', () => {
  it('keeps letters, digits and - _ . ! * ( ) as they are', () => {
    expect(ecpayUrlEncode('AZaz09-_.!*()')).toBe('AZaz09-_.!*()');
  });

  it('turns a space into +', () => {
    expect(ecpayUrlEncode('Apple iphone 15')).toBe('Apple+iphone+15');
  });

  it('encodes ~ and the apostrophe (unlike encodeURIComponent, which keeps them)', () => {
    expect(ecpayUrlEncode('~')).toBe('%7e');
    expect(ecpayUrlEncode("'")).toBe('%27');
    expect(encodeURIComponent("~'")).toBe("~'");
    expect(ecpayUrlEncode("()!*-_.~'")).toBe('()!*-_.%7e%27');
  });

  it('encodes / ? = & and +', () => {
    expect(ecpayUrlEncode('/?=&+')).toBe('%2f%3f%3d%26%2b');
  });

  it('encodes Chinese characters as UTF-8 bytes with lower-case hex', () => {
    expect(ecpayUrlEncode('促銷方案')).toBe('%e4%bf%83%e9%8a%b7%e6%96%b9%e6%a1%88');
    expect(ecpayUrlEncode('山嵐 茶事')).toBe('%e5%b1%b1%e5%b5%90+%e8%8c%b6%e4%ba%8b');
  });

  it('encodes the rest of ECPay’s table', () => {
    expect(ecpayUrlEncode('@#$%^;\\><`[]{}:",|')).toBe(
      '%40%23%24%25%5e%3b%5c%3e%3c%60%5b%5d%7b%7d%3a%22%2c%7c',
    );
  });

  it('encodes a mixed string', () => {
    expect(ecpayUrlEncode("茶 (100g)! a/b?c=d&e ~'*-_.")).toBe(
      '%e8%8c%b6+(100g)!+a%2fb%3fc%3dd%26e+%7e%27*-_.',
    );
  });
});

/*
 * Logistics (物流整合) signs with MD5: the worked example of ECPay's logistics checksum appendix
 * (https://developers.ecpay.com.tw/?p=22539, zh ?p=7424) on the C2C stage merchant 2000933, and a
 * second example on the B2C stage merchant 2000132 (docs/integrations/ecpay-logistics.md, section 2).
 */
describe('checkMacValue — MD5 for logistics (ECPay logistics checksum appendix)', () => {
  const C2C_KEY = 'XBERn1YOvpM9nfZc';
  const C2C_IV = 'h1ONHk4P4yqbl5LK';
  const example = {
    MerchantID: '2000933',
    MerchantTradeNo: 'A20130312153023',
    MerchantTradeDate: '2013/03/12 15:30:23',
    LogisticsType: 'CVS',
    LogisticsSubType: 'FAMIC2C',
    GoodsAmount: '1000',
    IsCollection: 'N',
    ServerReplyURL: 'https://www.ecpay.com.tw/ServerReplyURL',
    SenderName: '寄件者姓名',
    ReceiverName: '收件者姓名',
    ReceiverStoreID: '001779',
  };

  it('reproduces the documented sorted string, encoded string and MD5', () => {
    expect(checkMacPlaintext(example, C2C_KEY, C2C_IV)).toBe(
      'HashKey=XBERn1YOvpM9nfZc&GoodsAmount=1000&IsCollection=N&LogisticsSubType=FAMIC2C&LogisticsType=CVS&MerchantID=2000933' +
        '&MerchantTradeDate=2013/03/12 15:30:23&MerchantTradeNo=A20130312153023&ReceiverName=收件者姓名&ReceiverStoreID=001779' +
        '&SenderName=寄件者姓名&ServerReplyURL=https://www.ecpay.com.tw/ServerReplyURL&HashIV=h1ONHk4P4yqbl5LK',
    );
    expect(ecpayUrlEncode(checkMacPlaintext(example, C2C_KEY, C2C_IV)).toLowerCase()).toBe(
      'hashkey%3dxbern1yovpm9nfzc%26goodsamount%3d1000%26iscollection%3dn%26logisticssubtype%3dfamic2c%26logisticstype%3dcvs' +
        '%26merchantid%3d2000933%26merchanttradedate%3d2013%2f03%2f12+15%3a30%3a23%26merchanttradeno%3da20130312153023' +
        '%26receivername%3d%e6%94%b6%e4%bb%b6%e8%80%85%e5%a7%93%e5%90%8d%26receiverstoreid%3d001779' +
        '%26sendername%3d%e5%af%84%e4%bb%b6%e8%80%85%e5%a7%93%e5%90%8d%26serverreplyurl%3dhttps%3a%2f%2fwww.ecpay.com.tw%2fserverreplyurl' +
        '%26hashiv%3dh1onhk4p4yqbl5lk',
    );
    expect(checkMacValue(example, C2C_KEY, C2C_IV, 'md5')).toBe('692FD6E2CDB539CCDB7206C76DC239AD');
  });

  it('reproduces the B2C stage merchant example', () => {
    const params = {
      MerchantID: '2000132',
      LogisticsType: 'CVS',
      LogisticsSubType: 'UNIMART',
      MerchantTradeDate: '2025/01/01 12:00:00',
    };
    expect(checkMacValue(params, '5294y06JbISpM5x9', 'v77hoKGq4kWxNNIS', 'md5')).toBe(
      '545E6146FD45BDA683C88454DB34CE8D',
    );
  });

  it('verifies an MD5 value, and refuses a SHA256-length value, a changed field and a wrong key', () => {
    const signed = { ...example, CheckMacValue: '692FD6E2CDB539CCDB7206C76DC239AD' };
    expect(verifyCheckMacValue(signed, C2C_KEY, C2C_IV, 'md5')).toBe(true);
    expect(
      verifyCheckMacValue(
        { ...signed, CheckMacValue: signed.CheckMacValue.toLowerCase() },
        C2C_KEY,
        C2C_IV,
        'md5',
      ),
    ).toBe(true);
    expect(verifyCheckMacValue({ ...signed, GoodsAmount: '1001' }, C2C_KEY, C2C_IV, 'md5')).toBe(false);
    expect(verifyCheckMacValue(signed, C2C_KEY, 'wrong-iv', 'md5')).toBe(false);
    expect(verifyCheckMacValue(signed, C2C_KEY, C2C_IV, 'sha256')).toBe(false);
    expect(
      verifyCheckMacValue(
        { ...signed, CheckMacValue: checkMacValue(example, C2C_KEY, C2C_IV, 'sha256') },
        C2C_KEY,
        C2C_IV,
        'md5',
      ),
    ).toBe(false);
  });
});
