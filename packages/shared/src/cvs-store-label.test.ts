import { describe, expect, it } from 'vitest';
import { cvsStoreLabel } from './checkout.ts';

/** Issue 18: store pickup said the chain twice (「全家 全家 竹山大智店」). */
describe('cvsStoreLabel: a pickup store names its chain once', () => {
  it('keeps a store name that already starts with its chain as it is', () => {
    expect(cvsStoreLabel('FAMILY', '全家 竹山大智店')).toBe('全家 竹山大智店');
    expect(cvsStoreLabel('FAMILY', '全家竹山大智店')).toBe('全家竹山大智店');
    expect(cvsStoreLabel('HILIFE', '萊爾富 鹿谷店')).toBe('萊爾富 鹿谷店');
    expect(cvsStoreLabel('OK', 'OK 草屯中正店')).toBe('OK 草屯中正店');
    expect(cvsStoreLabel('7-ELEVEN', '統一超商 鹿谷門市')).toBe('統一超商 鹿谷門市');
    expect(cvsStoreLabel('7-ELEVEN', '7-eleven 鹿谷門市')).toBe('7-eleven 鹿谷門市');
  });

  it('puts the chain before a store name that does not say it', () => {
    expect(cvsStoreLabel('7-ELEVEN', '鹿谷門市')).toBe('7-ELEVEN 鹿谷門市');
    expect(cvsStoreLabel('FAMILY', '竹山大智店')).toBe('全家 竹山大智店');
    expect(cvsStoreLabel('OK', '草屯中正店')).toBe('OK超商 草屯中正店');
  });

  it('says what it can without a name or a known chain', () => {
    expect(cvsStoreLabel('FAMILY', null)).toBe('全家');
    expect(cvsStoreLabel('FAMILY', '  全家 竹山大智店  ')).toBe('全家 竹山大智店');
    expect(cvsStoreLabel(null, '某某門市')).toBe('某某門市');
  });
});
