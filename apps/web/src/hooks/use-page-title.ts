import { useEffect } from 'react';
import { BRAND } from '@shop/shared/brand';

/**
 * A page's own document title (a product's name, a person's, an order's number, 「找不到頁面」) in
 * place of its route's generic one (「商品介紹」), once the page knows it; undefined keeps the
 * route's. The layout sets the route's title before any page effect runs, on every new path
 * (components/layouts/default-layout.tsx), so this one, set after it, wins.
 */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = `${title}｜${BRAND.name}`;
  }, [title]);
}
