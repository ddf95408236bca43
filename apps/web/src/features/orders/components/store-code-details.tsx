import { useEffect, useState } from 'react';
import { formatTwd } from '@shop/shared/money';
import { BARCODE_STORES, CVS_CODE_KIOSKS, type StoreCodeView } from '@shop/shared/store-payments';
import { CopyButton } from '../../../components/copy-button.tsx';

/**
 * What the buyer takes to the store, as on /payComplete and the order page: a CVS code to type at a
 * chain's kiosk, or three barcodes to show at any chain's counter; the amount and the deadline
 * (the server words it). The barcodes are drawn for scanning, on screen and on paper.
 */
export function StoreCodeDetails({ store, total }: { store: StoreCodeView; total: number }) {
  return (
    <div className="flex flex-col gap-3 text-ink">
      <dl className="grid grid-cols-[auto_1fr] items-baseline gap-x-6 gap-y-2">
        {store.paymentNo && (
          <>
            <dt className="text-ink-muted">繳費代碼</dt>
            <dd className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span
                className="tabular text-lg font-semibold tracking-wider whitespace-nowrap select-all"
                data-testid="store-payment-no"
              >
                {store.paymentNo}
              </span>
              <CopyButton text={store.paymentNo} what="繳費代碼" />
            </dd>
          </>
        )}
        <dt className="text-ink-muted">繳費金額</dt>
        <dd className="tabular font-medium">{formatTwd(total)}</dd>
        <dt className="text-ink-muted">繳費期限</dt>
        <dd className="tabular" data-testid="store-deadline">
          {store.deadline} 前
        </dd>
      </dl>
      {store.barcodes ? (
        <>
          <p className="text-sm">
            {`請到 ${BARCODE_STORES.join('、')}的櫃檯，請店員依序掃描下面三段條碼後付款（可直接出示手機畫面，或列印這一頁）。`}
          </p>
          <ol className="flex flex-col gap-3" aria-label="繳費條碼">
            {store.barcodes.map((code, i) => (
              <li key={`${i}-${code}`} className="rounded-md border border-line bg-white p-3">
                <p className="mb-1 text-xs text-ink-muted">{`第 ${i + 1} 段`}</p>
                <Code39 value={code} />
                <p
                  className="tabular mt-1 text-center text-sm tracking-wider"
                  data-testid={`store-barcode-${i + 1}`}
                >
                  {code}
                </p>
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="self-start text-sm text-tea underline underline-offset-4 print:hidden"
            onClick={() => window.print()}
          >
            列印條碼
          </button>
        </>
      ) : (
        <p className="text-sm">
          {`請到超商的多媒體機（${CVS_CODE_KIOSKS.join('、')}）選「代碼繳費」輸入上面的代碼，列印繳費單後到櫃檯付款。`}
        </p>
      )}
      <p className="text-xs text-ink-muted">
        超商收款後會通知我們{store.barcodes ? '（條碼繳費約需 2 天）' : ''}
        ，確認後即為您出貨。逾期未繳費，訂單會自動取消；請勿重複繳費。
      </p>
    </div>
  );
}

/** One barcode, drawn once its small library has loaded (it is not in the page's first chunk). */
function Code39({ value }: { value: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import('./code39-svg.ts')
      .then((m) => live && setSvg(m.code39Svg(value)))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [value]);
  if (failed)
    return <p className="text-sm text-danger">條碼無法顯示，請重新整理頁面，或把下面的號碼告訴店員。</p>;
  if (!svg) return <div aria-hidden="true" className="h-16 animate-shimmer rounded bg-line/70" />;
  return (
    <div
      role="img"
      aria-label={`條碼 ${value}`}
      data-testid="store-barcode-image"
      className="flex justify-center [&>svg]:h-16 [&>svg]:w-full [&>svg]:max-w-md"
      // bwip-js's own SVG for a value the server checked is Code 39 (digits, capitals, - . $ / + %).
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
