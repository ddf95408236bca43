import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { CouponDetail } from '@shop/shared/admin-coupons';
import { adminPath } from '@shop/shared/admin-routes';
import { formatTwd } from '@shop/shared/money';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorMessage } from '../../../lib/form.ts';
import { AdminPage } from '../../shared/admin-page.tsx';
import { CouponForm, couponFormValues, newCouponValues } from '../components/coupon-form.tsx';
import { couponKeys, couponOptionsQuery, couponQuery } from '../queries.ts';
import { useCan } from '../../shared/use-admin-me.ts';
import { CouponStateBadge, CouponUsage } from '../components/coupon-badges.tsx';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { couponsApi } from '../api.ts';

function Redemptions({ coupon }: { coupon: CouponDetail }) {
  if (coupon.redemptions.length === 0)
    return <p className="text-sm text-ink-muted">還沒有人使用這張優惠券。</p>;
  return (
    <div className="relative -mx-5 overflow-x-auto sm:-mx-6">
      <table className="w-full text-sm">
        <caption className="sr-only">最近的使用紀錄</caption>
        <thead className="text-ink-muted">
          <tr>
            <th scope="col" className="px-5 py-2 text-left font-medium whitespace-nowrap sm:px-6">
              訂單編號
            </th>
            <th scope="col" className="px-3 py-2 text-left font-medium whitespace-nowrap">
              會員
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium whitespace-nowrap">
              折抵金額
            </th>
            <th scope="col" className="px-5 py-2 text-left font-medium whitespace-nowrap sm:px-6">
              使用時間
            </th>
          </tr>
        </thead>
        <tbody>
          {coupon.redemptions.map((r) => (
            <tr key={r.orderNo} className="border-t border-line">
              <td className="px-5 py-2.5 sm:px-6">
                <Link
                  to={adminPath.orderDetail(r.orderNo)}
                  className="tabular font-medium whitespace-nowrap text-tea underline-offset-4 hover:underline"
                >
                  {r.orderNo}
                </Link>
              </td>
              <td className="px-3 py-2.5">
                <Link
                  to={adminPath.memberDetail(r.memberId)}
                  className="text-tea underline-offset-4 hover:underline"
                >
                  {r.memberName}
                </Link>
                <span className="block text-xs break-all text-ink-muted">{r.memberEmail}</span>
              </td>
              <td className="tabular px-3 py-2.5 text-right whitespace-nowrap">{formatTwd(r.amount)}</td>
              <td className="tabular px-5 py-2.5 whitespace-nowrap sm:px-6">{formatTaipeiDateTime(r.at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Pause or resume: a paused code is refused at checkout at once. */
function PauseButton({ coupon }: { coupon: CouponDetail }) {
  const client = useQueryClient();
  const pausing = coupon.status === 'active';
  const mutation = useMutation({
    mutationFn: () => couponsApi.setPaused(coupon.id, pausing),
    onSuccess: (detail) => {
      client.setQueryData(couponKeys.detail(coupon.id), detail);
      void client.invalidateQueries({ queryKey: couponKeys.lists() });
      toast.success(pausing ? `已暫停 ${detail.code}，結帳時會立刻無法使用。` : `已恢復 ${detail.code}。`);
    },
    onError: (error) => {
      toast.error(errorMessage(error));
      void client.invalidateQueries({ queryKey: couponKeys.detail(coupon.id) });
    },
  });
  if (coupon.state === 'expired' && pausing) return null;
  return (
    <Button
      variant={pausing ? 'secondary' : 'primary'}
      loading={mutation.isPending}
      onClick={() => mutation.mutate()}
    >
      {pausing ? '暫停使用' : '恢復使用'}
    </Button>
  );
}

function Summary({ coupon }: { coupon: CouponDetail }) {
  return (
    <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4">
      <div>
        <dt className="text-ink-muted">狀態</dt>
        <dd className="mt-1">
          <CouponStateBadge state={coupon.state} />
        </dd>
      </div>
      <div>
        <dt className="text-ink-muted">已使用 / 上限</dt>
        <dd className="mt-1">
          <CouponUsage used={coupon.usedCount} limit={coupon.totalLimit} align="start" />
        </dd>
      </div>
      <div>
        <dt className="text-ink-muted">建立時間</dt>
        <dd className="tabular mt-1">{formatTaipeiDateTime(coupon.createdAt)}</dd>
      </div>
      <div>
        <dt className="text-ink-muted">最後修改</dt>
        <dd className="tabular mt-1">{formatTaipeiDateTime(coupon.updatedAt)}</dd>
      </div>
    </dl>
  );
}

/** /admin/coupons/new and /admin/coupons/:couponId: the coupon form, pause/resume and the latest uses. */
export default function CouponEditPage() {
  const { couponId } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const canWrite = useCan('coupons.write');
  const listSearch = (location.state as { listSearch?: string } | null)?.listSearch ?? '';
  const back = { to: `${adminPath.coupons()}${listSearch}`, label: '優惠券列表' };
  const options = useQuery(couponOptionsQuery());
  const query = useQuery({ ...couponQuery(couponId ?? ''), enabled: Boolean(couponId) });
  const [initialNew] = useState(() => newCouponValues());

  if (!couponId) {
    return (
      <AdminPage
        title="新增優惠券"
        back={back}
        description="建立後立即生效（從開始時間起）。會員等級與商品分類的限制可以一起設定。"
      >
        <Card>
          <CouponForm
            initial={initialNew}
            options={options.data}
            readOnly={!canWrite}
            submitLabel="建立優惠券"
            onSubmit={couponsApi.create}
            onSaved={(detail) => {
              client.setQueryData(couponKeys.detail(detail.id), detail);
              void client.invalidateQueries({ queryKey: couponKeys.lists() });
              toast.success(`已建立優惠券 ${detail.code}。`);
              void navigate(adminPath.couponEdit(detail.id), { replace: true, state: { listSearch } });
            }}
          />
        </Card>
      </AdminPage>
    );
  }

  if (query.isError) {
    const notFound =
      query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <AdminPage title="編輯優惠券" back={back}>
        {notFound ? (
          <EmptyState title="找不到這張優惠券" description="網址可能有誤，或優惠券已經刪除。" />
        ) : (
          <LoadError title="優惠券暫時無法載入" query={query} />
        )}
      </AdminPage>
    );
  }
  if (!query.data) {
    return (
      <AdminPage title="編輯優惠券" back={back}>
        <Card role="status" aria-label="載入中">
          <SkeletonText lines={10} />
        </Card>
      </AdminPage>
    );
  }

  const coupon = query.data;
  return (
    <AdminPage
      title={canWrite ? `編輯優惠券 ${coupon.code}` : `優惠券 ${coupon.code}`}
      back={back}
      description={coupon.name}
      actions={canWrite ? <PauseButton coupon={coupon} /> : undefined}
    >
      <Card>
        <Summary coupon={coupon} />
      </Card>
      {coupon.ownerEmail && (
        <Alert tone="info" title="會員專屬優惠券">
          只有 {coupon.ownerEmail} 能使用（例如生日月禮券），不會出現在其他會員的優惠券裡。
        </Alert>
      )}
      {!canWrite && <Alert tone="info">您的角色可以查看優惠券，但只有店主可以修改。</Alert>}
      <Card>
        <h2 className="mb-4 text-lg font-semibold">優惠內容</h2>
        <CouponForm
          key={coupon.id}
          initial={couponFormValues(coupon)}
          options={options.data}
          readOnly={!canWrite}
          submitLabel="儲存變更"
          onSubmit={(body) => couponsApi.update(coupon.id, body)}
          onSaved={(detail, form) => {
            client.setQueryData(couponKeys.detail(detail.id), detail);
            void client.invalidateQueries({ queryKey: couponKeys.lists() });
            form.reset(couponFormValues(detail));
            toast.success('已儲存優惠券。');
          }}
        />
      </Card>
      <Card>
        <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-lg font-semibold">最近的使用紀錄</h2>
          <span className="text-sm text-ink-muted">
            共使用 {coupon.usedCount} 次
            {coupon.usedCount > coupon.redemptions.length ? `，顯示最近 ${coupon.redemptions.length} 筆` : ''}
          </span>
        </div>
        <Redemptions coupon={coupon} />
      </Card>
    </AdminPage>
  );
}
