import { formatTwd } from '@shop/shared/money';
import { SHIPPING_METHODS, SHIPPING_METHOD_LABELS, effectiveFreeOver } from '@shop/shared/shipping';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Container, PageHeader } from '../../../components/ui/page.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { useIsLogin } from '../../../features/auth/stores/user-store.ts';
import { useShippingRules } from '../../../features/checkout/api/shipping-rules.ts';
import { membershipQueryOptions } from '../../../features/member/api/member-api.ts';
import { LoadError } from '../../../components/load-error.tsx';

/** An amount from the fee table, or a placeholder of the same size while it loads. */
function Amount({ value }: { value: number | undefined }) {
  return value === undefined ? (
    <Skeleton className="inline-block h-4 w-16 align-middle" />
  ) : (
    <span className="tabular">{formatTwd(value)}</span>
  );
}

const CAPTION = '各配送方式的運費與免運門檻';

/** The chains a store pickup reaches, each name kept whole (「7-ELEVEN」 never breaks at its hyphen). */
function Chains() {
  return (
    <span className="block text-xs font-normal text-ink-muted">
      {['7-ELEVEN', '全家', '萊爾富', 'OK超商'].map((name, i) => (
        <span key={name}>
          {i > 0 && '、'}
          <span className="whitespace-nowrap">{name}</span>
        </span>
      ))}
    </span>
  );
}

/** /shippingFee: the fee table checkout charges by, as the server serves it (never a copy). */
export default function ShippingFeePage() {
  const isLogin = useIsLogin();
  const membership = useQuery({ ...membershipQueryOptions(), enabled: isLogin });
  const rules = useShippingRules();
  const data = rules.data;
  const tier = membership.data?.current;
  return (
    <Container className="py-10 sm:py-14">
      <PageHeader title="運費說明" lead="運費依配送方式計算，滿額免運；金額以結帳頁為準。" />
      {rules.isError && !data ? (
        <LoadError query={rules} title="運費表暫時無法載入" className="mt-8" />
      ) : (
        <>
          {/* A table from 640 px up; on phones one card per method, as /patentsAndTrademarks does, so nothing wraps a column to a word a line. */}
          <div
            className="relative mt-8 hidden overflow-x-auto rounded-xl border border-line bg-surface sm:block"
            aria-busy={!data}
          >
            <table className="w-full text-sm">
              <caption className="sr-only">{CAPTION}</caption>
              <thead className="bg-paper text-left text-ink-muted">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium whitespace-nowrap">
                    配送方式
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium whitespace-nowrap">
                    運費
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium whitespace-nowrap">
                    免運門檻
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    出貨與到貨
                  </th>
                </tr>
              </thead>
              <tbody>
                {SHIPPING_METHODS.map((method) => {
                  const r = data?.[method];
                  return (
                    <tr key={method} className="border-t border-line">
                      <th scope="row" className="px-4 py-3 text-left font-medium">
                        {SHIPPING_METHOD_LABELS[method]}
                        {method === 'cvs' && <Chains />}
                      </th>
                      <td className="px-4 py-3 whitespace-nowrap">
                        <Amount value={r?.fee} />
                      </td>
                      <td className="px-4 py-3 whitespace-nowrap">
                        {r ? (
                          <span className="tabular">滿 {formatTwd(r.freeOver)}</span>
                        ) : (
                          <Skeleton className="h-4 w-20" />
                        )}
                      </td>
                      <td className="px-4 py-3 text-ink-muted">
                        {r ? r.leadTime : <Skeleton className="h-4 w-48" />}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <ul className="mt-8 flex flex-col gap-3 sm:hidden" aria-label={CAPTION} aria-busy={!data}>
            {SHIPPING_METHODS.map((method) => {
              const r = data?.[method];
              return (
                <li key={method} className="rounded-xl border border-line bg-surface p-4">
                  <p className="font-medium">
                    {SHIPPING_METHOD_LABELS[method]}
                    {method === 'cvs' && <Chains />}
                  </p>
                  <dl className="mt-3 grid grid-cols-[5em_1fr] gap-x-3 gap-y-1 text-sm">
                    <dt className="text-ink-muted">運費</dt>
                    <dd>
                      <Amount value={r?.fee} />
                    </dd>
                    <dt className="text-ink-muted">免運門檻</dt>
                    <dd>
                      {r ? (
                        <span className="tabular">滿 {formatTwd(r.freeOver)}</span>
                      ) : (
                        <Skeleton className="h-4 w-20" />
                      )}
                    </dd>
                    <dt className="text-ink-muted">出貨與到貨</dt>
                    <dd>{r ? r.leadTime : <Skeleton className="h-4 w-40" />}</dd>
                  </dl>
                </li>
              );
            })}
          </ul>
          <ul className="mt-6 flex max-w-3xl list-disc flex-col gap-2 pl-5 text-sm">
            <li>
              澎湖、金門、馬祖、綠島、蘭嶼、小琉球等離島宅配或門市取貨，每筆加收{' '}
              <Amount value={data?.outlyingSurcharge} />
              ，滿額免運時仍需加收。
            </li>
            <li>
              選擇貨到付款（宅配）或超商取貨付款，每筆加收手續費 <Amount value={data?.codFee} />。
            </li>
            <li>免運門檻以折扣後的商品金額計算。</li>
            <li>
              銀卡與金卡會員享有更低的免運門檻，詳見
              <Link to={paths.membershipAndDiscounts()} className={textLinkClass}>
                會員等級與優惠
              </Link>
              。
              {tier?.freeShippingOver &&
                data &&
                ` 您目前是${tier.name}，宅配滿 ${formatTwd(effectiveFreeOver(data.home.freeOver, tier.freeShippingOver))} 即免運。`}
            </li>
          </ul>
        </>
      )}
    </Container>
  );
}
