import { OrdersPage } from './order-list.tsx';

export default function OrderTrackingPage() {
  return <OrdersPage tracking />;
}
