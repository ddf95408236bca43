import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';
import { cartItems, categories, productVariants, products } from '../../db/schema.ts';

/** Cart lines with their variant and product, as they are now; one query. */
export async function cartRows(db: DbOrTx, userId: string) {
  return db
    .select({
      variantId: cartItems.variantId,
      quantity: cartItems.quantity,
      addedPrice: cartItems.addedPrice,
      addedAt: cartItems.createdAt,
      price: productVariants.price,
      compareAtPrice: productVariants.compareAtPrice,
      stock: productVariants.stock,
      sku: productVariants.sku,
      options: productVariants.options,
      variantArchived: productVariants.archived,
      productId: products.id,
      slug: products.slug,
      name: products.name,
      status: products.status,
      images: products.images,
      categoryName: categories.name,
    })
    .from(cartItems)
    .innerJoin(productVariants, eq(productVariants.id, cartItems.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(eq(cartItems.userId, userId))
    .orderBy(cartItems.createdAt, cartItems.variantId);
}

export type CartRow = Awaited<ReturnType<typeof cartRows>>[number];

export async function findVariantForCart(db: DbOrTx, variantId: string) {
  const [row] = await db
    .select({
      id: productVariants.id,
      price: productVariants.price,
      stock: productVariants.stock,
      archived: productVariants.archived,
      status: products.status,
      name: products.name,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.id, variantId))
    .limit(1);
  return row ?? null;
}

export async function currentQuantity(db: DbOrTx, userId: string, variantId: string): Promise<number> {
  const [row] = await db
    .select({ q: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.userId, userId), eq(cartItems.variantId, variantId)))
    .limit(1);
  return row?.q ?? 0;
}

export async function setQuantity(
  db: DbOrTx,
  userId: string,
  variantId: string,
  quantity: number,
  price: number,
): Promise<void> {
  await db
    .insert(cartItems)
    .values({ userId, variantId, quantity, addedPrice: price })
    .onConflictDoUpdate({
      target: [cartItems.userId, cartItems.variantId],
      set: { quantity, updatedAt: sql`now()` },
    });
}

/**
 * Adds to a line (or starts one) in one statement, only while the variant is for sale and the
 * line's new quantity fits both its stock and the per-line limit; false, with nothing written,
 * otherwise (the caller then finds out which rule refused it). A new line remembers today's price.
 */
export async function addWithinStock(
  db: DbOrTx,
  userId: string,
  variantId: string,
  quantity: number,
  maxLine: number,
): Promise<boolean> {
  const result = await db.execute(sql`
    insert into cart_items (user_id, variant_id, quantity, added_price)
    select ${userId}::uuid, v.id, ${quantity}::int, v.price
    from product_variants v join products p on p.id = v.product_id
    where v.id = ${variantId}::uuid and not v.archived and p.status = 'active' and ${quantity}::int <= least(v.stock, ${maxLine}::int)
    on conflict (user_id, variant_id) do update set quantity = cart_items.quantity + excluded.quantity, updated_at = now()
    where cart_items.quantity + excluded.quantity <= (select least(v.stock, ${maxLine}::int) from product_variants v where v.id = excluded.variant_id)
    returning quantity`);
  return rows(result).length > 0;
}

export async function removeItem(db: DbOrTx, userId: string, variantId: string): Promise<boolean> {
  const rows = await db
    .delete(cartItems)
    .where(and(eq(cartItems.userId, userId), eq(cartItems.variantId, variantId)))
    .returning({ v: cartItems.variantId });
  return rows.length > 0;
}

export async function removeItems(db: DbOrTx, userId: string, variantIds: string[]): Promise<void> {
  if (variantIds.length === 0) return;
  await db
    .delete(cartItems)
    .where(and(eq(cartItems.userId, userId), sql`${cartItems.variantId} in ${variantIds}`));
}

/** Empties a member's cart (a deleted account). */
export async function deleteAllOf(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.userId, userId));
}
