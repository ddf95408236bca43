import { OrderPage } from './order-detail.tsx';

export default function OrderTrackingDetailPage() {
  return <OrderPage tracking />;
}
