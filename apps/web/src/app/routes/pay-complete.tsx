import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { Container } from '../../components/ui/page.tsx';
import { SkeletonText } from '../../components/ui/skeleton.tsx';
import { paths } from '../../config/paths.ts';
import { ApiError } from '../../lib/api-error.ts';
import { errorMessage } from '../../lib/form.ts';
import { useIsLogin } from '../../features/auth/stores/user-store.ts';
import { orderQueryOptions } from '../../features/orders/api/orders-api.ts';
import { PayOutcome, outcomeOf } from '../../features/orders/components/pay-outcome.tsx';
import { orderItems, trackShopEvent } from '../../lib/shop-events.ts';

export default function PayCompletePage() {
  const [params] = useSearchParams();
  const orderNo = params.get('order') ?? '';
  const isLogin = useIsLogin();
  const valid = /^TW\d{14}$/.test(orderNo);
  const order = useQuery({
    ...orderQueryOptions(orderNo),
    enabled: valid && isLogin,
    // While the gateway's notice is on its way, look again every few seconds (events also refresh it).
    refetchInterval: (query) =>
      query.state.data && outcomeOf(query.state.data) === 'waiting' ? 3000 : false,
  });

  // The purchase, once the order stands (paid, cash on delivery, or an ATM account given); the
  // consent code sends it once per order number, whatever reloads follow (docs/decisions/042).
  const placed =
    order.data && ['paid', 'cod', 'atm', 'store'].includes(outcomeOf(order.data)) ? order.data : null;
  useEffect(() => {
    if (!placed) return;
    trackShopEvent({
      name: 'purchase',
      orderNo: placed.orderNo,
      value: placed.total,
      shipping: placed.shippingFee,
      items: orderItems(placed),
    });
  }, [placed?.orderNo]); // eslint-disable-line react-hooks/exhaustive-deps -- once per order shown

  if (!valid) {
    return (
      <Container className="max-w-xl py-16 text-center">
        <h1 className="font-serif text-2xl">找不到付款資料</h1>
        <p className="mt-3 text-ink-muted">請到會員中心的訂單查詢查看訂單狀態。</p>
        <ButtonLink className="mt-6" to={paths.orderList()}>
          查看我的訂單
        </ButtonLink>
      </Container>
    );
  }
  if (!isLogin) {
    return (
      <Container className="max-w-xl py-16 text-center">
        <h1 className="font-serif text-2xl">請登入查看付款結果</h1>
        <p className="mt-3 text-ink-muted">訂單 {orderNo} 的付款結果只有訂購的會員可以查看。</p>
        <ButtonLink className="mt-6" to={paths.login(paths.payComplete(orderNo))}>
          登入
        </ButtonLink>
      </Container>
    );
  }
  if (order.isPending) {
    return (
      <Container className="max-w-xl py-16">
        <div role="status" aria-label="載入付款結果">
          <SkeletonText lines={4} />
        </div>
      </Container>
    );
  }
  if (order.isError) {
    const missing = order.error instanceof ApiError && order.error.status === 404;
    return (
      <Container className="max-w-xl py-16">
        <Alert tone="error" title={missing ? '找不到這筆訂單' : '付款結果暫時無法載入'}>
          {missing ? '請確認您登入的是下單的帳號。' : errorMessage(order.error)}
        </Alert>
      </Container>
    );
  }
  return <PayOutcome order={order.data} />;
}
