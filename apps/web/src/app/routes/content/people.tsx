import { useLocation } from 'react-router';
import type { MasterView } from '@shop/shared/content-views';
import { useIsLogin } from '../../../features/auth/stores/user-store.ts';
import { ProductCard, ProductGrid } from '../../../features/catalog/components/product-card.tsx';
import {
  MasterPage,
  MastersPage,
  TeamMemberPage,
  TeamPage,
} from '../../../features/content/components/people-page.tsx';
import { usePreviewMode } from '../../../features/content/hooks/use-preview-mode.ts';

/** A master's recommended products as the catalog draws them (a master's page is for members). */
function RecommendedProducts(products: NonNullable<MasterView['products']>) {
  return (
    <ProductGrid>
      {products.map((p) => (
        <li key={p.id}>
          <ProductCard product={p} heart="member" />
        </li>
      ))}
    </ProductGrid>
  );
}

/** One module for the four people routes; the path says which page. */
export default function PeopleRoute() {
  const { pathname } = useLocation();
  const signedIn = useIsLogin();
  const preview = usePreviewMode(signedIn);
  if (pathname.startsWith('/team/')) return <TeamMemberPage preview={preview} />;
  if (pathname.startsWith('/team')) return <TeamPage preview={preview} signedIn={signedIn} />;
  if (pathname.startsWith('/master/'))
    return <MasterPage preview={preview} renderProducts={RecommendedProducts} />;
  return <MastersPage preview={preview} signedIn={signedIn} />;
}
