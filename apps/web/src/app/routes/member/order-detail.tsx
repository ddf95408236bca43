import { OrderPage } from '../../../features/orders/components/order-page.tsx';

export default function OrderDetailRoute() {
  return <OrderPage />;
}
