import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import {
  CouponBody,
  isoToTaipeiLocal,
  taipeiLocalToIso,
  type CouponBodyInput,
  type CouponDetail,
  type CouponOptions,
} from '@shop/shared/admin-coupons';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox, SelectField, TextField } from '../../../components/ui/field.tsx';
import { FORM_MODE, useApiSubmit } from '../../../lib/form.ts';

export interface CouponFormValues {
  code: string;
  name: string;
  kind: 'percent' | 'fixed';
  value: string;
  minSpend: string;
  startsAt: string;
  endsAt: string;
  totalLimit: string;
  perMemberLimit: string;
  tierCodes: string[];
  categoryIds: string[];
  listed: boolean;
}

const DAY = 86_400_000;

/** A new coupon: from the next full hour, for 30 days, once per member. */
export function newCouponValues(now = new Date()): CouponFormValues {
  const hour = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000);
  return {
    code: '',
    name: '',
    kind: 'fixed',
    value: '',
    minSpend: '0',
    startsAt: isoToTaipeiLocal(hour),
    endsAt: isoToTaipeiLocal(new Date(hour.getTime() + 30 * DAY)),
    totalLimit: '',
    perMemberLimit: '1',
    tierCodes: [],
    categoryIds: [],
    listed: false,
  };
}

export function couponFormValues(c: CouponDetail): CouponFormValues {
  return {
    code: c.code,
    name: c.name,
    kind: c.kind,
    value: String(c.value),
    minSpend: String(c.minSpend),
    startsAt: isoToTaipeiLocal(c.startsAt),
    endsAt: isoToTaipeiLocal(c.endsAt),
    totalLimit: c.totalLimit === null ? '' : String(c.totalLimit),
    perMemberLimit: String(c.perMemberLimit),
    tierCodes: c.tierCodes,
    categoryIds: c.categoryIds,
    listed: c.listed,
  };
}

const num = (s: string) => (s.trim() === '' ? undefined : Number(s.trim().replaceAll(',', '')));

/** The form's strings as the API body (Taipei local times become instants with +08:00). */
export function toCouponBody(v: CouponFormValues): CouponBodyInput {
  return {
    code: v.code,
    name: v.name,
    kind: v.kind,
    value: num(v.value) as number,
    minSpend: num(v.minSpend) ?? 0,
    startsAt: taipeiLocalToIso(v.startsAt) ?? v.startsAt,
    endsAt: taipeiLocalToIso(v.endsAt) ?? v.endsAt,
    totalLimit: num(v.totalLimit) ?? null,
    perMemberLimit: num(v.perMemberLimit) as number,
    // An unticked group reads as false in some browsers' form data; keep arrays.
    tierCodes: Array.isArray(v.tierCodes) ? v.tierCodes : [],
    categoryIds: Array.isArray(v.categoryIds) ? v.categoryIds : [],
    listed: Boolean(v.listed),
  };
}

/** The same zod schema as the server, with plainer words for empty fields. */
const resolver: Resolver<CouponFormValues> = async (values) => {
  const parsed = CouponBody.safeParse(toCouponBody(values));
  const errors: Record<string, { type: string; message: string }> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? 'code');
      errors[key] ??= { type: 'validate', message: issue.message };
    }
  }
  if (values.value.trim() === '') errors.value = { type: 'required', message: '請填寫折扣' };
  if (values.perMemberLimit.trim() === '')
    errors.perMemberLimit = { type: 'required', message: '請填寫每人可用次數' };
  if (values.startsAt === '') errors.startsAt = { type: 'required', message: '請選擇開始時間' };
  if (values.endsAt === '') errors.endsAt = { type: 'required', message: '請選擇結束時間' };
  return Object.keys(errors).length === 0
    ? { values, errors: {} }
    : { values: {}, errors: errors as FieldErrors<CouponFormValues> };
};

/**
 * The coupon editor: zh-TW errors beside each field (checked here and again on the server), times
 * in Taipei time, tier and category limits as checkboxes. Read-only without coupons.write.
 */
export function CouponForm({
  initial,
  options,
  readOnly,
  submitLabel,
  onSubmit: submit,
  onSaved,
}: {
  initial: CouponFormValues;
  options: CouponOptions | undefined;
  readOnly: boolean;
  submitLabel: string;
  onSubmit(body: CouponBodyInput): Promise<CouponDetail>;
  onSaved(detail: CouponDetail, form: { reset(values: CouponFormValues): void }): void;
}) {
  const form = useForm<CouponFormValues>({ resolver, mode: FORM_MODE, defaultValues: initial });
  const { errors, isSubmitting, isDirty } = form.formState;
  const kind = useWatch({ control: form.control, name: 'kind' });
  const { formError, onSubmit } = useApiSubmit(
    form,
    (values) => submit(toCouponBody(values)),
    (detail) => onSaved(detail, { reset: (v) => form.reset(v) }),
  );
  const arrayError = (e: unknown) => (e as { message?: string } | undefined)?.message;

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-6">
      {formError && <Alert tone="error">{formError}</Alert>}
      <fieldset disabled={readOnly} className="flex min-w-0 flex-col gap-6">
        <legend className="sr-only">優惠券內容</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="優惠碼"
            required
            autoComplete="off"
            spellCheck={false}
            className="font-mono uppercase"
            hint="英文字母、數字與連字號，3 到 32 個字元；會自動轉成大寫。"
            error={errors.code?.message}
            {...form.register('code')}
          />
          <TextField
            label="名稱"
            required
            hint="顯示給會員看，例如「春茶上市 9 折」。"
            maxLength={40}
            error={errors.name?.message}
            {...form.register('name')}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField label="折扣方式" required error={errors.kind?.message} {...form.register('kind')}>
            <option value="fixed">折抵固定金額</option>
            <option value="percent">打折（百分比）</option>
          </SelectField>
          <TextField
            label={kind === 'percent' ? '折扣百分比（%）' : '折抵金額（元）'}
            required
            inputMode="numeric"
            hint={kind === 'percent' ? '1 到 100，例如 10 代表 9 折。' : '新臺幣整數。'}
            error={errors.value?.message}
            {...form.register('value')}
          />
          <TextField
            label="最低消費（元）"
            inputMode="numeric"
            hint="0 代表不限金額。"
            error={errors.minSpend?.message}
            {...form.register('minSpend')}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="開始時間"
            type="datetime-local"
            required
            hint="臺北時間"
            error={errors.startsAt?.message}
            {...form.register('startsAt')}
          />
          <TextField
            label="結束時間"
            type="datetime-local"
            required
            hint="臺北時間；到這個時間就不能再使用。"
            error={errors.endsAt?.message}
            {...form.register('endsAt')}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="總使用次數上限"
            inputMode="numeric"
            hint="留空代表不限次數。"
            error={errors.totalLimit?.message}
            {...form.register('totalLimit')}
          />
          <TextField
            label="每人可用次數"
            required
            inputMode="numeric"
            error={errors.perMemberLimit?.message}
            {...form.register('perMemberLimit')}
          />
        </div>
        <fieldset className="flex flex-col gap-1">
          <legend className="text-sm font-medium">限定會員等級</legend>
          <p className="text-sm text-ink-muted">都不勾選代表所有會員都能使用。</p>
          <div className="flex flex-wrap gap-x-6">
            {options ? (
              options.tiers.map((t) => (
                <Checkbox key={t.code} label={t.name} value={t.code} {...form.register('tierCodes')} />
              ))
            ) : (
              <p className="py-2 text-sm text-ink-muted">載入會員等級中…</p>
            )}
          </div>
          {arrayError(errors.tierCodes) && (
            <p className="text-sm text-danger" role="alert">
              {arrayError(errors.tierCodes)}
            </p>
          )}
        </fieldset>
        <fieldset className="flex flex-col gap-1">
          <legend className="text-sm font-medium">限定商品分類</legend>
          <p className="text-sm text-ink-muted">
            勾選後只有這些分類（含子分類）的商品金額會計入與折抵；都不勾選代表整筆訂單。
          </p>
          <div className="flex flex-wrap gap-x-6">
            {options?.categories.map((c) => (
              <Checkbox
                key={c.id}
                label={c.parentName ? `${c.parentName}／${c.name}` : c.name}
                value={c.id}
                {...form.register('categoryIds')}
              />
            ))}
          </div>
          {arrayError(errors.categoryIds) && (
            <p className="text-sm text-danger" role="alert">
              {arrayError(errors.categoryIds)}
            </p>
          )}
        </fieldset>
        <Checkbox
          label="顯示在每位會員的「我的優惠券」（不勾選則只有知道優惠碼的人能用）"
          {...form.register('listed')}
        />
      </fieldset>
      {!readOnly && (
        <div className="flex flex-wrap items-center justify-end gap-3 border-t border-line pt-4">
          {isDirty && <span className="text-sm text-ink-muted">有尚未儲存的變更</span>}
          <Button type="submit" loading={isSubmitting}>
            {submitLabel}
          </Button>
        </div>
      )}
    </form>
  );
}
