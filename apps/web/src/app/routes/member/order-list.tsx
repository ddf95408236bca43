import { OrdersPage } from '../../../features/orders/components/orders-page.tsx';

export default function OrderListRoute() {
  return <OrdersPage />;
}
