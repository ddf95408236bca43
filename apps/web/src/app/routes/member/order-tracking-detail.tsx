import { OrderPage } from '../../../features/orders/components/order-page.tsx';

export default function OrderTrackingDetailPage() {
  return <OrderPage tracking />;
}
