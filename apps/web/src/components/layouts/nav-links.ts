import { paths } from '../../config/paths.ts';

/** Main navigation: public pages and the mall. */
export const MAIN_NAV = [
  { to: paths.home(), label: '關於山嵐' },
  { to: paths.master(), label: '茶師介紹' },
  { to: paths.mall(), label: '線上商城' },
  { to: paths.media(), label: '媒體報導' },
  { to: paths.faq(), label: '常見問題' },
  { to: paths.contact(), label: '聯絡我們' },
] as const;

export const FOOTER_NAV = [
  {
    title: '購物說明',
    links: [
      { to: paths.shipping(), label: '購物與配送須知' },
      { to: paths.shippingFee(), label: '運費說明' },
      { to: paths.transport(), label: '運送方式' },
      { to: paths.faq(), label: '常見問題' },
      { to: paths.contact(), label: '聯絡我們' },
    ],
  },
  {
    title: '關於我們',
    links: [
      { to: paths.home(), label: '關於山嵐' },
      { to: paths.team(), label: '團隊介紹' },
      { to: paths.jobs(), label: '人才招募' },
      { to: paths.media(), label: '媒體報導' },
    ],
  },
  {
    title: '資源與權利',
    links: [
      { to: paths.download(), label: '檔案下載' },
      { to: paths.patentsAndTrademarks(), label: '專利與商標' },
      { to: paths.serviceTerms(), label: '服務條款' },
      { to: paths.privacyPolicy(), label: '隱私權政策' },
    ],
  },
] as const;
