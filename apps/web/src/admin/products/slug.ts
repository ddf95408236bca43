/**
 * A web address (slug) suggested from a product's Chinese name, for the owner to keep or edit.
 *
 * Pinyin for any character would need a large table of readings shipped to the console (and still
 * guess wrong for place names the tea trade spells its own way: 凍頂 is "dongding", 杉林溪
 * "shanlinxi"). A shop's names are made of a small vocabulary: its teas, their mountains and
 * villages, teaware and gift words. Those are spelled here as the shop's own addresses spell them;
 * Latin letters and digits in the name are kept; any other character only separates words. When
 * nothing is left, the address is `product-` and a short random code (given by the caller, so it
 * stays the same while the name is typed). docs/decisions/018-sign-up-limits-options-maintenance.md.
 *
 * A Chinese word the vocabulary does not know is not simply dropped: 「鹿谷晨露」 would become `lugu`,
 * an address any other 鹿谷 tea would want too. When a word of the name is left unspelled, the
 * short code is added (`lugu-k3m9q2`), so the suggestion stays this product's own; the owner can
 * still write a better one.
 */
const WORDS: ReadonlyArray<readonly [string, string]> = [
  // Teas and their kinds
  ['高山', 'high-mountain'],
  ['烏龍', 'oolong'],
  ['東方美人', 'oriental-beauty'],
  ['鐵觀音', 'tieguanyin'],
  ['包種', 'baozhong'],
  ['金萱', 'jinxuan'],
  ['翠玉', 'cuiyu'],
  ['四季春', 'four-seasons'],
  ['紅茶', 'black-tea'],
  ['綠茶', 'green-tea'],
  ['白茶', 'white-tea'],
  ['普洱', 'puer'],
  ['紅玉', 'ruby'],
  ['紅韻', 'ruby-charm'],
  ['蜜香', 'honey-scented'],
  ['阿薩姆', 'assam'],
  ['紅水', 'red-water'],
  ['老欉', 'old-bush'],
  ['炭焙', 'charcoal-roasted'],
  ['焙火', 'roasted'],
  ['陳年', 'aged'],
  ['冬茶', 'winter'],
  ['冬片', 'winter-sprout'],
  ['春茶', 'spring'],
  ['冷泡', 'cold-brew'],
  ['茶包', 'tea-bags'],
  ['立體', 'pyramid'],
  ['綜合', 'sampler'],
  ['台茶', 't'],
  ['臺茶', 't'],
  ['茶葉', 'tea'],
  // Mountains, villages and lakes
  ['凍頂', 'dongding'],
  ['杉林溪', 'shanlinxi'],
  ['梨山', 'lishan'],
  ['大禹嶺', 'dayuling'],
  ['阿里山', 'alishan'],
  ['翠峰', 'cuifeng'],
  ['奇萊山', 'qilai'],
  ['合歡山', 'hehuan'],
  ['福壽山', 'fushou'],
  ['武嶺', 'wuling'],
  ['鹿谷', 'lugu'],
  ['竹山', 'zhushan'],
  ['坪林', 'pinglin'],
  ['文山', 'wenshan'],
  ['木柵', 'muzha'],
  ['日月潭', 'sun-moon-lake'],
  ['南投', 'nantou'],
  ['鶯歌', 'yingge'],
  // Teaware
  ['朱泥', 'zhuni'],
  ['柴燒', 'wood-fired'],
  ['手拉坯', 'hand-thrown'],
  ['白瓷', 'porcelain'],
  ['青瓷', 'celadon'],
  ['蓋碗', 'gaiwan'],
  ['耐熱玻璃', 'heat-resistant-glass'],
  ['玻璃', 'glass'],
  ['雙層', 'double-wall'],
  ['泡茶壺', 'teapot'],
  ['茶壺', 'teapot'],
  ['壺', 'teapot'],
  ['品茗杯', 'tasting-cup'],
  ['杯組', 'cup-set'],
  ['茶杯', 'cup'],
  ['茶海', 'fair-cup'],
  ['茶盤', 'tea-tray'],
  ['奉茶盤', 'serving-tray'],
  ['胡桃木', 'walnut'],
  ['冷泡瓶', 'cold-brew-bottle'],
  ['隨行杯', 'tumbler'],
  ['茶具', 'teaware'],
  ['茶器', 'teaware'],
  // Gifts and the house
  ['禮盒', 'gift-box'],
  ['禮盒組', 'gift-set'],
  ['新春', 'lunar-new-year'],
  ['中秋', 'mid-autumn'],
  ['端午', 'dragon-boat'],
  ['山嵐', 'shanlan'],
  ['師傅', 'master'],
  ['專利', 'patented'],
  ['限量', 'limited'],
  ['茶', 'tea'],
];

/** Characters that carry no word of their own in a product name (台茶 18 號, 新春好茶): left out, not "unknown". */
const FILLERS = new Set(['號', '好', '的', '之', '與', '和', '及']);

// Longest first, so 冷泡瓶 wins over 冷泡 and 東方美人 over any shorter word.
const BY_LENGTH = [...WORDS].sort((a, b) => b[0].length - a[0].length);

/** At most this long: the shop's rule for slugs is 80 characters. */
const MAX_LENGTH = 60;

/**
 * The words of `name` the vocabulary knows, with its Latin letters and digits; other characters
 * separate. `unspelled`: some Chinese character of the name is in none of them.
 */
function romanise(name: string): { words: string[]; unspelled: boolean } {
  const words: string[] = [];
  let unspelled = false;
  let latin = '';
  const flush = () => {
    if (latin) words.push(latin);
    latin = '';
  };
  const text = name.normalize('NFKC').toLowerCase();
  for (let i = 0; i < text.length;) {
    const known = BY_LENGTH.find(([zh]) => text.startsWith(zh, i));
    if (known) {
      flush();
      // 台茶 18 號 is "t18", the way the trade writes the cultivar.
      words.push(known[1]);
      i += known[0].length;
      continue;
    }
    const ch = text[i]!;
    if (/[a-z0-9]/.test(ch)) latin += ch;
    else {
      flush();
      if (/\p{Script=Han}/u.test(ch) && !FILLERS.has(ch)) unspelled = true;
    }
    i += 1;
  }
  flush();
  // "t" then a number: one word (台茶 18 號 → t18).
  const joined: string[] = [];
  for (const word of words) {
    const last = joined.at(-1);
    if (last === 't' && /^\d+$/.test(word)) joined[joined.length - 1] = `t${word}`;
    else if (word !== last) joined.push(word);
  }
  return { words: joined.filter((w) => w !== 't'), unspelled };
}

/** A slug for a product name: `product-<fallback>` when the name gives nothing to spell. */
export function suggestSlug(name: string, fallback: string): string {
  const { words, unspelled } = romanise(name);
  // Room for the code, when it is to be added.
  const room = unspelled ? MAX_LENGTH - fallback.length - 1 : MAX_LENGTH;
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > room) break;
    slug = next;
  }
  if (!slug) return `product-${fallback}`;
  return unspelled ? `${slug}-${fallback}` : slug;
}

/** A short random code for the fallback address (lower-case letters and digits). */
export function randomSlugCode(): string {
  return Math.random().toString(36).slice(2, 8).padEnd(6, '0');
}
