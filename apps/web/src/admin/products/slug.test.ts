import { describe, expect, it } from 'vitest';
import { SLUG_PATTERN } from '@shop/shared/admin-products';
import { randomSlugCode, suggestSlug } from './slug.ts';

describe('a web address suggested from a product’s name', () => {
  it('spells the shop’s own words the way its addresses do, keeping Latin letters and digits', () => {
    expect(suggestSlug('凍頂烏龍', 'x1y2z3')).toBe('dongding-oolong');
    expect(suggestSlug('杉林溪高山茶', 'x1y2z3')).toBe('shanlinxi-high-mountain-tea');
    expect(suggestSlug('東方美人茶', 'x1y2z3')).toBe('oriental-beauty-tea');
    expect(suggestSlug('2019 梨山冬茶', 'x1y2z3')).toBe('2019-lishan-winter');
    expect(suggestSlug('日月潭紅玉紅茶（台茶 18 號）', 'x1y2z3')).toBe('sun-moon-lake-ruby-black-tea-t18');
    expect(suggestSlug('山嵐專利冷泡瓶 500ml', 'x1y2z3')).toBe('shanlan-patented-cold-brew-bottle-500ml');
    expect(suggestSlug('ＧＩＦＴ 新春好茶禮盒', 'x1y2z3')).toBe('gift-lunar-new-year-tea-gift-box');
  });

  it('adds the code when a word of the name is left unspelled, so a generic address is not suggested', () => {
    expect(suggestSlug('鹿谷冬片', 'k3m9q2')).toBe('lugu-winter-sprout');
    expect(suggestSlug('鹿谷晨露', 'k3m9q2')).toBe('lugu-k3m9q2');
    expect(suggestSlug('凍頂烏龍（輕焙）', 'k3m9q2')).toBe('dongding-oolong-k3m9q2');
    // Fillers are no word of their own: 台茶 18 號 and 新春好茶 are fully spelled.
    expect(suggestSlug('紅玉紅茶（台茶 18 號）', 'k3m9q2')).toBe('ruby-black-tea-t18');
  });

  it('falls back to product-<code> when the name has nothing to spell', () => {
    expect(suggestSlug('晨露', 'k3m9q2')).toBe('product-k3m9q2');
    expect(suggestSlug('', 'k3m9q2')).toBe('product-k3m9q2');
  });

  it('always gives an address the shop accepts, never longer than 60 characters', () => {
    const code = randomSlugCode();
    expect(code).toMatch(/^[a-z0-9]{6}$/);
    for (const name of [
      '凍頂烏龍',
      '晨露',
      '阿里山金萱烏龍 高山烏龍 凍頂烏龍 東方美人 鐵觀音 梨山 大禹嶺 杉林溪 翠峰',
      '！？、。',
      'Earl Grey 伯爵',
    ]) {
      const slug = suggestSlug(name, code);
      expect(slug, name).toMatch(SLUG_PATTERN);
      expect(slug.length, name).toBeLessThanOrEqual(60);
      expect(slug, name).not.toMatch(/^-|-$|--/);
    }
  });
});
