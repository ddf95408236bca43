import { formatTwd } from '@shop/shared/money';
import { COD_FEE, OUTLYING_SURCHARGE, SHIPPING_RULES } from '@shop/shared/shipping';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Container, PageHeader } from '../../../components/ui/page.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { useIsLogin } from '../../../features/auth/stores/user-store.ts';
import { membershipQueryOptions } from '../../../features/member/api/member-api.ts';

/** /shippingFee: drawn from the same fee table checkout charges by, never a copy. */
export default function ShippingFeePage() {
  const isLogin = useIsLogin();
  const membership = useQuery({ ...membershipQueryOptions(), enabled: isLogin });
  const rules = Object.values(SHIPPING_RULES);
  return (
    <Container className="py-10 sm:py-14">
      <PageHeader title="運費說明" lead="運費依配送方式計算，滿額免運；金額以結帳頁為準。" />
      <div className="relative mt-8 overflow-x-auto rounded-xl border border-line bg-surface">
        <table className="w-full text-sm">
          <caption className="sr-only">各配送方式的運費與免運門檻</caption>
          <thead className="bg-paper text-left text-ink-muted">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">配送方式</th>
              <th scope="col" className="px-4 py-3 font-medium">運費</th>
              <th scope="col" className="px-4 py-3 font-medium">免運門檻</th>
              <th scope="col" className="px-4 py-3 font-medium">出貨與到貨</th>
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr key={r.method} className="border-t border-line">
                <th scope="row" className="px-4 py-3 text-left font-medium">
                  {r.label}
                  {r.method === 'cvs' && <span className="block text-xs font-normal text-ink-muted">7-ELEVEN、全家、萊爾富、OK超商</span>}
                </th>
                <td className="tabular px-4 py-3">{formatTwd(r.fee)}</td>
                <td className="tabular px-4 py-3">滿 {formatTwd(r.freeOver)}</td>
                <td className="px-4 py-3 text-ink-muted">{r.leadTime}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="mt-6 flex max-w-3xl list-disc flex-col gap-2 pl-5 text-sm">
        <li>澎湖、金門、馬祖、綠島、蘭嶼、小琉球等離島宅配，每筆加收 {formatTwd(OUTLYING_SURCHARGE)}，滿額免運時仍需加收。</li>
        <li>選擇貨到付款（宅配）或超商取貨付款，每筆加收手續費 {formatTwd(COD_FEE)}。</li>
        <li>免運門檻以折扣後的商品金額計算。</li>
        <li>
          銀卡與金卡會員享有更低的免運門檻，詳見
          <Link to={paths.membershipAndDiscounts()} className={textLinkClass}>
            會員等級與優惠
          </Link>
          。
          {membership.data?.current.freeShippingOver && ` 您目前是${membership.data.current.name}，宅配滿 ${formatTwd(membership.data.current.freeShippingOver)} 即免運。`}
        </li>
      </ul>
    </Container>
  );
}
