import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  MAX_IMPORT_BYTES,
  PRODUCT_CSV_COLUMNS,
  type ImportErrorBody,
  type ImportResult,
} from '@shop/shared/admin-products';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { errorMessage } from '../../../lib/form.ts';
import { productKeys } from '../queries.ts';
import { productsApi } from '../api.ts';

type State =
  | { kind: 'idle' }
  | { kind: 'sending'; fileName: string }
  | { kind: 'done'; fileName: string; result: ImportResult }
  | { kind: 'refused'; fileName: string; error: ImportErrorBody['error'] }
  | { kind: 'failed'; fileName: string; message: string };

function Summary({ result }: { result: ImportResult }) {
  const items = [
    ['新增商品', result.productsCreated],
    ['更新商品', result.productsUpdated],
    ['新增規格', result.variantsCreated],
    ['更新規格', result.variantsUpdated],
    ['沒有變更的列', result.unchanged],
  ] as const;
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
      {items.map(([label, n]) => (
        <div key={label} className="rounded-lg border border-line px-3 py-2">
          <dt className="text-xs text-ink-muted">{label}</dt>
          <dd className="tabular text-xl font-semibold">{n}</dd>
        </div>
      ))}
    </dl>
  );
}

function Problems({ error }: { error: ImportErrorBody['error'] }) {
  return (
    <div className="flex flex-col gap-3">
      <Alert tone="error" title="沒有匯入任何資料">
        {error.message}
      </Alert>
      <div className="relative max-h-80 overflow-auto rounded-lg border border-line">
        <table className="w-full text-sm">
          <caption className="sr-only">檔案的問題，共 {error.problems.length} 個</caption>
          <thead className="sticky top-0 bg-paper text-left text-ink-muted">
            <tr>
              <th scope="col" className="w-16 px-3 py-2 font-medium">
                列
              </th>
              <th scope="col" className="w-40 px-3 py-2 font-medium">
                欄位
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                問題
              </th>
            </tr>
          </thead>
          <tbody>
            {error.problems.map((p, i) => (
              <tr key={i} className="border-t border-line align-top">
                <td className="tabular px-3 py-2 whitespace-nowrap">
                  {p.row === 0 ? '—' : `第 ${p.row} 列`}
                </td>
                <td className="px-3 py-2">
                  {p.column ? <code className="rounded bg-paper px-1">{p.column}</code> : '—'}
                </td>
                <td className="px-3 py-2">{p.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function ImportBody({ onClose }: { onClose(): void }) {
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ kind: 'idle' });

  const send = async (file: File) => {
    if (file.size > MAX_IMPORT_BYTES) {
      setState({
        kind: 'failed',
        fileName: file.name,
        message: `檔案超過 ${MAX_IMPORT_BYTES / 1024 / 1024} MB，請分批匯入。`,
      });
      return;
    }
    setState({ kind: 'sending', fileName: file.name });
    try {
      const outcome = await productsApi.importCsv(file);
      if (outcome.ok) {
        setState({ kind: 'done', fileName: file.name, result: outcome.result });
        void client.invalidateQueries({ queryKey: productKeys.all });
      } else setState({ kind: 'refused', fileName: file.name, error: outcome.error });
    } catch (error) {
      setState({ kind: 'failed', fileName: file.name, message: errorMessage(error) });
    } finally {
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2 text-sm leading-relaxed">
        <p>
          請使用
          <a href={productsApi.exportUrl} download className="mx-1 text-tea underline underline-offset-4">
            匯出的 CSV
          </a>
          作為範本，一列一個規格。商品以網址代碼（product_slug）比對、規格以 SKU
          比對：已有的會更新，新的會新增；檔案裡沒有的規格維持不變。
        </p>
        <p className="text-ink-muted">
          欄位：<code className="break-words">{PRODUCT_CSV_COLUMNS.join(', ')}</code>
          。匯入前會先檢查每一列，只要有一列有問題就不會變更任何資料。用 Excel 編輯時，請存成「CSV
          UTF-8（逗號分隔）」。
        </p>
        <p className="text-ink-muted">
          庫存：stock_at_export 是匯出當時的庫存，請不要修改。匯入時以 stock
          減去它的差額增減目前庫存，匯出後賣出的數量不會被蓋掉；差額會讓庫存少於 0
          時，整個檔案不會匯入。匯出時，以 =、+、-、@
          開頭的文字前面會加上「'」，避免試算表當成公式執行；匯入時會自動去掉。
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <label
          className={buttonClass(
            'primary',
            'md',
            'cursor-pointer focus-within:outline-3 focus-within:outline-offset-2 focus-within:outline-tea-dark',
          )}
        >
          {state.kind === 'idle' ? '選擇 CSV 檔案' : '選擇其他檔案'}
          <input
            ref={input}
            type="file"
            accept=".csv,text/csv"
            className="sr-only"
            disabled={state.kind === 'sending'}
            onChange={(e) => e.target.files?.[0] && void send(e.target.files[0])}
          />
        </label>
        {state.kind !== 'idle' && (
          <span className="min-w-0 truncate text-sm text-ink-muted">{state.fileName}</span>
        )}
      </div>
      <div aria-live="polite" className="flex flex-col gap-3">
        {state.kind === 'sending' && (
          <p className="flex items-center gap-2 text-sm">
            <Spinner className="size-4" />
            正在檢查並匯入…
          </p>
        )}
        {state.kind === 'done' && (
          <>
            <Alert tone="success" title="匯入完成">
              共處理 {state.result.rows} 列。
            </Alert>
            <Summary result={state.result} />
          </>
        )}
        {state.kind === 'refused' && <Problems error={state.error} />}
        {state.kind === 'failed' && <Alert tone="error">{state.message}</Alert>}
      </div>
      <div className="flex justify-end">
        <Button variant={state.kind === 'done' ? 'primary' : 'ghost'} onClick={onClose}>
          {state.kind === 'done' ? '完成' : '關閉'}
        </Button>
      </div>
    </div>
  );
}

/** 「匯入 CSV」: pick a file, upload it, then either a summary or a table of row/column problems. */
export function ImportDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Dialog open={open} onClose={onClose} title="匯入 CSV" className="max-w-2xl">
      {open && <ImportBody onClose={onClose} />}
    </Dialog>
  );
}
