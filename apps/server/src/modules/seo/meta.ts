import { matchRoute, NOT_FOUND_TITLE, ROUTES, type RouteDef, type RouteId } from '@shop/shared/routes';
import { BRAND } from '@shop/shared/brand';
import { objectUrl, variantName } from '@shop/shared/storage-paths';
import type { DbOrTx } from '../../db/client.ts';
import { activeProductWithVariants } from '../catalog/service.ts';
import { lookupRedirect } from '../redirects/service.ts';

export interface PageMeta {
  title: string;
  description: string;
  url: string;
  image: string | null;
  type: 'website' | 'product';
  jsonLd: unknown[];
  /** No page is there (a path no route owns, a product that is not on sale): the shell answers 404. */
  notFound?: boolean;
}

/** What each public page is about, for search results and link previews. */
const DESCRIPTIONS: Partial<Record<RouteId, string>> = {
  landing:
    '山嵐茶事：1987 年創立於南投鹿谷的家族茶行，炭火慢焙高山烏龍、凍頂烏龍與紅茶，宅配與超商取貨到府。',
  home: '認識山嵐茶事：三代人守著鹿谷的茶園與焙籠，從採摘、萎凋到炭焙都在自家茶廠完成。',
  shipping: '購物與配送須知：付款方式、運費、出貨時間、電子發票與退換貨說明。',
  shippingFee: '運費說明：宅配與超商取貨的運費、免運門檻、離島加收與貨到付款手續費。',
  transport: '運送方式：黑貓宅急便宅配到府與四大超商取貨，出貨與到貨時間、離島配送說明。',
  contact: '聯絡山嵐茶事客服：訂單、商品、企業採購與應徵，週一至週五 09:00–18:00。',
  patentsAndTrademarks: '山嵐茶事的專利與商標：分段炭焙方法、專利冷泡瓶與品牌商標。',
  master: '山嵐茶事的茶師：焙茶、評茶與茶藝教學的師傅們。',
  faq: '常見問題：訂購付款、配送取貨、退換貨、會員優惠與茶葉沖泡。',
  team: '山嵐茶事團隊：負責網路商店、焙茶室與品茶室的夥伴們。',
  jobs: '山嵐茶事人才招募：焙茶學徒、客服、品茶室與行銷職缺。',
  media: '媒體報導：山嵐茶事的報導與影片。',
  download: '檔案下載：茶品型錄、沖泡指南與檢驗報告。',
  serviceTerms: '山嵐茶事服務條款。',
  privacyPolicy: '山嵐茶事隱私權政策：依個人資料保護法說明蒐集、利用與您的權利。',
  mall: '山嵐茶事線上商城：高山烏龍、炭焙烏龍、紅茶、冷泡茶包、茶器與禮盒。',
};

export function organizationLd(publicUrl: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: BRAND.name,
    alternateName: BRAND.nameLatin,
    url: publicUrl,
    logo: `${publicUrl}/favicon.svg`,
    foundingDate: String(BRAND.founded),
    email: BRAND.email,
    telephone: BRAND.phone,
    address: { '@type': 'PostalAddress', streetAddress: BRAND.address, addressCountry: 'TW' },
  };
}

/**
 * Title, description, Open Graph and JSON-LD for a path, filled into the SPA shell by the server so
 * crawlers and link previews see them. Products are looked up (one query for the product, one for
 * its variants); an unknown path or a product not on sale (and not redirected) is 「找不到頁面」 with `notFound`.
 */
export async function pageMeta(db: DbOrTx, publicUrl: string, pathname: string): Promise<PageMeta> {
  const match = matchRoute(pathname);
  // Static routes match case-insensitively and with a trailing slash: name the route's own path.
  const url = `${publicUrl}${match && !match.route.path.includes(':') ? match.route.path : pathname}`;
  const base: PageMeta = {
    title: `${BRAND.name}｜${BRAND.tagline}`,
    description: DESCRIPTIONS.landing!,
    url,
    image: null,
    type: 'website',
    jsonLd: [organizationLd(publicUrl)],
  };
  const notFound: PageMeta = { ...base, title: `${NOT_FOUND_TITLE}｜${BRAND.name}`, notFound: true };
  if (!match) return notFound;
  const id = match.route.id as RouteId;
  if (id === 'product' && match.params.productId) {
    const found = await activeProductWithVariants(db, match.params.productId);
    if (found) {
      const p = found.product;
      const variants = found.variants;
      const cover = p.images[0];
      const image = cover ? `${publicUrl}${objectUrl(cover.bucket, variantName(cover.name, 1280))}` : null;
      const prices = variants.map((v) => v.price);
      const inStock = variants.some((v) => v.stock > 0);
      return {
        title: `${p.name}｜${BRAND.name}`,
        description: p.summary,
        url: `${publicUrl}/mall/${encodeURIComponent(p.slug)}`,
        image,
        type: 'product',
        jsonLd: [
          organizationLd(publicUrl),
          {
            '@context': 'https://schema.org',
            '@type': 'Product',
            name: p.name,
            description: p.summary,
            ...(image ? { image } : {}),
            sku: variants[0]?.sku,
            brand: { '@type': 'Brand', name: BRAND.name },
            offers: {
              '@type': 'AggregateOffer',
              priceCurrency: 'TWD',
              lowPrice: Math.min(...prices),
              highPrice: Math.max(...prices),
              offerCount: variants.length,
              availability: inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
              url: `${publicUrl}/mall/${encodeURIComponent(p.slug)}`,
            },
          },
        ],
      };
    }
    // Not on sale: 404, unless it is an old address the owner redirected (the app follows it there).
    if (!(await lookupRedirect(db, pathname))) return notFound;
  }
  if (id === 'landing') return base;
  return {
    ...base,
    title: `${match.route.title}｜${BRAND.name}`,
    description: DESCRIPTIONS[id] ?? base.description,
  };
}

/** Public pages worth listing in the sitemap (sign-in forms and result pages are not). */
export const SITEMAP_ROUTES = (ROUTES as readonly RouteDef[]).filter(
  (r) =>
    r.access === 'public' &&
    !r.path.includes(':') &&
    !r.guestOnly &&
    !['register', 'resetPasswordSuccess', 'emailVerification', 'payComplete', 'maintenance'].includes(r.id),
);
