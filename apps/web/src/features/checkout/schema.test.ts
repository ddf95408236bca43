import { describe, expect, it } from 'vitest';
import { CheckoutForm, EMPTY_CHECKOUT, formFieldOf, toPlaceOrderBody } from './schema.ts';

const home = {
  ...EMPTY_CHECKOUT,
  recipientName: '林小嵐',
  phone: '0912-345-678',
  city: '南投縣',
  district: '鹿谷鄉',
  address: '興產路 87 號',
};
const errors = (v: unknown) => {
  const r = CheckoutForm.safeParse(v);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('checkout form', () => {
  it('accepts a complete home delivery and maps it to the API body', () => {
    expect(errors(home)).toEqual({});
    expect(toPlaceOrderBody(home, 'k'.repeat(20))).toEqual({
      idempotencyKey: 'k'.repeat(20),
      shipping: {
        method: 'home',
        recipientName: '林小嵐',
        phone: '0912345678',
        city: '南投縣',
        district: '鹿谷鄉',
        address: '興產路 87 號',
      },
      invoice: { type: 'member' },
      paymentMethod: 'credit_card',
    });
  });
  it('names each missing or wrong field in zh-TW', () => {
    expect(errors({ ...EMPTY_CHECKOUT })).toMatchObject({
      recipientName: '收件人姓名為必填欄位',
      phone: '手機號碼為必填欄位',
      city: '請選擇縣市',
      district: '請選擇鄉鎮市區',
      address: '地址為必填欄位',
    });
    expect(errors({ ...home, phone: '0212345678' }).phone).toContain('09 開頭');
    expect(errors({ ...home, district: '信義區' }).district).toBe('請選擇正確的鄉鎮市區');
  });
  it('takes only receiver names the carriers take, as they are typed', () => {
    expect(
      errors({ ...home, shippingMethod: 'cvs', storeId: '123456', recipientName: '歐陽小明 先生' })
        .recipientName,
    ).toBe('超商取件人姓名須為 2–5 個中文字或 4–10 個英文字母，不可含空白、稱謂或符號');
    expect(errors({ ...home, recipientName: 'Lin 1' }).recipientName).toBe(
      '收件人姓名須為 2–5 個中文字或 4–10 個英文字母，不可含空白、稱謂或符號',
    );
    expect(errors({ ...home, shippingMethod: 'cvs', storeId: '123456', recipientName: '歐陽小明' })).toEqual(
      {},
    );
    expect(errors({ ...home, recipientName: 'Annie' })).toEqual({});
  });
  it('checks the store and invoice carriers, and takes cash at store pickup', () => {
    expect(errors({ ...home, shippingMethod: 'cvs' }).storeId).toBe('請選擇取貨門市');
    expect(errors({ ...home, shippingMethod: 'cvs', storeId: '123456', paymentMethod: 'cod' })).toEqual({});
    expect(errors({ ...home, invoiceType: 'mobile', mobileBarcode: '/abc' }).mobileBarcode).toBeTruthy();
    expect(errors({ ...home, invoiceType: 'mobile', mobileBarcode: '/ab12.+-' })).toEqual({});
    expect(errors({ ...home, invoiceType: 'certificate', certificate: 'AB123456789012' }).certificate).toBe(
      '自然人憑證條碼格式不正確：2 碼英文字母加上 14 碼數字',
    );
    expect(errors({ ...home, invoiceType: 'certificate', certificate: '' }).certificate).toBe(
      '自然人憑證條碼格式不正確：2 碼英文字母加上 14 碼數字',
    );
    expect(errors({ ...home, invoiceType: 'certificate', certificate: ' ab12345678901234 ' })).toEqual({});
    expect(
      toPlaceOrderBody(
        { ...home, invoiceType: 'certificate', certificate: ' ab12345678901234 ', mobileBarcode: '/ABC1234' },
        'k'.repeat(20),
      ).invoice,
    ).toEqual({ type: 'certificate', certificate: 'AB12345678901234' });
    expect(errors({ ...home, invoiceType: 'company', taxId: '12345678', companyTitle: '' })).toMatchObject({
      taxId: '統一編號的檢查碼不符，請對照發票或營業登記再確認一次',
      companyTitle: '公司抬頭為必填欄位',
    });
  });
  it('maps server field paths to form fields', () => {
    expect(formFieldOf('shipping.phone')).toBe('phone');
    expect(formFieldOf('invoice.taxId')).toBe('taxId');
    expect(formFieldOf('invoice.certificate')).toBe('certificate');
    expect(formFieldOf('shipping')).toBeNull();
  });
});
