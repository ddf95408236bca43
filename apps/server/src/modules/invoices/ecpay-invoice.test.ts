import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildAllowanceInvalidPayload,
  buildAllowancePayload,
  buildOnlineAllowancePayload,
  readAllowanceNotice,
  allowanceNoticeForm,
  buildCheckBarcodePayload,
  buildCheckLoveCodePayload,
  buildGetIssuePayload,
  buildInvalidPayload,
  buildIssuePayload,
  EinvoiceInputError,
  invoiceItems,
  isCitizenCertificate,
  isInvoiceNo,
  isLoveCode,
  isMobileBarcode,
  isRelateNumber,
  isTaxId,
  refundLine,
  spreadDiscount,
  type IssueInput,
} from './ecpay-invoice-fields.ts';
import {
  decryptData,
  EinvoiceDataError,
  einvoiceUrlDecode,
  einvoiceUrlEncode,
  encryptData,
  encryptText,
} from './ecpay-invoice-crypto.ts';
import {
  EINVOICE_REVISION,
  EINVOICE_STAGE_MERCHANT,
  envelope,
  openReply,
  openRequest,
  refusalEnvelope,
  replyEnvelope,
} from './ecpay-invoice-protocol.ts';
import { EinvoiceHttpError, fetchPost, invoiceClient } from './ecpay-invoice-client.ts';

const { merchantId: MERCHANT, hashKey: KEY, hashIV: IV } = EINVOICE_STAGE_MERCHANT;
const SETTINGS = { merchantId: MERCHANT, hashKey: KEY, hashIV: IV, host: '' };
const NOW = new Date('2026-03-01T04:05:06Z');

/*
 * ECPay's B2C e-invoice API document, appendix 參數加密方式說明 (zh page id 7958; English "Encryption
 * method description", https://developers.ecpay.com.tw/?p=22160), for the stage merchant 2000132:
 * the JSON {"Name":"Test","ID":"A123456789"}, URL-encoded with upper-case hex, encrypts to the first
 * value; the same JSON encoded with lower-case hex encrypts to the second. Both are quoted from the page.
 */
const DOC_JSON = '{"Name":"Test","ID":"A123456789"}';
const DOC_ENCODED_UPPER = '%7B%22Name%22%3A%22Test%22%2C%22ID%22%3A%22A123456789%22%7D';
const DOC_DATA_UPPER =
  'uvI4yrErM37XNQkXGAgRgJAgHn2t72jahaMZzYhWL1HmvH4WV18VJDP2i9pTbC+tby5nxVExLLFyAkbjbS2Dvg==';
const DOC_DATA_LOWER =
  'ZD/z07UvdmL3aYz0tsVo+bFXF5VldNcns6ezyfea777KOmLiizrUNDYe+v1bh2QTT4AySf1NICgXxWXB6f7c6A==';

describe('AES Data — the documented example (ECPay B2C appendix, merchant 2000132)', () => {
  it('URL-encodes the example JSON exactly as the document shows', () => {
    expect(einvoiceUrlEncode(DOC_JSON)).toBe(DOC_ENCODED_UPPER);
  });

  it('encrypts the example payload to the documented Data', () => {
    expect(encryptData({ Name: 'Test', ID: 'A123456789' }, KEY, IV)).toBe(DOC_DATA_UPPER);
  });

  it('decrypts the documented Data back to the payload', () => {
    expect(decryptData(DOC_DATA_UPPER, KEY, IV)).toEqual({ Name: 'Test', ID: 'A123456789' });
  });

  it('decrypts the documented lower-case-hex variant to the same payload', () => {
    expect(
      encryptText(
        DOC_ENCODED_UPPER.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
        KEY,
        IV,
      ),
    ).toBe(DOC_DATA_LOWER);
    expect(decryptData(DOC_DATA_LOWER, KEY, IV)).toEqual({ Name: 'Test', ID: 'A123456789' });
  });

  it('is plain AES-128-CBC + PKCS7 + base64 over the encoded text (node:crypto spelled out)', () => {
    const cipher = createCipheriv('aes-128-cbc', Buffer.from(KEY), Buffer.from(IV));
    expect(Buffer.concat([cipher.update(DOC_ENCODED_UPPER, 'utf8'), cipher.final()]).toString('base64')).toBe(
      DOC_DATA_UPPER,
    );
  });

  it('also reproduces the same appendix of another ECPay AES API (merchant 3085676, https://developers.ecpay.com.tw/?p=32235)', () => {
    const data = 'oxmUqzelA4koGRQ+myZggW5qNqlVdytGJadngOuWA7jd1Fakpay72J/w5IXLIINqCYcmx7gLsaednuH54LjffA==';
    expect(encryptData({ Name: 'Test', ID: 'A123456789' }, '7b53896b742849d3', '37a0ad3c6ffa428b')).toBe(
      data,
    );
    expect(decryptData(data, '7b53896b742849d3', '37a0ad3c6ffa428b')).toEqual({
      Name: 'Test',
      ID: 'A123456789',
    });
  });
});

/*
 * ECPay's 電子發票示範 page (id 19021 on ECPay's developer site) shows a whole B2C Issue request for
 * merchant 2000132 with its encrypted Data; the stored copy of the page is cut off after 1,445
 * base64 characters. CBC encrypts block by block from a fixed IV, so the first 67 blocks (1,072
 * bytes) depend only on the first 1,072 characters of the encoded JSON, which decrypting the prefix
 * shows to be the payload below up to the opening of its second item. Our encoding of that payload
 * (raw UTF-8 Chinese, @ as %40, . kept) must encrypt to the same 67 blocks.
 */
const DEMO_DATA_PREFIX =
  'XeEOdHpTRvxKEqs/JD9RSd16s7VtpyWVCN6AV44pKTV7XoPByaStato0iqOI39rIrp3of8JQh2ctO23quUAG9Q06NewBnZlHoZsPIrZsw0P4aU+eOEgKD03CkkJS2t5khD6hNav2oMvdFonTGoryFiyLIjxBCpGJ/1FWeLAjfaaGc9ia6M5iL5E+8nH5YIxuNKPmQX3m4CkPYqIVuztDW55TO3rAwe9qCo8ICUAO3ThSSiSSDo2y6nYhMX9EjGBu2XV7ZuD60SofsMCFfTrxXBYIOgpnin5uQNgchAP/O41HRt/teXd7IIts9f3p3YRVwqHBcm+qzPH9jkOQWreiEq9Tx1xsFoZF21J+1dNHzQzet4Qb/SICZ9pviBaA1zM48KcH2iecwwnbFdv9y4anorvfjTlF5A3Z2mt82mV1NDsOY8n+GnU2GB/nGg35vw2VgjrQdQmUkarH/NHcgHkc2HZ2tM5XphlqdtHQAdPhnyoxq4ecccvpKOOZtlNK4qpeZNl4/4ZpRZ2HoJ1T0kkLLHFoPUkVE/Yls7higVMVgUZiZIpj1Z04pN2FneD2CX+uNOGL1dz6IYONuQl3kjyv+URwmBSEoPF9yE39G65vxSPcM/6uzGtx2Fg+hOOgD+G0Ps0qmzPohTsJ66c6B4telinAoDihGzgI+Wd7d7vpVLAqJp6ort515D3VqPDnLxLnO3Z60cNxaJfWI/PN7mjFz9ovE/1z0SVj3dvIe0ig9r74I+mBXgo8/WymGQhBwag34FKOmCmIFpSmCu0fzXdCAya3/m5+CRsv2VFCkD2npugXchUUZXJFw48XXA3bqa5ra+iOWfMQADmwvMlab8a0XbDHp2ehVgcVUZ7q6Iil/PeVtcgXRbKBBa1OAVVxkEYbZe0lBoOIo7YguwWNVPS9bQhJEYgHyBnNrqxVg/jGSio9fcm+Xw0krubUjp3ISLlE+39MQsnfa2VtpKrLAj4ORJyXG2O4oKODnalQnV71kI1g67JGMy22elqoQa5eCP6FKHdHFpZVZfzsjySoLFjIruLCsvoCD2t4REGsXySG9C497K0xcPMyzZIZ2kDxpqM7V5TY/XYJaUbJSOYJzhui9grCgsWJwtOhcbIbi/oSy4n14e9mX0hTcA2hegJNY2NcjS3RyckS8rMexf674Pw07zx59MgBZSLTOCoXA9QtdOhqROEWMVxyn2FjFKYhQdG3Zork55jsjuMFWaaNKdRyiOqjX9LKOfr9wgVuc3BUrYhN6CL9fEkAztFDJ5SFGh3lXconP7aj2/+nhIXv039tGzJe+EMf578gmediXCaAr49KGDpWmLDMyZv6Hco8P0HFJ0V61UX511AkJVq4hMqXn8nO70udMqEPOMj1mmhl0OBxSS4jZX1lHKsZORPPqB/R08VAeI/qhHu9A+pNtNA80xTUs8we3oDsem4gM';
const DEMO_PAYLOAD = {
  MerchantID: '2000132',
  RelateNumber: 'ecpayinvtest000',
  CustomerID: '',
  CustomerIdentifier: '97025978',
  CustomerName: '綠界科技股份有限公司',
  CustomerAddr: '台北市南港區成功路一段58號3樓',
  CustomerPhone: '',
  CustomerEmail: 'test@ecpay.com.tw',
  ClearanceMark: '1',
  Print: '1',
  Donation: '0',
  LoveCode: '',
  CarrierType: '',
  CarrierNum: '',
  TaxType: '1',
  SalesAmount: 70,
  InvoiceRemark: 'test',
  InvType: '07',
  vat: '1',
  Items: [
    {
      ItemSeq: 1,
      ItemName: '商品1',
      ItemCount: 1,
      ItemWord: '個',
      ItemPrice: 50,
      ItemTaxType: '1',
      ItemAmount: 50,
      ItemRemark: 'item01_desc',
    },
    // The page is cut off inside this item; only its opening brace is known, any content will do.
    {
      ItemSeq: 2,
      ItemName: '商品2',
      ItemCount: 1,
      ItemWord: '個',
      ItemPrice: 20,
      ItemTaxType: '1',
      ItemAmount: 20,
      ItemRemark: 'item02_desc',
    },
  ],
};

describe("AES Data — ECPay's 電子發票示範 Issue request (merchant 2000132)", () => {
  it('encrypts the demo payload to the same first 67 blocks as the published Data', () => {
    const ours = Buffer.from(encryptData(DEMO_PAYLOAD, KEY, IV), 'base64').subarray(0, 67 * 16);
    const theirs = Buffer.from(DEMO_DATA_PREFIX.slice(0, 1444), 'base64').subarray(0, 67 * 16);
    expect(ours.length).toBe(1072);
    expect(ours.equals(theirs)).toBe(true);
  });
});

describe('einvoiceUrlEncode / einvoiceUrlDecode', () => {
  it('keeps letters, digits and - _ . ; a space becomes +; everything else %XX per UTF-8 byte, upper-case', () => {
    expect(einvoiceUrlEncode('Az09-_. ')).toBe('Az09-_.+');
    expect(einvoiceUrlEncode("!*()~'@/+%&=")).toBe('%21%2A%28%29%7E%27%40%2F%2B%25%26%3D');
    expect(einvoiceUrlEncode('烏龍')).toBe('%E7%83%8F%E9%BE%8D');
    expect(einvoiceUrlEncode('/AB+1.-C')).toBe('%2FAB%2B1.-C');
  });

  it('reads + as a space, hex in either case, and .NET-style characters left unescaped', () => {
    expect(einvoiceUrlDecode('2026-03-01+12%3a05%3A06')).toBe('2026-03-01 12:05:06');
    expect(einvoiceUrlDecode('(!*)%e7%83%8f')).toBe('(!*)烏');
    expect(einvoiceUrlDecode(einvoiceUrlEncode('茶 & 壺 100% ~ "!"'))).toBe('茶 & 壺 100% ~ "!"');
  });

  it('refuses a broken % sequence or bytes that are not UTF-8', () => {
    expect(() => einvoiceUrlDecode('%7')).toThrow();
    expect(() => einvoiceUrlDecode('%zz')).toThrow();
    expect(() => einvoiceUrlDecode('%E7%83')).toThrow();
  });
});

describe('decryptData refusals', () => {
  it('refuses Data that is not base64, not whole blocks, from another key, or not JSON', () => {
    expect(() => decryptData('not base64!', KEY, IV)).toThrow(EinvoiceDataError);
    expect(() => decryptData('', KEY, IV)).toThrow(EinvoiceDataError);
    expect(() => decryptData('AAAA', KEY, IV)).toThrow(EinvoiceDataError);
    expect(() => decryptData(DOC_DATA_UPPER, 'AAAAAAAAAAAAAAAA', IV)).toThrow(EinvoiceDataError);
    expect(() => decryptData(encryptText('not%20json', KEY, IV), KEY, IV)).toThrow(EinvoiceDataError);
  });

  it('refuses keys that are not 16 bytes rather than cutting them', () => {
    expect(() => encryptData({}, `${KEY} `, IV)).toThrow(/16 bytes/);
  });
});

describe('envelope and reply round trip', () => {
  it('wraps a payload as ECPay reads it, and the reading side gets it back', () => {
    const body = envelope(SETTINGS, { MerchantID: MERCHANT, BarCode: '/ABC1234' }, NOW);
    expect(body).toMatchObject({
      MerchantID: MERCHANT,
      RqHeader: { Timestamp: Math.floor(NOW.getTime() / 1000), Revision: EINVOICE_REVISION },
    });
    const opened = openRequest(JSON.parse(JSON.stringify(body)), SETTINGS, NOW);
    expect(opened).toEqual({
      ok: true,
      merchantId: MERCHANT,
      payload: { MerchantID: MERCHANT, BarCode: '/ABC1234' },
    });
  });

  it('opens a successful reply to its Data', () => {
    const reply = replyEnvelope(SETTINGS, { RtnCode: 1, RtnMsg: '執行成功', IsExist: 'Y' }, NOW);
    expect(reply).toMatchObject({
      PlatformID: '',
      MerchantID: MERCHANT,
      RpHeader: { Timestamp: 1772337906 },
      TransCode: 1,
    });
    expect(openReply(reply, SETTINGS)).toEqual({
      ok: true,
      value: { RtnCode: 1, RtnMsg: '執行成功', IsExist: 'Y' },
    });
  });

  it('reads RtnCode sent as a string and a reply without PlatformID or RpHeader', () => {
    const reply = {
      MerchantID: Number(MERCHANT),
      TransCode: '1',
      TransMsg: '',
      Data: encryptData({ RtnCode: '1', RtnMsg: 'ok' }, KEY, IV),
    };
    expect(openReply(reply, SETTINGS)).toEqual({ ok: true, value: { RtnCode: 1, RtnMsg: 'ok' } });
  });

  it('refuses a reply for another merchant', () => {
    const reply = replyEnvelope({ ...SETTINGS, merchantId: '2000214' }, { RtnCode: 1, RtnMsg: '' }, NOW);
    expect(openReply(reply, SETTINGS)).toEqual({
      ok: false,
      error: { kind: 'malformed', message: '綠界回應的特店編號與本店不符' },
    });
  });

  it('refuses a reply whose Data does not open', () => {
    const wrongKey = replyEnvelope(
      { ...SETTINGS, hashKey: 'AAAAAAAAAAAAAAAA' },
      { RtnCode: 1, RtnMsg: '' },
      NOW,
    );
    expect(openReply(wrongKey, SETTINGS)).toMatchObject({ ok: false, error: { kind: 'malformed' } });
    const garbage = { ...replyEnvelope(SETTINGS, { RtnCode: 1 }, NOW), Data: 'bm90IGFlcw==' };
    expect(openReply(garbage, SETTINGS)).toMatchObject({ ok: false, error: { kind: 'malformed' } });
    const empty = { ...replyEnvelope(SETTINGS, { RtnCode: 1 }, NOW), Data: '' };
    expect(openReply(empty, SETTINGS)).toMatchObject({ ok: false, error: { kind: 'malformed' } });
    const noRtnCode = replyEnvelope(SETTINGS, { RtnMsg: 'x' }, NOW);
    expect(openReply(noRtnCode, SETTINGS)).toMatchObject({ ok: false, error: { kind: 'malformed' } });
    expect(openReply('<html>502</html>', SETTINGS)).toMatchObject({
      ok: false,
      error: { kind: 'malformed' },
    });
  });

  it('reports TransCode ≠ 1 as refused and RtnCode ≠ 1 as rejected, with their messages', () => {
    expect(openReply(refusalEnvelope(MERCHANT, 999, 'Data 無法解密', NOW), SETTINGS)).toEqual({
      ok: false,
      error: { kind: 'refused', code: 999, message: 'Data 無法解密' },
    });
    expect(openReply(replyEnvelope(SETTINGS, { RtnCode: 2000063, RtnMsg: '已作廢' }, NOW), SETTINGS)).toEqual(
      { ok: false, error: { kind: 'rejected', code: 2000063, message: '已作廢' } },
    );
    expect(
      openReply(replyEnvelope(SETTINGS, { RtnCode: 9000001, RtnMsg: '財政部維護中' }, NOW), SETTINGS),
    ).toMatchObject({ ok: false, error: { kind: 'unavailable' } });
  });

  it('openRequest refuses a wrong merchant, a stale timestamp, Data it cannot open, and a Data merchant that differs', () => {
    const good = envelope(SETTINGS, { MerchantID: MERCHANT }, NOW);
    expect(openRequest({ ...good, MerchantID: '2000214' }, SETTINGS, NOW)).toMatchObject({
      ok: false,
      transCode: 999,
      merchantId: '2000214',
    });
    expect(openRequest(good, SETTINGS, new Date(NOW.getTime() + 601_000))).toMatchObject({
      ok: false,
      transCode: 999,
    });
    expect(openRequest(good, SETTINGS, new Date(NOW.getTime() + 599_000))).toMatchObject({ ok: true });
    expect(openRequest({ ...good, Data: 'garbage' }, SETTINGS, NOW)).toMatchObject({
      ok: false,
      transCode: 999,
    });
    expect(openRequest(envelope(SETTINGS, { MerchantID: '2000214' }, NOW), SETTINGS, NOW)).toMatchObject({
      ok: false,
      transCode: 999,
    });
    expect(openRequest(envelope(SETTINGS, [1, 2], NOW), SETTINGS, NOW)).toMatchObject({ ok: false });
    expect(openRequest({ nothing: true }, SETTINGS, NOW)).toMatchObject({
      ok: false,
      transCode: 999,
      merchantId: '',
    });
  });
});

const order = (over: Partial<IssueInput> = {}): IssueInput => ({
  relateNumber: 'TW20260301001',
  lines: [
    { name: '凍頂烏龍茶 150g', quantity: 2, unitPrice: 450 },
    { name: '白瓷蓋杯', quantity: 1, unitPrice: 1200, unit: '組' },
  ],
  shippingFee: 100,
  discountTotal: 0,
  buyer: { name: '林小嵐', email: 'lan@example.com' },
  invoice: { type: 'member' },
  ...over,
});

/** ECPay's amount rules: ItemPrice × ItemCount = ItemAmount on every item, and the items add up to SalesAmount. */
function expectAmountRules(payload: {
  SalesAmount: number;
  Items: Array<{ ItemPrice: number; ItemCount: number; ItemAmount: number }>;
}) {
  for (const it of payload.Items) {
    expect(Number.isInteger(it.ItemPrice) && it.ItemPrice >= 0, JSON.stringify(it)).toBe(true);
    expect(it.ItemPrice * it.ItemCount).toBe(it.ItemAmount);
  }
  expect(payload.Items.reduce((s, it) => s + it.ItemAmount, 0)).toBe(payload.SalesAmount);
  expect(Number.isInteger(payload.SalesAmount) && payload.SalesAmount > 0).toBe(true);
}

describe('buildIssuePayload — amounts', () => {
  it('one item per line plus a 運費 line; SalesAmount is the order total, tax included', () => {
    const p = buildIssuePayload(MERCHANT, order());
    expect(p.Items).toEqual([
      {
        ItemSeq: 1,
        ItemName: '凍頂烏龍茶 150g',
        ItemCount: 2,
        ItemWord: '件',
        ItemPrice: 450,
        ItemTaxType: '1',
        ItemAmount: 900,
        ItemRemark: '',
      },
      {
        ItemSeq: 2,
        ItemName: '白瓷蓋杯',
        ItemCount: 1,
        ItemWord: '組',
        ItemPrice: 1200,
        ItemTaxType: '1',
        ItemAmount: 1200,
        ItemRemark: '',
      },
      {
        ItemSeq: 3,
        ItemName: '運費',
        ItemCount: 1,
        ItemWord: '式',
        ItemPrice: 100,
        ItemTaxType: '1',
        ItemAmount: 100,
        ItemRemark: '',
      },
    ]);
    expect(p).toMatchObject({
      MerchantID: MERCHANT,
      RelateNumber: 'TW20260301001',
      SalesAmount: 2200,
      TaxType: '1',
      InvType: '07',
      vat: '1',
      InvoiceRemark: '',
    });
    expectAmountRules(p);
  });

  it('no 運費 line when shipping is free', () => {
    const p = buildIssuePayload(MERCHANT, order({ shippingFee: 0 }));
    expect(p.Items.map((i) => i.ItemName)).toEqual(['凍頂烏龍茶 150g', '白瓷蓋杯']);
    expect(p.SalesAmount).toBe(2100);
  });

  it('spreads a discount over the goods in proportion, whole dollars, and notes it in the remark', () => {
    // 900 and 1200 share 210 as 90 and 120.
    const p = buildIssuePayload(MERCHANT, order({ discountTotal: 210 }));
    expect(p.Items.map((i) => [i.ItemName, i.ItemCount, i.ItemPrice, i.ItemAmount])).toEqual([
      ['凍頂烏龍茶 150g', 2, 405, 810],
      ['白瓷蓋杯', 1, 1080, 1080],
      ['運費', 1, 100, 100],
    ]);
    expect(p.SalesAmount).toBe(2200 - 210);
    expect(p.InvoiceRemark).toBe('已折抵優惠 210 元');
    expectAmountRules(p);
  });

  it('splits a line whose discounted amount does not divide by its quantity into two whole-price lines', () => {
    const p = buildIssuePayload(
      MERCHANT,
      order({ lines: [{ name: '高山茶', quantity: 3, unitPrice: 100 }], shippingFee: 0, discountTotal: 10 }),
    );
    expect(p.Items.map((i) => [i.ItemSeq, i.ItemName, i.ItemCount, i.ItemPrice, i.ItemAmount])).toEqual([
      [1, '高山茶', 1, 96, 96],
      [2, '高山茶', 2, 97, 194],
    ]);
    expect(p.SalesAmount).toBe(290);
    expectAmountRules(p);
  });

  it('takes a discount larger than the goods off the shipping line', () => {
    const p = buildIssuePayload(
      MERCHANT,
      order({ lines: [{ name: '試飲包', quantity: 1, unitPrice: 50 }], shippingFee: 100, discountTotal: 80 }),
    );
    expect(p.Items.map((i) => [i.ItemName, i.ItemAmount])).toEqual([
      ['試飲包', 0],
      ['運費', 70],
    ]);
    expect(p.SalesAmount).toBe(70);
    expectAmountRules(p);
  });

  it('keeps the rules for many random orders', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const lines = Array.from({ length: 1 + rand(6) }, (_, i) => ({
        name: `商品${i}`,
        quantity: 1 + rand(7),
        unitPrice: rand(3000),
      }));
      const goods = lines.reduce((s, l) => s + l.quantity * l.unitPrice, 0);
      const shippingFee = rand(3) === 0 ? 0 : 60 + rand(200);
      const discountTotal = rand(goods + shippingFee);
      if (goods + shippingFee - discountTotal <= 0) continue;
      const p = buildIssuePayload(MERCHANT, order({ lines, shippingFee, discountTotal }));
      expect(p.SalesAmount).toBe(goods + shippingFee - discountTotal);
      expectAmountRules(p);
    }
  });

  it('refuses what it cannot invoice: nothing left to pay, no lines, fractional money or quantities', () => {
    const code = (over: Partial<IssueInput>) => {
      try {
        buildIssuePayload(MERCHANT, order(over));
        return null;
      } catch (e) {
        return e instanceof EinvoiceInputError ? e.field : 'other';
      }
    };
    expect(code({ shippingFee: 0, discountTotal: 2100 })).toBe('discountTotal');
    expect(code({ lines: [] })).toBe('lines');
    expect(code({ lines: [{ name: '茶', quantity: 1.5, unitPrice: 100 }] })).toBe('lines');
    expect(code({ lines: [{ name: '茶', quantity: 1, unitPrice: 99.5 }] })).toBe('lines');
    expect(code({ shippingFee: -1 })).toBe('shippingFee');
    expect(code({ relateNumber: 'TW-2026-0301' })).toBe('relateNumber');
    expect(code({ relateNumber: 'x'.repeat(31) })).toBe('relateNumber');
    expect(code({ buyer: { name: '林', email: 'not-an-email' } })).toBe('buyer.email');
  });

  it('cuts long names to ECPay’s lengths by character, not inside one', () => {
    const p = buildIssuePayload(
      MERCHANT,
      order({ lines: [{ name: '茶'.repeat(150), quantity: 1, unitPrice: 100, unit: '大盒裝禮盒組合' }] }),
    );
    expect(Array.from(p.Items[0]!.ItemName)).toHaveLength(100);
    expect(p.Items[0]!.ItemWord).toBe('大盒裝禮盒組');
  });
});

describe('buildIssuePayload — invoice choices', () => {
  it('member carrier: CarrierType 1, no CarrierNum (ECPay files it under the e-mail), not printed', () => {
    expect(buildIssuePayload(MERCHANT, order())).toMatchObject({
      CarrierType: '1',
      CarrierNum: '',
      Print: '0',
      Donation: '0',
      LoveCode: '',
      CustomerIdentifier: '',
      CustomerEmail: 'lan@example.com',
      CustomerName: '林小嵐',
    });
  });

  it('mobile barcode: CarrierType 3 with the barcode normalised (full-width, lower case)', () => {
    expect(
      buildIssuePayload(MERCHANT, order({ invoice: { type: 'mobile', barcode: ' ／ａｂｃ+1.2 ' } })),
    ).toMatchObject({ CarrierType: '3', CarrierNum: '/ABC+1.2', Print: '0', Donation: '0' });
    expect(() =>
      buildIssuePayload(MERCHANT, order({ invoice: { type: 'mobile', barcode: '/ABC12' } })),
    ).toThrow(EinvoiceInputError);
  });

  it('citizen certificate: CarrierType 2 with the 16-character number', () => {
    expect(
      buildIssuePayload(
        MERCHANT,
        order({ invoice: { type: 'certificate', certificate: 'ab12345678901234' } }),
      ),
    ).toMatchObject({ CarrierType: '2', CarrierNum: 'AB12345678901234', Print: '0' });
    expect(() =>
      buildIssuePayload(MERCHANT, order({ invoice: { type: 'certificate', certificate: 'A123456789' } })),
    ).toThrow(EinvoiceInputError);
  });

  it('donation: Donation 1 with the love code, no carrier, not printed', () => {
    expect(
      buildIssuePayload(MERCHANT, order({ invoice: { type: 'donation', loveCode: '919' } })),
    ).toMatchObject({
      Donation: '1',
      LoveCode: '919',
      CarrierType: '',
      CarrierNum: '',
      Print: '0',
      CustomerIdentifier: '',
    });
    expect(() =>
      buildIssuePayload(MERCHANT, order({ invoice: { type: 'donation', loveCode: '12' } })),
    ).toThrow(EinvoiceInputError);
  });

  it('company: the 統一編號 and title, printed (Print 1), with the address ECPay requires for printing', () => {
    const p = buildIssuePayload(
      MERCHANT,
      order({
        buyer: { name: '林小嵐', email: 'lan@example.com', address: '臺北市中正區重慶南路一段 122 號' },
        invoice: { type: 'company', taxId: '22099131', title: '台灣積體電路製造股份有限公司' },
      }),
    );
    expect(p).toMatchObject({
      CustomerIdentifier: '22099131',
      CustomerName: '台灣積體電路製造股份有限公司',
      CustomerAddr: '臺北市中正區重慶南路一段 122 號',
      Print: '1',
      Donation: '0',
      CarrierType: '',
      CarrierNum: '',
    });
    expectAmountRules(p);
  });

  it('company: refuses a bad check digit and a missing address', () => {
    expect(() =>
      buildIssuePayload(
        MERCHANT,
        order({
          buyer: { name: 'x', email: 'a@b.tw', address: '臺北市' },
          invoice: { type: 'company', taxId: '22099132', title: '某公司' },
        }),
      ),
    ).toThrow(/統一編號/);
    expect(() =>
      buildIssuePayload(
        MERCHANT,
        order({ invoice: { type: 'company', taxId: '22099131', title: '某公司' } }),
      ),
    ).toThrow(/地址/);
  });
});

describe('other payloads', () => {
  it('Invalid takes the day of the invoice date and a reason of at most 20 characters', () => {
    expect(
      buildInvalidPayload(MERCHANT, {
        invoiceNo: 'AB12345678',
        invoiceDate: '2026-03-01 12:05:06',
        reason: '訂單取消',
      }),
    ).toEqual({
      MerchantID: MERCHANT,
      InvoiceNo: 'AB12345678',
      InvoiceDate: '2026-03-01',
      Reason: '訂單取消',
    });
    expect(
      buildInvalidPayload(MERCHANT, {
        invoiceNo: 'AB12345678',
        invoiceDate: '2026-03-01',
        reason: '退'.repeat(30),
      }).Reason,
    ).toHaveLength(20);
    expect(() =>
      buildInvalidPayload(MERCHANT, { invoiceNo: 'AB1234567', invoiceDate: '2026-03-01', reason: 'x' }),
    ).toThrow(EinvoiceInputError);
    expect(() =>
      buildInvalidPayload(MERCHANT, { invoiceNo: 'AB12345678', invoiceDate: '2026/03/01', reason: 'x' }),
    ).toThrow(EinvoiceInputError);
  });

  it('Allowance: the amount is the sum of its items; notice by e-mail when there is an address', () => {
    const p = buildAllowancePayload(MERCHANT, {
      invoiceNo: 'AB12345678',
      invoiceDate: '2026-03-01 12:05:06',
      lines: [{ name: '凍頂烏龍茶 150g', quantity: 1, unitPrice: 450 }, refundLine(50)],
      notifyEmail: 'lan@example.com',
      customerName: '林小嵐',
    });
    expect(p).toMatchObject({
      InvoiceNo: 'AB12345678',
      InvoiceDate: '2026-03-01',
      AllowanceNotify: 'E',
      NotifyMail: 'lan@example.com',
      CustomerName: '林小嵐',
      AllowanceAmount: 500,
    });
    expect(p.Items.map((i) => [i.ItemSeq, i.ItemName, i.ItemAmount])).toEqual([
      [1, '凍頂烏龍茶 150g', 450],
      [2, '退款折讓', 50],
    ]);
    expect(
      buildAllowancePayload(MERCHANT, {
        invoiceNo: 'AB12345678',
        invoiceDate: '2026-03-01',
        lines: [refundLine(10)],
      }),
    ).toMatchObject({ AllowanceNotify: 'N', NotifyMail: '' });
  });

  it('AllowanceByCollegiate (online consent): notice by e-mail to the buyer, who must be given, and a ReturnURL of at most 200 characters', () => {
    const p = buildOnlineAllowancePayload(MERCHANT, {
      invoiceNo: 'AB12345678',
      invoiceDate: '2026-03-01 12:05:06',
      lines: [refundLine(480)],
      notifyEmail: ' lan@example.com ',
      customerName: '林小嵐',
      returnUrl: 'https://shop.example/api/invoices/ecpay/allowance-result',
    });
    expect(p).toMatchObject({
      InvoiceNo: 'AB12345678',
      InvoiceDate: '2026-03-01',
      AllowanceNotify: 'E',
      NotifyMail: 'lan@example.com',
      CustomerName: '林小嵐',
      AllowanceAmount: 480,
      ReturnURL: 'https://shop.example/api/invoices/ecpay/allowance-result',
    });
    expect(() =>
      buildOnlineAllowancePayload(MERCHANT, {
        invoiceNo: 'AB12345678',
        invoiceDate: '2026-03-01',
        lines: [refundLine(1)],
        notifyEmail: '',
        returnUrl: 'https://shop.example/r',
      }),
    ).toThrow(EinvoiceInputError);
    expect(() =>
      buildOnlineAllowancePayload(MERCHANT, {
        invoiceNo: 'AB12345678',
        invoiceDate: '2026-03-01',
        lines: [refundLine(1)],
        notifyEmail: 'lan@example.com',
        returnUrl: `https://shop.example/${'r'.repeat(200)}`,
      }),
    ).toThrow(EinvoiceInputError);
  });

  it("reads the online-allowance notice by its CheckMacValue (MD5): ECPay's documented example (?p=38242), and refuses it altered", () => {
    // The worked example of ECPay's 檢查碼機制 appendix, with the stage keys.
    const documented = {
      RtnCode: '1',
      RtnMsg: '',
      IA_Allow_No: '1909181313013546',
      IA_Invoice_No: 'UV11100019',
      IA_Date: '2019-09-18 13:13:23',
      IIS_Remain_Allowance_Amt: '0',
    };
    const form = allowanceNoticeForm(documented, { hashKey: KEY, hashIV: IV });
    expect(form.CheckMacValue).toBe('50A276E71DAE26343013958B405EEEA0');
    expect(
      readAllowanceNotice(
        { ...documented, CheckMacValue: '50A276E71DAE26343013958B405EEEA0' },
        { hashKey: KEY, hashIV: IV },
      ),
    ).toEqual({
      agreed: true,
      message: '',
      allowanceNo: '1909181313013546',
      invoiceNo: 'UV11100019',
      date: '2019-09-18 13:13:23',
      remainingAmount: 0,
    });
    expect(
      readAllowanceNotice({ ...form, IA_Allow_No: '1909181313013547' }, { hashKey: KEY, hashIV: IV }),
    ).toBeNull();
    const { IA_Date: _missing, ...partial } = form;
    expect(readAllowanceNotice(partial, { hashKey: KEY, hashIV: IV })).toBeNull();
  });

  it('AllowanceInvalid, GetIssue and the checks', () => {
    expect(
      buildAllowanceInvalidPayload(MERCHANT, {
        invoiceNo: 'AB12345678',
        allowanceNo: '2026030112050612',
        reason: '重開',
      }),
    ).toEqual({
      MerchantID: MERCHANT,
      InvoiceNo: 'AB12345678',
      AllowanceNo: '2026030112050612',
      Reason: '重開',
    });
    expect(() =>
      buildAllowanceInvalidPayload(MERCHANT, { invoiceNo: 'AB12345678', allowanceNo: '123', reason: '重開' }),
    ).toThrow(EinvoiceInputError);
    expect(buildGetIssuePayload(MERCHANT, { relateNumber: 'TW1' })).toEqual({
      MerchantID: MERCHANT,
      RelateNumber: 'TW1',
    });
    expect(
      buildGetIssuePayload(MERCHANT, { invoiceNo: 'AB12345678', invoiceDate: '2026-03-01 12:05:06' }),
    ).toEqual({ MerchantID: MERCHANT, InvoiceNo: 'AB12345678', InvoiceDate: '2026-03-01' });
    expect(buildCheckBarcodePayload(MERCHANT, '/abc1234')).toEqual({
      MerchantID: MERCHANT,
      BarCode: '/ABC1234',
    });
    expect(buildCheckLoveCodePayload(MERCHANT, ' 168001 ')).toEqual({
      MerchantID: MERCHANT,
      LoveCode: '168001',
    });
  });
});

describe('spreadDiscount / invoiceItems', () => {
  it('shares a discount by largest remainder and never below zero', () => {
    // 33⅓ each: the one dollar left goes to the first line on the tie.
    expect(spreadDiscount([100, 100, 100], 100)).toEqual([66, 67, 67]);
    // Half a dollar each on a tie: the first line takes it.
    expect(spreadDiscount([1, 999], 500)).toEqual([0, 500]);
    expect(spreadDiscount([3, 997], 500)).toEqual([1, 499]);
    expect(spreadDiscount([50, 50], 100)).toEqual([0, 0]);
    expect(spreadDiscount([50, 50], 0)).toEqual([50, 50]);
  });

  it('gives every item the same ItemTaxType 1 and numbers them from 1', () => {
    const { items } = invoiceItems({
      lines: [{ name: 'a', quantity: 5, unitPrice: 3 }],
      shippingFee: 60,
      discountTotal: 1,
    });
    expect(items.map((i) => [i.ItemSeq, i.ItemTaxType])).toEqual([
      [1, '1'],
      [2, '1'],
      [3, '1'],
    ]);
  });
});

describe('validators', () => {
  it('mobile barcode: "/" and 7 of 0-9 A-Z . + -', () => {
    for (const ok of ['/ABC1234', '/+-.0000', '/0000000']) expect(isMobileBarcode(ok), ok).toBe(true);
    for (const bad of ['ABC12345', '/abc1234', '/ABC123', '/ABC12345', '/ABC_123'])
      expect(isMobileBarcode(bad), bad).toBe(false);
  });

  it('love code: 3 to 7 digits, a leading zero allowed', () => {
    for (const ok of ['919', '168001', '0001234', '5299']) expect(isLoveCode(ok), ok).toBe(true);
    for (const bad of ['12', '12345678', 'X919', '91 9']) expect(isLoveCode(bad), bad).toBe(false);
  });

  it('citizen certificate: 2 upper-case letters and 14 digits', () => {
    expect(isCitizenCertificate('AB12345678901234')).toBe(true);
    for (const bad of ['ab12345678901234', 'AB1234567890123', 'A123456789012345', 'AB123456789012345'])
      expect(isCitizenCertificate(bad), bad).toBe(false);
  });

  it('統一編號: the weighted check digit, divisible by 5 since 2023, the 7th-digit-7 allowance', () => {
    expect(isTaxId('22099131')).toBe(true); // sum 30
    expect(isTaxId('22099136')).toBe(true); // sum 35: valid only under the 2023 rule
    expect(isTaxId('10458574')).toBe(true); // 7th digit 7: 29 + 1
    expect(isTaxId('22099132')).toBe(false);
    expect(isTaxId('2209913')).toBe(false);
  });

  it('invoice numbers and RelateNumber', () => {
    expect(isInvoiceNo('AB12345678')).toBe(true);
    expect(isInvoiceNo('Ab12345678')).toBe(false);
    expect(isRelateNumber('TW20260301001')).toBe(true);
    expect(isRelateNumber('TW-1')).toBe(false);
    expect(isRelateNumber('')).toBe(false);
  });
});

describe('fetchPost (the production post)', () => {
  it('posts JSON and resolves with the parsed answer; a non-JSON answer resolves as its text', async () => {
    const seen: Array<{ url: string; init: RequestInit | undefined }> = [];
    const fake = (answer: Response) =>
      (async (url: string | URL | Request, init?: RequestInit) => {
        seen.push({ url: String(url), init });
        return answer;
      }) as typeof fetch;
    const json = await fetchPost({ fetchImpl: fake(new Response('{"TransCode":1}', { status: 200 })) })(
      'https://einvoice-stage.ecpay.com.tw/B2CInvoice/Issue',
      { a: 1 },
    );
    expect(json).toEqual({ TransCode: 1 });
    expect(seen[0]).toMatchObject({
      url: 'https://einvoice-stage.ecpay.com.tw/B2CInvoice/Issue',
      init: { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } },
    });
    expect(
      await fetchPost({ fetchImpl: fake(new Response('<html>維護中</html>', { status: 200 })) })('u', {}),
    ).toBe('<html>維護中</html>');
  });

  it('throws EinvoiceHttpError on a status other than 2xx; the client reports the status as unavailable', async () => {
    const failing = (async () => new Response('busy', { status: 502 })) as unknown as typeof fetch;
    await expect(fetchPost({ fetchImpl: failing })('u', {})).rejects.toBeInstanceOf(EinvoiceHttpError);
    const res = await invoiceClient(SETTINGS, fetchPost({ fetchImpl: failing })).checkLoveCode('919');
    expect(res).toEqual({
      ok: false,
      error: { kind: 'unavailable', message: '電子發票服務暫時無法連線', status: 502 },
    });
  });

  it('an HTML page with status 200 is malformed, not a success', async () => {
    const html = (async () => new Response('<html>502</html>', { status: 200 })) as unknown as typeof fetch;
    expect(await invoiceClient(SETTINGS, fetchPost({ fetchImpl: html })).checkLoveCode('919')).toMatchObject({
      ok: false,
      error: { kind: 'malformed' },
    });
  });

  it('a key that is not 16 bytes is a misconfiguration and throws', async () => {
    await expect(
      invoiceClient({ ...SETTINGS, hashKey: 'short' }, async () => ({})).checkLoveCode('919'),
    ).rejects.toThrow(/16 bytes/);
  });
});
