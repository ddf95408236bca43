// The catalogue requests `npm run bench` and `npm run soak` make, written once for both.

/** Distinct catalogue queries as shoppers make them: search words, categories, price floors, sorts and pages. */
export function queryMix(prefix = '/api/catalog/products', pageSize = '12') {
  const words = [
    '烏龍',
    '台灣',
    '臺灣',
    '茶',
    '高山',
    '紅茶',
    '冷泡',
    '禮盒',
    '凍頂',
    '阿里山',
    '東方美人',
    '包種',
    '金萱',
    '鐵觀音',
    '焙',
    '清香',
    '蜜香',
    '罐',
    '袋',
    '75',
  ];
  const categories = ['', 'tea', 'high-mountain-oolong', 'roasted-oolong', 'black-tea', 'cold-brew'];
  const sorts = ['recommended', 'newest', 'price-asc', 'price-desc'];
  const floors = ['', '300', '600', '1000'];
  const paths = [];
  for (const q of ['', ...words])
    for (const category of categories)
      for (const sort of sorts)
        for (const minPrice of floors) {
          const params = new URLSearchParams({ sort, page: String((paths.length % 3) + 1) });
          if (pageSize) params.set('pageSize', pageSize);
          if (q) params.set('q', q);
          if (category) params.set('category', category);
          if (minPrice) params.set('minPrice', minPrice);
          paths.push(`${prefix}?${params}`);
          if (paths.length >= 1300) return paths;
        }
  return paths;
}

/**
 * Every product on sale, by slug, through the public list (48 a page), in the list's `sort` order
 * (the shop's own, recommended first, by default).
 */
export async function allSlugs(base, sort = 'recommended') {
  const slugs = [];
  for (let page = 1; ; page++) {
    const { items, totalPages } = await (
      await fetch(`${base}/api/catalog/products?sort=${sort}&pageSize=48&page=${page}`)
    ).json();
    slugs.push(...items.map((p) => p.slug));
    if (page >= totalPages) return slugs;
  }
}
