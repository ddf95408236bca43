import { eq } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { categories, users } from '../src/db/schema.ts';
import { createProduct, type VariantInput } from '../src/modules/catalog/service.ts';

/** A small catalog with known names, prices, stock and dates, for API tests. */
export async function seedTestCatalog(database: Database) {
  const db = database.db;
  const [tea] = await db.insert(categories).values({ slug: 'tea', name: '茶葉', sortOrder: 1 }).returning();
  const [oolong] = await db
    .insert(categories)
    .values({ slug: 'oolong', name: '烏龍茶', parentId: tea!.id, sortOrder: 1 })
    .returning();
  const [black] = await db
    .insert(categories)
    .values({ slug: 'black', name: '紅茶', parentId: tea!.id, sortOrder: 2 })
    .returning();
  const [ware] = await db.insert(categories).values({ slug: 'ware', name: '茶器', sortOrder: 2 }).returning();
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000);
  const v = (
    sku: string,
    price: number,
    stock: number,
    compareAtPrice: number | null = null,
  ): VariantInput => ({
    sku,
    options: { 規格: sku.endsWith('S') ? '75 g' : '150 g' },
    price,
    compareAtPrice,
    stock,
    lowStockThreshold: 5,
  });
  const base = {
    specs: [{ label: '產地', value: '南投' }],
    description: [{ type: 'paragraph' as const, text: '好茶。' }],
    images: [],
    status: 'active' as const,
  };
  const ids = {
    dongding: await createProduct(
      db,
      {
        ...base,
        slug: 'dong-ding',
        name: '凍頂烏龍茶',
        summary: '鹿谷的經典炭焙烏龍。',
        categoryId: oolong!.id,
        tags: ['烏龍', '焙火'],
        sortWeight: 90,
        soldCount: 500,
        createdAt: day(1),
      },
      [v('DD-S', 480, 30), v('DD-L', 880, 0)],
    ),
    lishan: await createProduct(
      db,
      {
        ...base,
        slug: 'li-shan',
        name: '梨山高山茶',
        summary: '海拔兩千公尺的清香。',
        categoryId: oolong!.id,
        tags: ['高山茶', '春茶'],
        sortWeight: 50,
        soldCount: 120,
        createdAt: day(5),
      },
      [v('LS-S', 980, 10, 1200), v('LS-L', 1880, 2)],
    ),
    ruby: await createProduct(
      db,
      {
        ...base,
        slug: 'ruby-black',
        name: '紅玉紅茶',
        summary: '台茶18號，肉桂與薄荷的香氣。',
        categoryId: black!.id,
        tags: ['紅茶'],
        sortWeight: 50,
        soldCount: 800,
        createdAt: day(3),
      },
      [v('RB-S', 420, 0), v('RB-L', 760, 0)],
    ),
    pot: await createProduct(
      db,
      {
        ...base,
        slug: 'zhuni-pot',
        name: '朱泥手拉坯茶壺',
        summary: '適合烏龍的小壺。',
        categoryId: ware!.id,
        tags: ['茶器'],
        sortWeight: 50,
        soldCount: 40,
        createdAt: day(4),
      },
      [v('POT-1', 3200, 3)],
    ),
    cup: await createProduct(
      db,
      {
        ...base,
        slug: 'white-cup',
        name: '白瓷品茗杯',
        summary: '薄胎白瓷，看得見茶湯的顏色。',
        categoryId: ware!.id,
        tags: ['茶器', '100%手工'],
        sortWeight: 50,
        soldCount: 40,
        createdAt: day(2),
      },
      [v('CUP-1', 480, 50)],
    ),
    draft: await createProduct(
      db,
      {
        ...base,
        status: 'draft',
        slug: 'next-spring',
        name: '明年春茶（未上架）',
        summary: '即將推出。',
        categoryId: oolong!.id,
        tags: ['烏龍'],
        sortWeight: 100,
        createdAt: day(9),
      },
      [v('NX-S', 500, 10)],
    ),
  };
  return { ids, categories: { tea: tea!, oolong: oolong!, black: black!, ware: ware! } };
}

export async function setRole(
  database: Database,
  email: string,
  role: 'customer' | 'owner' | 'staff' | 'viewer',
) {
  await database.db.update(users).set({ role }).where(eq(users.email, email));
}
