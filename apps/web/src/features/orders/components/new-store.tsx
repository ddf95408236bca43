import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { CVS_BRAND_NAMES, CVS_BRANDS, type CvsBrandCode } from '@shop/shared/checkout';
import { inSentence } from '@shop/shared/text';
import type { OrderDetail } from '@shop/shared/orders';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/form.ts';
import { mapDevice } from '../../../lib/payment-form.ts';
import { changePickupStore, openNewStoreMap } from '../api/orders-api.ts';

/**
 * The map's way back (`CVS_MAP_PARAM` of @shop/shared/logistics, checked equal by a test): written
 * out so the order pages do not load the logistics schemas, over the first-load budget.
 */
export const STORE_MAP_PARAM = 'cvsMap';

/**
 * The parcel's pickup store closed: the buyer picks another store of the same chain on the map, and
 * coming back (`?cvsMap=<token>`) sends it to the shop, which tells the carrier.
 */
export function NewStoreNotice({ order }: { order: OrderDetail }) {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const token = params.get(STORE_MAP_PARAM);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sent = useRef<string | null>(null);
  const brand = (CVS_BRANDS as readonly string[]).includes(order.shipping.cvsBrand ?? '')
    ? (order.shipping.cvsBrand as CvsBrandCode)
    : null;

  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    setParams(
      (p) => {
        p.delete(STORE_MAP_PARAM);
        return p;
      },
      { replace: true },
    );
    changePickupStore(order.orderNo, token)
      .then(async (updated) => {
        client.setQueryData(['orders', 'detail', order.orderNo], updated);
        await client.invalidateQueries({ queryKey: ['orders'] });
        toast.success('已更換取件門市，包裹會改送到新門市。');
      })
      .catch((e: unknown) => setError(errorMessage(e)));
  }, [token, order.orderNo, client, setParams]);

  if (!order.needsNewStore || !brand) return null;
  const open = async () => {
    setBusy(true);
    setError(null);
    try {
      await openNewStoreMap({ brand, returnTo: 'order', orderNo: order.orderNo, device: mapDevice() });
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <Alert tone="warning" title="取件門市已關轉，請重新選擇門市">
      <p>
        原本的取件門市（{order.shipping.store}）已關轉，包裹無法送達。請選擇另一間
        {inSentence(CVS_BRAND_NAMES[brand])}門市，我們會改送到新門市。
      </p>
      {error && <p className="mt-2 text-danger">{error}</p>}
      <Button className="mt-3" loading={busy || Boolean(token)} onClick={() => void open()}>
        選擇新的{inSentence(CVS_BRAND_NAMES[brand])}門市
      </Button>
    </Alert>
  );
}
