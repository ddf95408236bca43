import { describe, expect, it } from 'vitest';
import { TW_CITIES, findDistrict } from '@shop/shared/data/tw-districts';
import { CVS_BRAND_LABELS, DEMO_STORES, demoStoreLocator, type CvsBrand, type CvsStore } from './stores.ts';

const BRANDS = Object.keys(CVS_BRAND_LABELS) as CvsBrand[];
const ofBrand = (brand: CvsBrand) => DEMO_STORES.filter((s) => s.brand === brand);

describe('DEMO_STORES', () => {
  it('holds about 80 stores: 25 7-ELEVEN, 25 全家, 15 萊爾富, 15 OK', () => {
    expect(BRANDS.map((b) => [b, ofBrand(b).length])).toEqual([
      ['7-ELEVEN', 25],
      ['FAMILY', 25],
      ['HILIFE', 15],
      ['OK', 15],
    ]);
    expect(DEMO_STORES).toHaveLength(80);
  });

  it('has unique ids and names per brand', () => {
    for (const b of BRANDS) {
      const stores = ofBrand(b);
      expect(new Set(stores.map((s) => s.id)).size, b).toBe(stores.length);
      expect(new Set(stores.map((s) => s.name)).size, b).toBe(stores.length);
    }
  });

  it('uses id formats that look like each brand', () => {
    const pattern: Record<CvsBrand, RegExp> = {
      '7-ELEVEN': /^\d{6}$/,
      FAMILY: /^0\d{5}$/,
      HILIFE: /^\d{4}$/,
      OK: /^\d{4,5}$/,
    };
    expect(DEMO_STORES.filter((s) => !pattern[s.brand].test(s.id))).toEqual([]);
  });

  it('keeps one naming style per brand', () => {
    const pattern: Record<CvsBrand, RegExp> = {
      '7-ELEVEN': /^[^\s\d]+門市$/,
      FAMILY: /^全家 \S+店$/,
      HILIFE: /^萊爾富 \S+店$/,
      OK: /^OK \S+店$/,
    };
    expect(DEMO_STORES.filter((s) => !pattern[s.brand].test(s.name))).toEqual([]);
  });

  it('places every store in a real city/district, with a full address in that order', () => {
    expect(DEMO_STORES.filter((s) => !findDistrict(s.city, s.district))).toEqual([]);
    const cityNames = new Set(TW_CITIES.map((c) => c.name));
    expect(DEMO_STORES.filter((s) => !cityNames.has(s.city))).toEqual([]);
    expect(
      DEMO_STORES.filter(
        (s) => !s.address.startsWith(`${s.city}${s.district}`) || !/\S \d+ 號$/.test(s.address),
      ),
    ).toEqual([]);
    expect(DEMO_STORES.filter((s) => `${s.address}${s.city}${s.district}${s.name}`.includes('台'))).toEqual(
      [],
    );
  });

  it('covers our home towns 鹿谷鄉 and 竹山鎮 and an outlying island', () => {
    const at = (district: string) => DEMO_STORES.filter((s) => s.district === district).length;
    expect(at('鹿谷鄉')).toBeGreaterThanOrEqual(2);
    expect(at('竹山鎮')).toBeGreaterThanOrEqual(3);
    expect(DEMO_STORES.some((s) => s.city === '澎湖縣')).toBe(true);
  });

  it('gives every store a telephone of its area and marks the outlying-island stores', () => {
    expect(DEMO_STORES.filter((s) => !/^0\d{1,3}-[2-9]\d{4,7}$/.test(s.phone))).toEqual([]);
    expect(DEMO_STORES.find((s) => s.id === '158703')?.phone).toMatch(/^049-\d{7}$/);
    expect(
      DEMO_STORES.filter((s) => s.outlying)
        .map((s) => s.name)
        .sort(),
    ).toEqual(['全家 馬公光復店', '金城門市', '馬公門市'].sort());
  });
});

describe('demoStoreLocator', () => {
  const locator = demoStoreLocator();

  it('finds the 7-ELEVEN 鹿谷門市 by 「鹿谷」', async () => {
    const found = await locator.search('7-ELEVEN', '鹿谷');
    expect(found.map((s) => s.name)).toContain('鹿谷門市');
    expect(found.every((s) => s.brand === '7-ELEVEN')).toBe(true);
  });

  it('matches name, address, city and district as substrings, ignoring case and 台/臺', async () => {
    expect((await locator.search('FAMILY', '興產')).map((s) => s.id)).toEqual(['013542']);
    expect((await locator.search('HILIFE', '延平路')).map((s) => s.name)).toEqual(['萊爾富 竹山延平店']);
    expect(await locator.search('OK', '澎湖縣')).toEqual([]);
    expect((await locator.search('FAMILY', '澎湖縣')).map((s) => s.name)).toEqual(['全家 馬公光復店']);
    expect((await locator.search('OK', 'ok 草屯')).map((s) => s.name)).toEqual(['OK 草屯中正店']);
    const taipei = await locator.search('7-ELEVEN', '台北');
    expect(taipei.length).toBeGreaterThan(0);
    expect(taipei.every((s) => s.city === '臺北市')).toBe(true);
  });

  it('returns the first 20 stores of the brand for an empty query, ordered by city then name', async () => {
    const all = await locator.search('7-ELEVEN', '  ');
    expect(all).toHaveLength(20);
    const order = new Map(TW_CITIES.map((c, i) => [c.name, i]));
    const idx = all.map((s) => order.get(s.city) ?? -1);
    expect(idx).toEqual([...idx].sort((a, b) => a - b));
    expect(all[0]?.city).toBe('臺北市');
  });

  it('respects the limit', async () => {
    expect(await locator.search('FAMILY', '', 5)).toHaveLength(5);
    expect(await locator.search('FAMILY', '南投縣', 2)).toHaveLength(2);
    expect(await locator.search('FAMILY', '', 0)).toEqual([]);
    expect(await locator.search('HILIFE', '', 100)).toHaveLength(15);
  });

  it('finds a store by id and returns null for an unknown id or the wrong brand', async () => {
    expect(await locator.find('7-ELEVEN', '158703')).toMatchObject({
      name: '鹿谷門市',
      city: '南投縣',
      district: '鹿谷鄉',
    });
    expect(await locator.find('7-ELEVEN', '999999')).toBeNull();
    expect(await locator.find('FAMILY', '158703')).toBeNull();
  });

  it('works over a custom list', async () => {
    const custom: CvsStore[] = [
      {
        brand: 'OK',
        id: '2',
        name: 'OK 乙店',
        address: '高雄市苓雅區四維三路 2 號',
        city: '高雄市',
        district: '苓雅區',
        phone: '07-2345678',
        outlying: false,
      },
      {
        brand: 'OK',
        id: '1',
        name: 'OK 甲店',
        address: '臺北市中正區公園路 1 號',
        city: '臺北市',
        district: '中正區',
        phone: '02-23456789',
        outlying: false,
      },
    ];
    const l = demoStoreLocator(custom);
    expect((await l.search('OK', '')).map((s) => s.id)).toEqual(['1', '2']);
    expect(await l.find('OK', '2')).toEqual(custom[0]);
  });
});
