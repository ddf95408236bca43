import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm, type Path, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MAX_ADDRESSES, cvsStoreLabel } from '@shop/shared/checkout';
import type { AddressBody, AddressView } from '@shop/shared/membership';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Checkbox, TextField } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorMessage } from '../../../lib/form.ts';
import { addressApi, addressesQueryOptions } from '../api/address-api.ts';
import {
  AddressForm,
  EMPTY_CHECKOUT,
  formFieldOf,
  isSavedDestination,
  type CheckoutForm,
} from '../schema.ts';
import { useReturningFromStoreMap, useStoreMapReturn } from '../hooks/use-store-map-return.ts';
import { AddressFields } from './address-fields.tsx';
import { StorePicker } from './store-picker.tsx';

export function describeAddress(a: AddressView): string {
  return a.kind === 'home'
    ? `${a.postalCode ?? ''} ${a.city ?? ''}${a.district ?? ''}${a.address ?? ''}`.trim()
    : `${cvsStoreLabel(a.cvsBrand, a.storeName)}（${a.storeAddress ?? ''}）`;
}

function toBody(v: CheckoutForm, label: string, isDefault: boolean): AddressBody {
  return v.shippingMethod === 'home'
    ? {
        kind: 'home',
        label,
        recipientName: v.recipientName.trim(),
        phone: v.phone,
        city: v.city,
        district: v.district,
        address: v.address.trim(),
        isDefault,
      }
    : {
        kind: 'cvs',
        label,
        recipientName: v.recipientName.trim(),
        phone: v.phone,
        cvsBrand: v.cvsBrand,
        storeId: v.storeId,
        isDefault,
      };
}

function fromAddress(a: AddressView | null): CheckoutForm {
  if (!a) return EMPTY_CHECKOUT;
  return {
    ...EMPTY_CHECKOUT,
    shippingMethod: a.kind,
    recipientName: a.recipientName,
    phone: a.phone,
    city: a.city ?? '',
    district: a.district ?? '',
    address: a.address ?? '',
    cvsBrand: a.cvsBrand ?? '7-ELEVEN',
    storeId: a.storeId ?? '',
    storeName: a.storeName ?? '',
    storeAddress: a.storeAddress ?? '',
  };
}

/** The editor as it was when the shopper left for the store map (kept for this tab only). */
interface EditorDraft {
  readonly id: string | null;
  readonly values: CheckoutForm;
  readonly label: string;
  readonly isDefault: boolean;
}
const EDITOR_DRAFT_KEY = 'addressEditorDraft';

function takeEditorDraft(): EditorDraft | null {
  try {
    const raw = sessionStorage.getItem(EDITOR_DRAFT_KEY);
    sessionStorage.removeItem(EDITOR_DRAFT_KEY);
    return raw ? (JSON.parse(raw) as EditorDraft) : null;
  } catch {
    return null;
  }
}

function AddressEditor({
  address,
  draft,
  onDone,
}: {
  address: AddressView | null;
  draft: EditorDraft | null;
  onDone(list: AddressView[]): void;
}) {
  const form = useForm<CheckoutForm>({
    resolver: zodResolver(AddressForm),
    mode: 'onChange',
    defaultValues: draft ? { ...EMPTY_CHECKOUT, ...draft.values } : fromAddress(address),
  });
  const [label, setLabel] = useState(draft?.label ?? address?.label ?? '');
  const [isDefault, setIsDefault] = useState(draft?.isDefault ?? address?.isDefault ?? false);
  const storeMap = useStoreMapReturn(form);
  const beforeLeave = () => {
    const saved: EditorDraft = { id: address?.id ?? null, values: form.getValues(), label, isDefault };
    sessionStorage.setItem(EDITOR_DRAFT_KEY, JSON.stringify(saved));
  };
  const [formError, setFormError] = useState<string | null>(null);
  const kind = form.watch('shippingMethod');
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      const body = toBody(v, label.trim(), isDefault);
      onDone((address ? await addressApi.edit(address.id, body) : await addressApi.add(body)).addresses);
    } catch (error) {
      const fields = error instanceof ApiError && error.fields ? Object.entries(error.fields) : [];
      let placed = 0;
      for (const [path, message] of fields) {
        const name = formFieldOf(path);
        if (name)
          form.setError(
            name as Path<CheckoutForm>,
            { type: 'server', message },
            { shouldFocus: placed++ === 0 },
          );
      }
      if (placed === 0) setFormError(errorMessage(error));
    }
  });
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
      {formError && <Alert tone="error">{formError}</Alert>}
      <fieldset className="flex gap-2">
        <legend className="sr-only">類型</legend>
        {(['home', 'cvs'] as const).map((k) => (
          <label
            key={k}
            className={cn(
              'flex min-h-11 flex-1 cursor-pointer items-center justify-center gap-2 rounded-md border',
              kind === k ? 'border-tea bg-tea-soft text-tea-dark' : 'border-line',
            )}
          >
            <input
              type="radio"
              value={k}
              className="accent-tea"
              {...form.register('shippingMethod')}
              disabled={address !== null}
            />
            {k === 'home' ? '宅配地址' : '超商門市'}
          </label>
        ))}
      </fieldset>
      <TextField
        label="名稱（選填）"
        placeholder="例如：家裡、公司"
        maxLength={20}
        value={label}
        onChange={(e) => setLabel(e.target.value)}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={kind === 'home' ? '收件人姓名' : '取件人姓名'}
          required
          error={errors.recipientName?.message}
          {...form.register('recipientName')}
        />
        <TextField
          label="手機號碼"
          required
          type="tel"
          inputMode="tel"
          error={errors.phone?.message}
          {...form.register('phone')}
        />
      </div>
      {kind === 'home' ? (
        <AddressFields form={form} />
      ) : (
        <StorePicker
          form={form}
          returnTo="address-book"
          beforeLeave={beforeLeave}
          pending={storeMap.pending}
        />
      )}
      <Checkbox label="設為預設" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} />
      <div className="flex justify-end">
        <Button type="submit" loading={isSubmitting}>
          儲存
        </Button>
      </div>
    </form>
  );
}

/** Saved home addresses and stores; one default, picked at checkout with one click. */
export function AddressBook() {
  const client = useQueryClient();
  const list = useQuery(addressesQueryOptions());
  const [editing, setEditing] = useState<{ address: AddressView | null; draft: EditorDraft | null } | null>(
    null,
  );
  const [removing, setRemoving] = useState<AddressView | null>(null);
  // Back from the store map: the editor opens again as it was left, with the chosen store.
  const returning = useReturningFromStoreMap();
  const restoring = useRef(returning);
  useEffect(() => {
    if (!restoring.current || !list.data) return;
    restoring.current = false;
    const draft = takeEditorDraft();
    setEditing({ address: list.data.addresses.find((a) => a.id === draft?.id) ?? null, draft });
  }, [list.data]);
  const update = (addresses: AddressView[]) =>
    client.setQueryData(addressesQueryOptions().queryKey, { addresses });
  const act = async (fn: () => Promise<{ addresses: AddressView[] }>, message: string) => {
    try {
      update((await fn()).addresses);
      toast.success(message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  if (!list.data) return <Skeleton className="h-24" />;
  return (
    <div className="flex flex-col gap-3">
      {list.data.addresses.length === 0 ? (
        <p className="text-sm text-ink-muted">還沒有儲存地址。儲存後，結帳時點一下就能帶入。</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {list.data.addresses.map((a) => (
            <li
              key={a.id}
              className="flex flex-col gap-2 rounded-md border border-line p-4 sm:flex-row sm:items-start sm:justify-between"
            >
              <div className="flex flex-col gap-1 text-sm">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  {a.label || (a.kind === 'home' ? '宅配地址' : '超商門市')}
                  {a.isDefault && <Badge tone="tea">預設</Badge>}
                </p>
                <p>
                  {a.recipientName}・{a.phone}
                </p>
                <p className="text-ink-muted">{describeAddress(a)}</p>
              </div>
              <div className="flex shrink-0 flex-wrap gap-1">
                {!a.isDefault && (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => void act(() => addressApi.makeDefault(a.id), '已設為預設。')}
                  >
                    設為預設
                  </Button>
                )}
                <Button variant="ghost" size="sm" onClick={() => setEditing({ address: a, draft: null })}>
                  編輯
                </Button>
                <Button variant="ghost" size="sm" onClick={() => setRemoving(a)}>
                  刪除
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Button
        variant="secondary"
        size="sm"
        className="self-start"
        onClick={() => setEditing({ address: null, draft: null })}
      >
        新增地址或門市
      </Button>
      <Dialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title="刪除這筆地址？"
        footer={
          <>
            <Button variant="secondary" onClick={() => setRemoving(null)}>
              保留
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                const target = removing;
                setRemoving(null);
                if (target) void act(() => addressApi.remove(target.id), '已刪除。');
              }}
            >
              確定刪除
            </Button>
          </>
        }
      >
        {removing && (
          <p className="leading-relaxed">
            「{removing.label || (removing.kind === 'home' ? '宅配地址' : '超商門市')}」（
            {describeAddress(removing)}）刪除後無法復原。
          </p>
        )}
      </Dialog>
      <Dialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.address ? '編輯地址' : '新增地址或門市'}
      >
        {editing !== null && (
          <AddressEditor
            address={editing.address}
            draft={editing.draft}
            onDone={(addresses) => {
              update(addresses);
              toast.success('地址已儲存。');
              setEditing(null);
            }}
          />
        )}
      </Dialog>
    </div>
  );
}

/** At checkout: one click fills the form from a saved address. */
export function SavedAddressPicker({
  onPick,
  method,
}: {
  onPick(v: Partial<CheckoutForm>): void;
  method: 'home' | 'cvs';
}) {
  const list = useQuery(addressesQueryOptions());
  const saved = list.data?.addresses ?? [];
  if (saved.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-medium text-ink">常用地址</p>
      <ul className="flex flex-wrap gap-2">
        {saved.map((a) => (
          <li key={a.id}>
            <button
              type="button"
              onClick={() => {
                const v = fromAddress(a);
                onPick({
                  shippingMethod: v.shippingMethod,
                  recipientName: v.recipientName,
                  phone: v.phone,
                  city: v.city,
                  district: v.district,
                  address: v.address,
                  cvsBrand: v.cvsBrand,
                  storeId: v.storeId,
                  storeName: v.storeName,
                  storeAddress: v.storeAddress,
                  storePhone: '',
                  storeOutlying: false,
                });
              }}
              className={cn(
                'flex min-h-11 flex-col items-start rounded-md border px-3 py-2 text-left text-sm hover:border-tea',
                a.kind === method ? 'border-line bg-surface' : 'border-dashed border-line bg-paper',
              )}
            >
              <span className="font-medium">
                {a.label || (a.kind === 'home' ? '宅配地址' : '超商門市')}
                {a.isDefault ? '（預設）' : ''}
              </span>
              <span className="max-w-64 truncate text-ink-muted">{describeAddress(a)}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * 「儲存這個地址」 under the checkout's destination, while it is not one of the saved addresses and
 * the book has room: the address joins the book with the order (the first one becomes the default).
 */
export function SaveAddressChoice({
  form,
  values,
}: {
  form: UseFormReturn<CheckoutForm>;
  values: CheckoutForm;
}) {
  const list = useQuery(addressesQueryOptions());
  const saved = list.data?.addresses;
  if (!saved || saved.length >= MAX_ADDRESSES || isSavedDestination(values, saved)) return null;
  return (
    <Checkbox
      label={
        <>
          {values.shippingMethod === 'home' ? '儲存這個地址' : '儲存這間門市'}
          <span className="block text-ink-muted">
            {saved.length === 0
              ? '下次結帳會自動帶入，也可以在會員中心修改。'
              : '存到常用地址，下次結帳點一下就能帶入。'}
          </span>
        </>
      }
      {...form.register('saveAddress')}
    />
  );
}
