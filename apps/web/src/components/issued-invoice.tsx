import type { IssuedInvoiceView } from '@shop/shared/orders';
import { formatTwd } from '@shop/shared/money';
import { formatEcpayDate, formatTaipeiDate, formatTaipeiDateTime } from '@shop/shared/taipei-time';

type Allowance = Extract<IssuedInvoiceView, { allowances: unknown }>['allowances'][number];

/** Where an allowance stands: the buyer agrees online within 72 hours (ECPay's mail), or it lapses. */
function allowanceState(a: Allowance) {
  if (a.state === 'issued')
    return { text: `已開立${a.issuedAt ? `（${formatTaipeiDate(a.issuedAt)}）` : ''}`, className: '' };
  if (a.state === 'pending')
    return {
      text: `待買受人同意${a.expiresAt ? `，期限 ${formatTaipeiDateTime(a.expiresAt)}` : ''}（綠界已寄信）`,
      className: 'font-medium text-ink',
    };
  return { text: '逾期未同意，未折讓', className: 'text-danger' };
}

/** AB12345678 as it is printed on an invoice: AB-12345678. */
const printed = (no: string) => `${no.slice(0, 2)}-${no.slice(2)}`;

/**
 * The order's uniform e-invoice as ECPay issued it (number, date, random code), its allowances and
 * whether it was voided; "being issued" while the shop waits for ECPay. Nothing before the order
 * is paid (delivered, for cash on delivery).
 */
export function IssuedInvoice({ invoice }: { invoice: IssuedInvoiceView | null }) {
  if (!invoice) return null;
  if (invoice.status === 'pending')
    return <p className="text-sm text-ink-muted">發票開立中，完成後會寄信通知您。</p>;
  return (
    <div className="text-sm" data-testid="issued-invoice">
      <dl className="grid grid-cols-[4.5rem_1fr] gap-x-3 gap-y-1">
        <dt className="text-ink-muted">發票號碼</dt>
        <dd className="tabular">
          {printed(invoice.invoiceNo)}
          {invoice.status === 'void' && <span className="ml-2 text-danger">已作廢</span>}
        </dd>
        <dt className="text-ink-muted">開立日期</dt>
        <dd className="tabular">{formatEcpayDate(invoice.invoiceDate)}</dd>
        <dt className="text-ink-muted">隨機碼</dt>
        <dd className="tabular">{invoice.randomNumber}</dd>
        <dt className="text-ink-muted">金額</dt>
        <dd className="tabular">{formatTwd(invoice.amount)}</dd>
      </dl>
      {invoice.status === 'void' && invoice.voidReason && (
        <p className="mt-2 text-ink-muted">作廢原因：{invoice.voidReason}</p>
      )}
      {invoice.award && (
        <p className="mt-2 font-medium text-tea-dark" data-testid="invoice-award">
          {invoice.award.label}：{invoice.award.prize}
          {invoice.award.amount !== null && (
            <span className="tabular">（{formatTwd(invoice.award.amount)}）</span>
          )}
          ，領獎期限至 <span className="tabular">{formatTaipeiDate(invoice.award.claimUntil)}</span>
        </p>
      )}
      {invoice.allowances.length > 0 && (
        <ul className="mt-2 flex flex-col gap-1 text-ink-muted" aria-label="發票折讓">
          {invoice.allowances.map((a) => (
            <li key={a.allowanceNo}>
              折讓 <span className="tabular">{formatTwd(a.amount)}</span>（{a.reason}）・單號{' '}
              <span className="tabular">{a.allowanceNo}</span>・
              <span className={allowanceState(a).className}>{allowanceState(a).text}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
