import { TW_CITIES, isOutlying, normalizeTwPlaceName } from '@shop/shared/data/tw-districts';

/**
 * The sandbox store map's convenience stores: what its map page searches, and what it posts back
 * as the chosen store. Only the sandbox (never production) offers them; the shop itself knows a
 * store only once a map has named it (../repo.ts).
 *
 * The demo stores look real but are fictional: names, ids and street numbers are made up (roads are
 * real road names of each district). Each brand keeps one naming style: 7-ELEVEN 「鹿谷門市」,
 * 全家 「全家 鹿谷興產店」, 萊爾富 「萊爾富 竹山延平店」, OK 「OK 草屯中正店」.
 */

export type CvsBrand = '7-ELEVEN' | 'FAMILY' | 'HILIFE' | 'OK';

export const CVS_BRAND_LABELS: Record<CvsBrand, string> = {
  '7-ELEVEN': '7-ELEVEN',
  FAMILY: '全家',
  HILIFE: '萊爾富',
  OK: 'OK超商',
};

export interface CvsStore {
  readonly brand: CvsBrand;
  readonly id: string;
  readonly name: string;
  readonly address: string;
  readonly city: string;
  readonly district: string;
  /** The store's telephone, as ECPay's CVSTelephone. */
  readonly phone: string;
  /** On an outlying island (ECPay's CVSOutSide 1). */
  readonly outlying: boolean;
}

export interface StoreLocator {
  /** Stores of a brand whose name, address, city or district contains the query (case-insensitive); at most `limit`, ordered by city then name. */
  search(brand: CvsBrand, query: string, limit?: number): Promise<CvsStore[]>;
  find(brand: CvsBrand, id: string): Promise<CvsStore | null>;
}

export const DEFAULT_STORE_SEARCH_LIMIT = 20;

type Row = readonly [id: string, name: string, city: string, district: string, street: string];

/** Area code and local-number length by city (臺北 02-2xxx xxxx, 南投 049-2xx xxxx, 金門 082-3x xxxx…). */
const AREA: Record<string, readonly [string, number]> = {
  臺北市: ['02', 8],
  新北市: ['02', 8],
  基隆市: ['02', 8],
  桃園市: ['03', 7],
  新竹市: ['03', 7],
  新竹縣: ['03', 7],
  宜蘭縣: ['03', 7],
  花蓮縣: ['03', 7],
  苗栗縣: ['037', 6],
  臺中市: ['04', 8],
  彰化縣: ['04', 7],
  南投縣: ['049', 7],
  雲林縣: ['05', 7],
  嘉義市: ['05', 7],
  嘉義縣: ['05', 7],
  臺南市: ['06', 7],
  澎湖縣: ['06', 7],
  高雄市: ['07', 7],
  屏東縣: ['08', 7],
  臺東縣: ['089', 6],
  金門縣: ['082', 6],
  連江縣: ['0836', 5],
};

/** A made-up but well-formed store telephone, the same every time for a store. */
export function demoStorePhone(city: string, id: string): string {
  const [area, length] = AREA[city] ?? ['02', 8];
  let n = 0;
  for (const ch of `${city}${id}`) n = (n * 131 + ch.codePointAt(0)!) % 1_000_000_007;
  const digits = String(n).padStart(length, '0').slice(-length);
  return `${area}-${String(2 + (n % 8))}${digits.slice(1)}`;
}

const stores = (brand: CvsBrand, rows: readonly Row[]): CvsStore[] =>
  rows.map(([id, name, city, district, street]) => ({
    brand,
    id,
    name,
    address: `${city}${district}${street}`,
    city,
    district,
    phone: demoStorePhone(city, id),
    outlying: isOutlying(city, district),
  }));

export const DEMO_STORES: readonly CvsStore[] = [
  // 7-ELEVEN: 6-digit 店號, 「xx門市」.
  ...stores('7-ELEVEN', [
    ['158703', '鹿谷門市', '南投縣', '鹿谷鄉', '中正路二段 123 號'],
    ['162415', '竹山門市', '南投縣', '竹山鎮', '集山路三段 268 號'],
    ['174328', '前山門市', '南投縣', '竹山鎮', '前山路一段 56 號'],
    ['131596', '草屯門市', '南投縣', '草屯鎮', '中正路 601 號'],
    ['145027', '埔里門市', '南投縣', '埔里鎮', '中山路二段 212 號'],
    ['100382', '公園門市', '臺北市', '中正區', '公園路 30 號'],
    ['118254', '松仁門市', '臺北市', '信義區', '松仁路 95 號'],
    ['126743', '復興南門市', '臺北市', '大安區', '復興南路一段 320 號'],
    ['139160', '士林門市', '臺北市', '士林區', '中正路 218 號'],
    ['182604', '板橋門市', '新北市', '板橋區', '文化路一段 188 號'],
    ['193417', '永和門市', '新北市', '永和區', '永和路二段 57 號'],
    ['167935', '淡水門市', '新北市', '淡水區', '中正路 112 號'],
    ['151872', '光復門市', '新竹市', '東區', '光復路二段 101 號'],
    ['176590', '中壢門市', '桃園市', '中壢區', '中正路 420 號'],
    ['108846', '桃園門市', '桃園市', '桃園區', '中正路 1086 號'],
    ['185213', '西屯門市', '臺中市', '西屯區', '臺灣大道三段 550 號'],
    ['197638', '逢甲門市', '臺中市', '西屯區', '文華路 120 號'],
    ['112579', '豐原門市', '臺中市', '豐原區', '中正路 245 號'],
    ['143385', '成大門市', '臺南市', '東區', '大學路 22 號'],
    ['160724', '安平門市', '臺南市', '安平區', '安平路 410 號'],
    ['128091', '苓雅門市', '高雄市', '苓雅區', '四維三路 6 號'],
    ['171446', '鳳山門市', '高雄市', '鳳山區', '光遠路 166 號'],
    ['134958', '花蓮門市', '花蓮縣', '花蓮市', '中山路 315 號'],
    ['189362', '馬公門市', '澎湖縣', '馬公市', '中正路 38 號'],
    ['156217', '金城門市', '金門縣', '金城鎮', '民生路 20 號'],
  ]),
  // 全家: 6-digit 店號 starting with 0, 「全家 xx店」.
  ...stores('FAMILY', [
    ['013542', '全家 鹿谷興產店', '南投縣', '鹿谷鄉', '興產路 15 號'],
    ['006871', '全家 竹山集山店', '南投縣', '竹山鎮', '集山路二段 150 號'],
    ['018234', '全家 竹山大智店', '南投縣', '竹山鎮', '大智路 85 號'],
    ['011976', '全家 草屯太平店', '南投縣', '草屯鎮', '太平路一段 300 號'],
    ['015308', '全家 埔里南昌店', '南投縣', '埔里鎮', '南昌街 211 號'],
    ['009413', '全家 南投中興店', '南投縣', '南投市', '中興路 650 號'],
    ['017659', '全家 集集民生店', '南投縣', '集集鎮', '民生路 70 號'],
    ['002187', '全家 信義松高店', '臺北市', '信義區', '松高路 12 號'],
    ['004520', '全家 中山南京店', '臺北市', '中山區', '南京東路二段 99 號'],
    ['007764', '全家 內湖成功店', '臺北市', '內湖區', '成功路四段 180 號'],
    ['012093', '全家 板橋中山店', '新北市', '板橋區', '中山路一段 150 號'],
    ['014851', '全家 新莊中正店', '新北市', '新莊區', '中正路 380 號'],
    ['008326', '全家 三重重新店', '新北市', '三重區', '重新路三段 72 號'],
    ['016472', '全家 新店北新店', '新北市', '新店區', '北新路二段 135 號'],
    ['010648', '全家 中壢元化店', '桃園市', '中壢區', '元化路 210 號'],
    ['005239', '全家 桃園復興店', '桃園市', '桃園區', '復興路 155 號'],
    ['019017', '全家 西屯福星店', '臺中市', '西屯區', '福星路 360 號'],
    ['003695', '全家 北屯崇德店', '臺中市', '北屯區', '崇德路二段 240 號'],
    ['011352', '全家 彰化中山店', '彰化縣', '彰化市', '中山路二段 420 號'],
    ['014206', '全家 安平慶平店', '臺南市', '安平區', '慶平路 500 號'],
    ['006048', '全家 永康中華店', '臺南市', '永康區', '中華路 680 號'],
    ['018790', '全家 苓雅光華店', '高雄市', '苓雅區', '光華一路 160 號'],
    ['009881', '全家 左營博愛店', '高雄市', '左營區', '博愛二路 380 號'],
    ['013127', '全家 花蓮中華店', '花蓮縣', '花蓮市', '中華路 250 號'],
    ['017403', '全家 馬公光復店', '澎湖縣', '馬公市', '光復路 95 號'],
  ]),
  // 萊爾富: 4-digit 店號, 「萊爾富 xx店」.
  ...stores('HILIFE', [
    ['2931', '萊爾富 竹山延平店', '南投縣', '竹山鎮', '延平路 120 號'],
    ['3156', '萊爾富 鹿谷仁義店', '南投縣', '鹿谷鄉', '仁義路 168 號'],
    ['2478', '萊爾富 草屯碧山店', '南投縣', '草屯鎮', '碧山路 520 號'],
    ['3602', '萊爾富 埔里中正店', '南投縣', '埔里鎮', '中正路 400 號'],
    ['1045', '萊爾富 南港忠孝店', '臺北市', '南港區', '忠孝東路七段 300 號'],
    ['1287', '萊爾富 北投光明店', '臺北市', '北投區', '光明路 150 號'],
    ['1563', '萊爾富 中和景平店', '新北市', '中和區', '景平路 450 號'],
    ['1719', '萊爾富 汐止大同店', '新北市', '汐止區', '大同路二段 210 號'],
    ['1834', '萊爾富 龜山文化店', '桃園市', '龜山區', '文化一路 66 號'],
    ['2206', '萊爾富 大里中興店', '臺中市', '大里區', '中興路二段 330 號'],
    ['2352', '萊爾富 南屯公益店', '臺中市', '南屯區', '公益路二段 560 號'],
    ['4017', '萊爾富 臺南裕農店', '臺南市', '東區', '裕農路 350 號'],
    ['4385', '萊爾富 三民建工店', '高雄市', '三民區', '建工路 620 號'],
    ['4523', '萊爾富 屏東民生店', '屏東縣', '屏東市', '民生路 230 號'],
    ['5108', '萊爾富 吉安中央店', '花蓮縣', '吉安鄉', '中央路三段 100 號'],
  ]),
  // OK: 4–5-digit 店號, 「OK xx店」.
  ...stores('OK', [
    ['1285', 'OK 草屯中正店', '南投縣', '草屯鎮', '中正路 880 號'],
    ['1318', 'OK 竹山中山店', '南投縣', '竹山鎮', '中山路 45 號'],
    ['10342', 'OK 名間彰南店', '南投縣', '名間鄉', '彰南路 250 號'],
    ['2064', 'OK 萬華西園店', '臺北市', '萬華區', '西園路一段 200 號'],
    ['2117', 'OK 松山八德店', '臺北市', '松山區', '八德路四段 500 號'],
    ['3042', 'OK 蘆洲長安店', '新北市', '蘆洲區', '長安街 180 號'],
    ['3176', 'OK 土城金城店', '新北市', '土城區', '金城路二段 240 號'],
    ['10518', 'OK 平鎮環南店', '桃園市', '平鎮區', '環南路 300 號'],
    ['5023', 'OK 臺中三民店', '臺中市', '北區', '三民路三段 170 號'],
    ['5147', 'OK 太平中山店', '臺中市', '太平區', '中山路二段 90 號'],
    ['11206', 'OK 員林中正店', '彰化縣', '員林市', '中正路 350 號'],
    ['6089', 'OK 臺南開元店', '臺南市', '北區', '開元路 260 號'],
    ['7034', 'OK 前鎮瑞隆店', '高雄市', '前鎮區', '瑞隆路 450 號'],
    ['8120', 'OK 宜蘭神農店', '宜蘭縣', '宜蘭市', '神農路二段 60 號'],
    ['9015', 'OK 臺東中華店', '臺東縣', '臺東市', '中華路一段 500 號'],
  ]),
];

const cityOrder = new Map(TW_CITIES.map((c, i) => [c.name, i]));
const nameCollator = new Intl.Collator('zh-Hant-TW');

/** City in the conventional north-to-south order of TW_CITIES (unknown cities last), then name. */
const byCityThenName = (a: CvsStore, b: CvsStore): number =>
  (cityOrder.get(a.city) ?? Infinity) - (cityOrder.get(b.city) ?? Infinity) ||
  nameCollator.compare(a.name, b.name);

/** Lower-cased, 台 written as 臺, so 「台北」 finds 臺北市 and 「ok」 finds 「OK 草屯中正店」. */
const fold = (text: string): string => normalizeTwPlaceName(text).toLowerCase();

/**
 * A `StoreLocator` over a fixed list (the demo stores by default). The query is split on whitespace
 * and every word must occur in the store's name, address, city or district, so 「竹山 集山」 narrows
 * to 竹山鎮 stores on 集山路; a single word is a plain substring match. An empty query matches all.
 */
export function demoStoreLocator(list: readonly CvsStore[] = DEMO_STORES): StoreLocator {
  const indexed = [...list].sort(byCityThenName).map((store) => ({
    store,
    haystack: fold([store.name, store.address, store.city, store.district].join('\n')),
  }));

  return {
    async search(brand, query, limit = DEFAULT_STORE_SEARCH_LIMIT) {
      const max = Number.isNaN(limit) ? DEFAULT_STORE_SEARCH_LIMIT : Math.max(0, Math.floor(limit));
      const words = fold(query).split(/\s+/).filter(Boolean);
      const found: CvsStore[] = [];
      for (const { store, haystack } of indexed) {
        if (found.length >= max) break;
        if (store.brand === brand && words.every((w) => haystack.includes(w))) found.push(store);
      }
      return found;
    },
    async find(brand, id) {
      const key = id.trim();
      return list.find((s) => s.brand === brand && s.id === key) ?? null;
    },
  };
}

/** The reply ECPay's store map posts to ServerReplyURL when `store` is chosen on the map `form` opened. */
export function sandboxMapReply(
  form: Readonly<Record<string, string>>,
  store: CvsStore,
): Record<string, string> {
  return {
    MerchantID: form.MerchantID ?? '',
    MerchantTradeNo: form.MerchantTradeNo ?? '',
    LogisticsSubType: form.LogisticsSubType ?? '',
    CVSStoreID: store.id,
    CVSStoreName: store.name,
    CVSAddress: store.address,
    CVSTelephone: store.phone,
    CVSOutSide: store.outlying ? '1' : '0',
    ExtraData: form.ExtraData ?? '',
  };
}
