import { PlaceholderPage } from '../../components/placeholder-page.tsx';

/** Stand-in for pages a later issue builds; shows the route's title and says the content is coming. */
export default function Placeholder() {
  return <PlaceholderPage />;
}
