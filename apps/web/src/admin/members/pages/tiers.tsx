import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { UpdateTiersBody, type TierAdminView } from '@shop/shared/admin-coupons';
import { groupDigits } from '@shop/shared/money';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorMessage } from '../../../lib/form.ts';
import { AdminPage } from '../../shared/admin-page.tsx';
import { tiersQuery, memberKeys } from '../queries.ts';
import { useCan } from '../../shared/use-admin-me.ts';
import { membersApi } from '../api.ts';

interface Row {
  code: string;
  name: string;
  threshold: string;
  discountPercent: string;
  freeShippingOver: string;
  memberCount: number;
}
type Field = 'name' | 'threshold' | 'discountPercent' | 'freeShippingOver';

const toRows = (tiers: TierAdminView[]): Row[] =>
  tiers.map((t) => ({
    code: t.code,
    name: t.name,
    threshold: String(t.threshold),
    discountPercent: String(t.discountPercent),
    freeShippingOver: t.freeShippingOver === null ? '' : String(t.freeShippingOver),
    memberCount: t.memberCount,
  }));

const num = (s: string) => (s.trim() === '' ? undefined : Number(s.trim().replaceAll(',', '')));

const toBody = (rows: Row[]) => ({
  tiers: rows.map((r) => ({
    code: r.code,
    name: r.name,
    threshold: num(r.threshold),
    discountPercent: num(r.discountPercent),
    freeShippingOver: num(r.freeShippingOver) ?? null,
  })),
});

/** Field errors keyed `tiers.<i>.<field>` (the server's keys too), plus one for the whole table. */
function validate(rows: Row[]): Record<string, string> {
  const parsed = UpdateTiersBody.safeParse(toBody(rows));
  const errors: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) errors[issue.path.join('.') || 'tiers'] ??= issue.message;
  rows.forEach((r, i) => {
    if (r.threshold.trim() === '') errors[`tiers.${i}.threshold`] = '請填寫門檻（新臺幣元）';
    if (r.discountPercent.trim() === '') errors[`tiers.${i}.discountPercent`] = '請填寫折扣，沒有折扣請填 0';
  });
  return errors;
}

function Cell({
  id,
  label,
  value,
  onChange,
  error,
  prefix,
  suffix,
  inputMode,
  maxLength,
  disabled,
}: {
  id: string;
  label: string;
  value: string;
  onChange(v: string): void;
  error?: string | undefined;
  prefix?: string;
  suffix?: string;
  inputMode?: 'numeric';
  maxLength?: number;
  disabled: boolean;
}) {
  return (
    <div className="flex flex-col gap-1">
      <div
        className={cn(
          'flex min-h-11 items-center rounded-md border bg-surface focus-within:outline-3 focus-within:outline-tea-dark',
          error ? 'border-danger' : 'border-line',
          disabled && 'bg-paper',
        )}
      >
        {prefix && (
          <span className="pl-3 text-sm text-ink-muted" aria-hidden="true">
            {prefix}
          </span>
        )}
        <input
          id={id}
          aria-label={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          inputMode={inputMode}
          maxLength={maxLength}
          disabled={disabled}
          className="tabular w-full min-w-0 bg-transparent px-3 py-2 text-base text-ink focus:outline-none disabled:text-ink-muted"
        />
        {suffix && (
          <span className="pr-3 text-sm text-ink-muted" aria-hidden="true">
            {suffix}
          </span>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

function TierTable({ tiers, canWrite }: { tiers: TierAdminView[]; canWrite: boolean }) {
  const client = useQueryClient();
  const [rows, setRows] = useState(() => toRows(tiers));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const dirty =
    JSON.stringify(toRows(tiers).map(({ memberCount: _m, ...r }) => r)) !==
    JSON.stringify(rows.map(({ memberCount: _m, ...r }) => r));

  const save = useMutation({
    mutationFn: () => membersApi.saveTiers(toBody(rows)),
    onSuccess: (res) => {
      client.setQueryData(tiersQuery().queryKey, res);
      void client.invalidateQueries({ queryKey: memberKeys.all });
      setRows(toRows(res.tiers));
      toast.success('已儲存會員等級。新的折扣從會員下一次結帳起生效。');
    },
    onError: (error) => {
      const fields = error instanceof ApiError ? error.fields : undefined;
      if (fields && Object.keys(fields).length > 0) {
        setErrors(fields);
        if (fields.tiers || fields._) setFormError(fields.tiers ?? fields._ ?? null);
      } else setFormError(errorMessage(error));
    },
  });

  // Each field is checked as it changes, as the shop's forms are; its error shows beside it.
  const set = (i: number, field: Field, value: string) => {
    const next = rows.map((r, j) => (j === i ? { ...r, [field]: value } : r));
    setRows(next);
    const key = `tiers.${i}.${field}`;
    const message = validate(next)[key];
    setErrors(({ [key]: _gone, ...rest }) => (message ? { ...rest, [key]: message } : rest));
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const found = validate(rows);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      if (found.tiers) setFormError(found.tiers);
      const first = Object.keys(found).find((k) => k !== 'tiers');
      if (first) document.getElementById(`tier-${first.replaceAll('.', '-')}`)?.focus();
      return;
    }
    save.mutate();
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      {formError && <Alert tone="error">{formError}</Alert>}
      {Object.keys(errors).length > 0 && !formError && (
        <Alert tone="error">有欄位需要修正，請看表格中標示的地方。</Alert>
      )}
      <div className="relative overflow-x-auto rounded-xl border border-line bg-surface">
        <table className="w-full min-w-[760px] text-sm">
          <caption className="sr-only">會員等級，由低到高</caption>
          <thead className="bg-paper text-ink-muted">
            <tr>
              <th scope="col" className="px-4 py-3 text-left font-medium whitespace-nowrap">
                等級
              </th>
              <th scope="col" className="px-3 py-3 text-left font-medium whitespace-nowrap">
                名稱
              </th>
              <th scope="col" className="px-3 py-3 text-left font-medium whitespace-nowrap">
                升級門檻（近 12 個月消費）
              </th>
              <th scope="col" className="px-3 py-3 text-left font-medium whitespace-nowrap">
                每筆折扣
              </th>
              <th scope="col" className="px-3 py-3 text-left font-medium whitespace-nowrap">
                免運門檻
              </th>
              <th scope="col" className="px-4 py-3 text-right font-medium whitespace-nowrap">
                目前會員數
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const id = (f: Field) => `tier-tiers-${i}-${f}`;
              const err = (f: Field) => errors[`tiers.${i}.${f}`];
              const label = r.name || r.code;
              return (
                <tr key={r.code} className="border-t border-line align-top">
                  <th scope="row" className="px-4 py-3 text-left font-normal">
                    <span className="font-mono text-xs text-ink-muted">{r.code}</span>
                    <span className="block text-xs text-ink-muted">第 {i + 1} 級</span>
                  </th>
                  <td className="w-44 px-3 py-3">
                    <Cell
                      id={id('name')}
                      label={`${label}：名稱`}
                      value={r.name}
                      onChange={(v) => set(i, 'name', v)}
                      error={err('name')}
                      maxLength={10}
                      disabled={!canWrite}
                    />
                  </td>
                  <td className="w-52 px-3 py-3">
                    <Cell
                      id={id('threshold')}
                      label={`${label}：升級門檻（元）`}
                      prefix="NT$"
                      value={r.threshold}
                      onChange={(v) => set(i, 'threshold', v)}
                      error={err('threshold')}
                      inputMode="numeric"
                      disabled={!canWrite || i === 0}
                    />
                    {i === 0 && <p className="mt-1 text-xs text-ink-muted">最低等級固定為 0</p>}
                  </td>
                  <td className="w-36 px-3 py-3">
                    <Cell
                      id={id('discountPercent')}
                      label={`${label}：每筆折扣（%）`}
                      suffix="%"
                      value={r.discountPercent}
                      onChange={(v) => set(i, 'discountPercent', v)}
                      error={err('discountPercent')}
                      inputMode="numeric"
                      disabled={!canWrite}
                    />
                  </td>
                  <td className="w-52 px-3 py-3">
                    <Cell
                      id={id('freeShippingOver')}
                      label={`${label}：免運門檻（元，留空沿用全店規則）`}
                      prefix="NT$"
                      value={r.freeShippingOver}
                      onChange={(v) => set(i, 'freeShippingOver', v)}
                      error={err('freeShippingOver')}
                      inputMode="numeric"
                      disabled={!canWrite}
                    />
                    {r.freeShippingOver.trim() === '' && !err('freeShippingOver') && (
                      <p className="mt-1 text-xs text-ink-muted">沿用全店免運規則</p>
                    )}
                  </td>
                  <td className="tabular px-4 pt-6 pb-3 text-right">{groupDigits(r.memberCount)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {canWrite && (
        <div className="flex flex-wrap items-center justify-end gap-3">
          {dirty && <span className="text-sm text-ink-muted">有尚未儲存的變更</span>}
          {dirty && (
            <Button
              variant="ghost"
              onClick={() => {
                setRows(toRows(tiers));
                setErrors({});
                setFormError(null);
              }}
            >
              還原
            </Button>
          )}
          <Button type="submit" loading={save.isPending} disabled={!dirty}>
            儲存會員等級
          </Button>
        </div>
      )}
    </form>
  );
}

/** /admin/tiers: the membership tiers, edited all at once (the owner); everyone else reads them. */
export default function TiersPage() {
  const canWrite = useCan('coupons.write');
  const query = useQuery(tiersQuery());
  return (
    <AdminPage
      title="會員等級"
      description="會員依近 12 個月內已付款的消費金額升降級；每個等級有自己的每筆折扣與免運門檻。"
    >
      <Alert tone="info" title="修改不會改寫過去">
        <p>
          調整門檻後，會員不會立刻換等級：會在下一筆訂單付款（貨到付款則是送達）時，依新的門檻重新計算。折扣與免運的變更則從會員下一次結帳起生效，已成立的訂單不受影響。
        </p>
      </Alert>
      {!canWrite && <Alert tone="info">您的角色可以查看會員等級，但只有店主可以修改。</Alert>}
      {query.isError ? (
        <LoadError title="會員等級暫時無法載入" query={query} />
      ) : query.data ? (
        <TierTable tiers={query.data.tiers} canWrite={canWrite} />
      ) : (
        <div role="status" aria-label="載入中" className="rounded-xl border border-line bg-surface p-6">
          <SkeletonText lines={5} />
        </div>
      )}
    </AdminPage>
  );
}
