import { BRAND } from '@shop/shared/brand';
import type { Tx } from '../db/client.ts';
import { saveFooter } from '../modules/site/storefront.ts';

/**
 * The demo shop's footer facts. The 統一編號 is made up but passes the check-digit rule; the LINE and
 * Facebook addresses are the brand's made-up accounts. No measurement IDs: a demo shop sends nothing
 * to anyone, and without providers no consent banner is needed (docs/decisions/042).
 */
export async function seedStorefront(tx: Tx): Promise<string> {
  await saveFooter(tx, {
    companyName: '山嵐茶事有限公司',
    taxId: '87119873',
    address: BRAND.address,
    phone: BRAND.phone,
    lineUrl: 'https://lin.ee/shanlantea',
    facebookUrl: 'https://www.facebook.com/shanlantea',
    marks: [
      'visa',
      'mastercard',
      'jcb',
      'atm',
      'cod',
      'seven-eleven',
      'family-mart',
      'hi-life',
      'ok-mart',
      't-cat',
    ],
  });
  return '頁尾公司資訊';
}
