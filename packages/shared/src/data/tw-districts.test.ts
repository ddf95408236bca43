import { describe, expect, it } from 'vitest';
import { OUTLYING_DISTRICTS, TW_CITIES, findDistrict, isOutlying } from './tw-districts.ts';

const allDistricts = TW_CITIES.flatMap((c) => c.districts.map((d) => ({ city: c.name, ...d })));

describe('TW_CITIES', () => {
  it('lists the 22 cities/counties in the conventional order', () => {
    expect(TW_CITIES.map((c) => c.name)).toEqual([
      '臺北市',
      '基隆市',
      '新北市',
      '連江縣',
      '宜蘭縣',
      '新竹市',
      '新竹縣',
      '桃園市',
      '苗栗縣',
      '臺中市',
      '彰化縣',
      '南投縣',
      '嘉義市',
      '嘉義縣',
      '雲林縣',
      '臺南市',
      '高雄市',
      '澎湖縣',
      '金門縣',
      '屏東縣',
      '臺東縣',
      '花蓮縣',
    ]);
  });

  it('holds every 鄉鎮市區 (368, give or take the nominal island areas)', () => {
    expect(allDistricts.length).toBeGreaterThanOrEqual(360);
    expect(allDistricts.length).toBeLessThanOrEqual(372);
  });

  it('gives every district a 3-digit postal code and a non-empty name', () => {
    expect(allDistricts.filter((d) => !/^\d{3}$/.test(d.zip) || d.name.trim() === '')).toEqual([]);
  });

  it('uses the official 臺, never 台', () => {
    expect(allDistricts.filter((d) => `${d.city}${d.name}`.includes('台'))).toEqual([]);
  });

  it('has no duplicate district within a city', () => {
    for (const c of TW_CITIES) {
      expect(new Set(c.districts.map((d) => d.name)).size, c.name).toBe(c.districts.length);
    }
  });

  it('has unique postal codes except 新竹市 (all 300) and 嘉義市 (all 600)', () => {
    const byZip = new Map<string, string[]>();
    for (const d of allDistricts) byZip.set(d.zip, [...(byZip.get(d.zip) ?? []), `${d.city}${d.name}`]);
    const shared = Object.fromEntries([...byZip].filter(([, names]) => names.length > 1));
    expect(shared).toEqual({
      '300': ['新竹市東區', '新竹市北區', '新竹市香山區'],
      '600': ['嘉義市東區', '嘉義市西區'],
    });
  });

  it('keeps postal codes within each city in ascending order', () => {
    for (const c of TW_CITIES) {
      const zips = c.districts.map((d) => d.zip);
      expect(zips, c.name).toEqual([...zips].sort());
    }
  });

  it.each([
    ['臺北市', '中正區', '100'],
    ['臺北市', '信義區', '110'],
    ['新北市', '板橋區', '220'],
    ['桃園市', '中壢區', '320'],
    ['臺中市', '西屯區', '407'],
    ['南投縣', '鹿谷鄉', '558'],
    ['南投縣', '竹山鎮', '557'],
    ['臺南市', '安平區', '708'],
    ['高雄市', '苓雅區', '802'],
    ['花蓮縣', '花蓮市', '970'],
    ['澎湖縣', '馬公市', '880'],
    ['金門縣', '金城鎮', '893'],
    ['連江縣', '南竿鄉', '209'],
    ['屏東縣', '琉球鄉', '929'],
    ['臺東縣', '蘭嶼鄉', '952'],
  ])('%s %s is %s', (city, district, zip) => {
    expect(findDistrict(city, district)).toEqual({ name: district, zip });
  });

  it('counts the districts of a few cities', () => {
    const count = (name: string) => TW_CITIES.find((c) => c.name === name)?.districts.length;
    expect([
      count('臺北市'),
      count('新北市'),
      count('臺中市'),
      count('臺南市'),
      count('高雄市'),
      count('南投縣'),
    ]).toEqual([12, 29, 29, 37, 38, 13]);
  });
});

describe('findDistrict', () => {
  it('accepts 台 for 臺 and surrounding spaces', () => {
    expect(findDistrict(' 台北市', '中正區 ')?.zip).toBe('100');
    expect(findDistrict('台東縣', '台東市')?.zip).toBe('950');
  });

  it('returns undefined for unknown or mismatched pairs', () => {
    expect(findDistrict('臺北市', '板橋區')).toBeUndefined();
    expect(findDistrict('火星市', '中正區')).toBeUndefined();
  });
});

describe('isOutlying', () => {
  it('is true for the outlying counties and the island townships of main-island counties', () => {
    expect(isOutlying('澎湖縣', '馬公市')).toBe(true);
    expect(isOutlying('金門縣', '烈嶼鄉')).toBe(true);
    expect(isOutlying('連江縣', '東引鄉')).toBe(true);
    expect(isOutlying('臺東縣', '綠島鄉')).toBe(true);
    expect(isOutlying('臺東縣', '蘭嶼鄉')).toBe(true);
    expect(isOutlying('屏東縣', '琉球鄉')).toBe(true);
  });

  it('is false on the main island and for unknown pairs', () => {
    expect(isOutlying('臺東縣', '臺東市')).toBe(false);
    expect(isOutlying('屏東縣', '東港鎮')).toBe(false);
    expect(isOutlying('臺北市', '中正區')).toBe(false);
    expect(isOutlying('澎湖縣', '不存在鄉')).toBe(false);
  });

  it('lists only real districts in OUTLYING_DISTRICTS', () => {
    expect(OUTLYING_DISTRICTS.filter((d) => !findDistrict(d.city, d.district))).toEqual([]);
    const outlyingCities = TW_CITIES.filter((c) => c.outlying).map((c) => c.name);
    expect(outlyingCities).toEqual(['連江縣', '澎湖縣', '金門縣']);
  });
});
