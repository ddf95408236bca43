import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { z } from 'zod';
import { adminPath } from '@shop/shared/admin-routes';
import { formatTwd } from '@shop/shared/money';
import { groupDigits } from '@shop/shared/atm';
import type { TransferTasksResponse } from '@shop/shared/returns';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { FORM_MODE, useApiSubmit } from '../../../lib/form.ts';
import { adminKeys } from '../../shared/api.ts';
import { Facts } from '../../shared/panel.tsx';
import { useCan } from '../../shared/use-admin-me.ts';
import { returnsApi } from '../api.ts';
import { returnsKeys, transfersQuery } from '../queries.ts';

type Task = TransferTasksResponse['items'][number];
type Bank = NonNullable<Task['bank']>;

/** An account number as staff type it into their bank's app: digits in groups of four, with a copy button. */
function AccountNumber({ account }: { account: string }) {
  return (
    <span className="flex flex-wrap items-center gap-x-1 gap-y-1">
      <span className="tabular text-base font-medium tracking-wide whitespace-nowrap select-all">
        {groupDigits(account)}
      </span>
      <CopyButton
        text={account}
        what="帳號"
        label={`複製帳號 ${account}`}
        className={buttonClass('ghost', 'md', '-my-1 px-2 text-tea')}
      />
    </span>
  );
}

const DoneFields = z.object({ note: z.string().trim().max(200, '備註最多 200 個字') });

function DoneForm({ task, bank, onClose }: { task: Task; bank: Bank; onClose(): void }) {
  const client = useQueryClient();
  const form = useForm({ mode: FORM_MODE, resolver: zodResolver(DoneFields), defaultValues: { note: '' } });
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => returnsApi.transferDone(task.id, v.note),
    (tasks) => {
      client.setQueryData(returnsKeys.transfers(), tasks);
      toast.success('已標記為已轉帳，會員會收到退款完成通知信。');
      onClose();
      // The returns list shows each refund's state; the order page (another domain, under 'admin' → 'orders') too.
      void client.invalidateQueries({ queryKey: returnsKeys.lists() });
      void client.invalidateQueries({ queryKey: [...adminKeys.all, 'orders'] });
    },
  );
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      <p className="text-sm leading-relaxed">
        確認已轉帳 <span className="tabular font-semibold">{formatTwd(task.amount)}</span> 到 {bank.bankName}
        （<span className="tabular">{bank.bankCode}</span>）
        <span className="tabular whitespace-nowrap">{groupDigits(bank.account)}</span>，戶名 {bank.holder}
        ？標記後，會員會收到退款完成的通知信。
      </p>
      {formError && <Alert tone="error">{formError}</Alert>}
      <TextField
        label="備註"
        maxLength={200}
        autoComplete="off"
        hint="選填，例如轉帳交易序號；只記在退款與操作紀錄，會員看不到"
        error={errors.note?.message}
        {...form.register('note')}
      />
      <div className="flex flex-wrap justify-end gap-3 pt-1">
        <Button variant="ghost" onClick={onClose}>
          返回
        </Button>
        <Button type="submit" loading={isSubmitting}>
          標記已轉帳
        </Button>
      </div>
    </form>
  );
}

function TaskCard({ task, canWrite, onDone }: { task: Task; canWrite: boolean; onDone(): void }) {
  const { bank } = task;
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-xl border border-line bg-surface p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <span className="tabular text-xl font-semibold whitespace-nowrap">{formatTwd(task.amount)}</span>
        <span className="tabular text-xs text-ink-muted">建立於 {formatTaipeiDateTime(task.createdAt)}</span>
      </div>
      <Facts
        rows={[
          [
            '訂單',
            <Link
              to={adminPath.orderDetail(task.orderNo)}
              className="tabular text-tea underline underline-offset-4"
            >
              {task.orderNo}
            </Link>,
          ],
          ['會員', task.memberName || '（未填姓名）'],
          ['原因', task.reason],
        ]}
      />
      {bank ? (
        <div className="rounded-lg bg-paper px-3 py-2">
          <Facts
            rows={[
              [
                '銀行',
                <>
                  {bank.bankName}（<span className="tabular">{bank.bankCode}</span>）
                </>,
              ],
              ['帳號', <AccountNumber account={bank.account} />],
              ['戶名', bank.holder],
            ]}
          />
        </div>
      ) : (
        <p className="rounded-lg bg-paper px-3 py-2 text-sm text-ink-muted">
          等待會員提供帳戶：會員在訂單頁填好退款帳戶後，這裡會出現轉帳資料。
        </p>
      )}
      {canWrite && bank && (
        <div>
          <Button onClick={onDone} aria-label={`標記已轉帳：${task.orderNo} ${formatTwd(task.amount)}`}>
            標記已轉帳
          </Button>
        </div>
      )}
    </li>
  );
}

/** 「待轉帳退款」: ATM and cash-on-delivery refunds staff transfer by hand, oldest first. */
export function TransferTasks() {
  const canWrite = useCan('orders.write');
  const query = useQuery(transfersQuery());
  const [doing, setDoing] = useState<string | null>(null);
  const task = query.data?.items.find((t) => t.id === doing);
  const close = () => setDoing(null);
  return (
    <section aria-labelledby="transfers-title" className="flex flex-col gap-3">
      <div>
        <h2 id="transfers-title" className="text-lg font-semibold">
          待轉帳退款
          {query.data && query.data.items.length > 0 && (
            <span className="tabular">（{query.data.items.length} 筆）</span>
          )}
        </h2>
        <p className="text-sm text-ink-muted">
          ATM 轉帳與貨到付款的訂單，退款要由店家匯到會員的帳戶；轉帳後請標記完成。
        </p>
      </div>
      {query.isError ? (
        <LoadError title="待轉帳退款暫時無法載入" query={query} />
      ) : !query.data ? (
        <div role="status" aria-label="載入待轉帳退款" className="grid gap-3 md:grid-cols-2">
          <Skeleton className="h-48 w-full" />
          <Skeleton className="h-48 w-full" />
        </div>
      ) : query.data.items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line bg-surface/60 px-4 py-6 text-center text-sm text-ink-muted">
          目前沒有待轉帳的退款。
        </p>
      ) : (
        <ul className="grid items-start gap-3 md:grid-cols-2" aria-label="待轉帳退款">
          {query.data.items.map((t) => (
            <TaskCard key={t.id} task={t} canWrite={canWrite} onDone={() => setDoing(t.id)} />
          ))}
        </ul>
      )}
      <Dialog open={Boolean(task?.bank)} onClose={close} title={task ? `標記已轉帳：${task.orderNo}` : ''}>
        {task?.bank && <DoneForm key={task.id} task={task} bank={task.bank} onClose={close} />}
      </Dialog>
    </section>
  );
}
