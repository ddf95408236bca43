import { MallPage } from '../../../features/catalog/components/mall-page.tsx';

export default function MallRoute() {
  return <MallPage />;
}
