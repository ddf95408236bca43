import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { formatTwd } from '@shop/shared/money';
import { CheckoutErrorCode } from '@shop/shared/checkout';
import { SHIPPING_METHOD_LABELS } from '@shop/shared/shipping';
import { Alert } from '../../components/ui/alert.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { TextAreaField, TextField } from '../../components/ui/field.tsx';
import { Container, PageHeader } from '../../components/ui/page.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { textLinkClass } from '../../components/ui/text-link.tsx';
import { paths } from '../../config/paths.ts';
import { ApiError } from '../../lib/api-error.ts';
import { errorMessage } from '../../lib/form.ts';
import { cartQueryOptions } from '../../features/cart/api/cart-api.ts';
import { currentUserQueryOptions } from '../../features/auth/api/get-current-user.ts';
import { ResendVerificationButton } from '../../features/auth/components/resend-verification.tsx';
import { useUserStore } from '../../features/auth/stores/user-store.ts';
import { placeOrder, quoteQueryOptions, submitPaymentForm } from '../../features/checkout/api/checkout-api.ts';
import { AddressFields } from '../../features/checkout/components/address-fields.tsx';
import { StorePicker } from '../../features/checkout/components/store-picker.tsx';
import { useCheckoutDraft } from '../../features/checkout/draft-store.ts';
import { useShippingRules } from '../../features/checkout/api/shipping-rules.ts';
import { CheckoutForm, formFieldOf, toPlaceOrderBody } from '../../features/checkout/schema.ts';
import { normalizeMobileBarcode } from '@shop/shared/invoice';
import { SavedAddressPicker } from '../../features/checkout/components/address-book.tsx';
import { addressesQueryOptions } from '../../features/checkout/api/address-api.ts';
import { membershipQueryOptions } from '../../features/member/api/member-api.ts';

/** The mobile barcode box shows the code as it will be read (half-width, upper-case) while it is typed. */
function upperCaseAsTyped<T extends { onChange: (event: React.ChangeEvent<HTMLInputElement>) => unknown }>(field: T): T {
  return {
    ...field,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const input = event.target;
      const caret = input.selectionStart;
      const next = normalizeMobileBarcode(input.value);
      if (next !== input.value) {
        input.value = next;
        if (caret !== null) input.setSelectionRange(Math.min(caret, next.length), Math.min(caret, next.length));
      }
      return field.onChange(event);
    },
  };
}

function Section({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`step-${n}`} className="rounded-lg border border-line bg-surface p-5 sm:p-6">
      <h2 id={`step-${n}`} className="mb-4 flex items-center gap-3 text-lg font-semibold">
        <span className="tabular flex size-7 items-center justify-center rounded-full bg-tea text-sm text-white">{n}</span>
        {title}
      </h2>
      {children}
    </section>
  );
}

function Choice({ checked, children, disabled, ...input }: React.InputHTMLAttributes<HTMLInputElement> & { children: React.ReactNode }) {
  return (
    <label className={cn('flex min-h-14 cursor-pointer items-start gap-3 rounded-md border p-4', checked ? 'border-tea bg-tea-soft/60' : 'border-line', disabled && 'cursor-not-allowed opacity-60')}>
      <input type="radio" className="mt-1 size-4 accent-tea" disabled={disabled} {...input} />
      <span className="flex flex-col">{children}</span>
    </label>
  );
}

export default function PaymentPage() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const uid = useUserStore((s) => s.userInfo?.uid ?? 'anonymous');
  const user = useUserStore((s) => s.userInfo);
  // Fresh from the server on every visit: an address verified in another tab counts at once.
  useQuery({ ...currentUserQueryOptions(), staleTime: 0 });
  const unverified = Boolean(user && !user.emailVerified);
  const draft = useCheckoutDraft();
  const cart = useQuery(cartQueryOptions());
  const shipping = useShippingRules();
  const [formError, setFormError] = useState<{ message: string; code: string | null } | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const idempotencyKey = useRef(draft.keyFor(uid));

  const form = useForm<CheckoutForm>({ resolver: zodResolver(CheckoutForm), mode: 'onChange', defaultValues: draft.valuesFor(uid) });
  const { errors, isSubmitting } = form.formState;
  const values = form.watch();

  // Keep what was typed: leaving and coming back restores it.
  useEffect(() => {
    const sub = form.watch((v) => useCheckoutDraft.getState().save(uid, { ...form.getValues(), ...v } as CheckoutForm));
    return () => sub.unsubscribe();
  }, [form, uid]);

  const pick = (v: Partial<CheckoutForm>) => {
    for (const [key, value] of Object.entries(v)) form.setValue(key as keyof CheckoutForm, value as never, { shouldValidate: true, shouldDirty: true });
  };
  // First visit with nothing typed yet: start from the default saved address.
  const addresses = useQuery(addressesQueryOptions());
  const filled = useRef(false);
  useEffect(() => {
    if (filled.current || !addresses.data) return;
    filled.current = true;
    const preferred = addresses.data.addresses.find((a) => a.isDefault);
    if (preferred && !form.getValues('recipientName') && !form.getValues('address') && !form.getValues('storeId')) {
      pick({
        shippingMethod: preferred.kind,
        recipientName: preferred.recipientName,
        phone: preferred.phone,
        city: preferred.city ?? '',
        district: preferred.district ?? '',
        address: preferred.address ?? '',
        ...(preferred.cvsBrand ? { cvsBrand: preferred.cvsBrand } : {}),
        storeId: preferred.storeId ?? '',
        storeName: preferred.storeName ?? '',
        storeAddress: preferred.storeAddress ?? '',
      });
    }
  });
  const membership = useQuery(membershipQueryOptions());
  const [couponInput, setCouponInput] = useState(values.couponCode);

  const quote = useQuery({
    ...quoteQueryOptions({
      shippingMethod: values.shippingMethod,
      ...(values.shippingMethod === 'home' && values.city && values.district ? { city: values.city, district: values.district } : {}),
      paymentMethod: values.paymentMethod,
      ...(values.couponCode ? { couponCode: values.couponCode } : {}),
    }),
    enabled: Boolean(cart.data && cart.data.lines.length > 0),
  });

  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      const result = await placeOrder(toPlaceOrderBody(v, idempotencyKey.current));
      useCheckoutDraft.getState().orderPlaced();
      idempotencyKey.current = useCheckoutDraft.getState().idempotencyKey;
      void client.invalidateQueries({ queryKey: ['cart'] });
      void client.invalidateQueries({ queryKey: ['orders'] });
      void client.invalidateQueries({ queryKey: ['membership'] });
      if (result.payment) {
        setRedirecting(true);
        submitPaymentForm(result.payment);
        return;
      }
      void navigate(paths.payComplete(result.order.orderNo), { replace: true });
    } catch (error) {
      const fields = error instanceof ApiError && error.fields ? Object.entries(error.fields) : [];
      let placed = 0;
      for (const [path, message] of fields) {
        const name = formFieldOf(path);
        if (name) form.setError(name as Path<CheckoutForm>, { type: 'server', message }, { shouldFocus: placed++ === 0 });
      }
      // The server knows better than this tab: the verification notice above takes over.
      const current = useUserStore.getState().userInfo;
      if (error instanceof ApiError && error.code === CheckoutErrorCode.emailNotVerified && current) {
        useUserStore.getState().setUserInfo({ ...current, emailVerified: false });
        return;
      }
      if (placed === 0) setFormError({ message: errorMessage(error), code: error instanceof ApiError ? error.code : null });
      if (error instanceof ApiError && ['cart-changed', 'insufficient-stock', 'cart-empty'].includes(error.code)) void client.invalidateQueries({ queryKey: ['cart'] });
    }
  });

  if (!cart.data) {
    return (
      <Container className="py-8 sm:py-12">
        <PageHeader title="結帳" />
        {cart.isError ? (
          <Alert className="mt-8" tone="error">{errorMessage(cart.error)}</Alert>
        ) : (
          <div className="mt-8 grid gap-6 lg:grid-cols-[1fr_360px]" role="status" aria-label="載入結帳資料">
            <Skeleton className="h-96" />
            <Skeleton className="h-64" />
          </div>
        )}
      </Container>
    );
  }
  if (cart.data.lines.length === 0 && !redirecting) {
    return (
      <Container className="py-8 sm:py-12">
        <PageHeader title="結帳" />
        <div className="mt-8">
          <EmptyState title="購物車是空的" description="先到商城挑選商品，再回來結帳。" action={<ButtonLink to={paths.mall()}>前往商城</ButtonLink>} />
        </div>
      </Container>
    );
  }
  const problems = cart.data.lines.filter((l) => l.problem !== null);
  const q = quote.data;

  return (
    <Container className="py-8 sm:py-12">
      <PageHeader
        title="結帳"
        lead={
          <Link to={paths.cart()} className={textLinkClass}>
            ← 回到購物車修改商品
          </Link>
        }
      />
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="mt-8 grid gap-8 lg:grid-cols-[1fr_360px]">
        <div className="flex flex-col gap-6">
          {unverified && user && (
            <Alert tone="warning" title="請先完成電子郵件驗證，才能送出訂單" action={<ResendVerificationButton />}>
              我們已寄驗證信到 <span className="break-all font-medium">{user.email}</span>，請點選信中的連結完成驗證；沒收到的話可以重新寄送。您填寫的資料會保留在這裡。
            </Alert>
          )}
          {problems.length > 0 && (
            <Alert tone="warning" action={<ButtonLink to={paths.cart()} size="sm" variant="secondary">調整購物車</ButtonLink>}>
              購物車有 {problems.length} 項商品庫存不足或已下架，請先調整。
            </Alert>
          )}
          <Section n={1} title="配送方式">
            <div className="grid gap-3 sm:grid-cols-2">
              {(['home', 'cvs'] as const).map((m) => (
                <Choice key={m} value={m} checked={values.shippingMethod === m} {...form.register('shippingMethod')}>
                  <span className="font-medium">{SHIPPING_METHOD_LABELS[m]}</span>
                  {shipping.data ? (
                    <span className="text-sm text-ink-muted">
                      運費 {formatTwd(shipping.data[m].fee)}，滿 {formatTwd(shipping.data[m].freeOver)} 免運
                    </span>
                  ) : shipping.isError ? (
                    <span className="text-sm text-ink-muted">運費請見訂單摘要</span>
                  ) : (
                    <span aria-hidden="true" className="mt-1 block h-4 w-44 animate-shimmer rounded-md bg-line/70" />
                  )}
                </Choice>
              ))}
            </div>
          </Section>

          <Section n={2} title={values.shippingMethod === 'home' ? '收件資訊' : '取件資訊'}>
            <div className="flex flex-col gap-4">
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField label={values.shippingMethod === 'home' ? '收件人姓名' : '取件人姓名'} required autoComplete="name" hint={values.shippingMethod === 'cvs' ? '請填寫與證件相同的姓名，取貨時需核對。' : undefined} error={errors.recipientName?.message} {...form.register('recipientName')} />
                <TextField label="手機號碼" required type="tel" inputMode="tel" autoComplete="tel" placeholder="0912345678" error={errors.phone?.message} {...form.register('phone')} />
              </div>
              <SavedAddressPicker method={values.shippingMethod} onPick={pick} />
              {values.shippingMethod === 'home' ? <AddressFields form={form} /> : <StorePicker form={form} />}
            </div>
          </Section>

          <Section n={3} title="電子發票">
            <div className="grid gap-3 sm:grid-cols-2">
              <Choice value="member" checked={values.invoiceType === 'member'} {...form.register('invoiceType')}>
                <span className="font-medium">會員載具</span>
                <span className="text-sm text-ink-muted">發票存在會員帳號，中獎會通知您</span>
              </Choice>
              <Choice value="mobile" checked={values.invoiceType === 'mobile'} {...form.register('invoiceType')}>
                <span className="font-medium">手機條碼載具</span>
                <span className="text-sm text-ink-muted">歸戶到您的手機條碼</span>
              </Choice>
              <Choice value="donation" checked={values.invoiceType === 'donation'} {...form.register('invoiceType')}>
                <span className="font-medium">捐贈發票</span>
                <span className="text-sm text-ink-muted">捐給社福團體（愛心碼）</span>
              </Choice>
              <Choice value="company" checked={values.invoiceType === 'company'} {...form.register('invoiceType')}>
                <span className="font-medium">公司戶發票</span>
                <span className="text-sm text-ink-muted">需統一編號與公司抬頭</span>
              </Choice>
            </div>
            <div className="mt-4 grid gap-4 sm:grid-cols-2">
              {values.invoiceType === 'mobile' && <TextField label="手機條碼" required placeholder="/ABC1234" autoCapitalize="characters" hint="「/」加上 7 碼英數字" error={errors.mobileBarcode?.message} {...upperCaseAsTyped(form.register('mobileBarcode'))} />}
              {values.invoiceType === 'donation' && <TextField label="捐贈碼（愛心碼）" required inputMode="numeric" placeholder="例如 8585" error={errors.donationCode?.message} {...form.register('donationCode')} />}
              {values.invoiceType === 'company' && (
                <>
                  <TextField label="統一編號" required inputMode="numeric" maxLength={8} error={errors.taxId?.message} {...form.register('taxId')} />
                  <TextField label="公司抬頭" required autoComplete="organization" error={errors.companyTitle?.message} {...form.register('companyTitle')} />
                </>
              )}
            </div>
          </Section>

          <Section n={4} title="付款方式">
            <div className="grid gap-3">
              <Choice value="credit_card" checked={values.paymentMethod === 'credit_card'} {...form.register('paymentMethod')}>
                <span className="font-medium">信用卡（綠界科技 ECPay）</span>
                <span className="text-sm text-ink-muted">VISA、Mastercard、JCB；請於 30 分鐘內完成付款</span>
              </Choice>
              <Choice value="atm" checked={values.paymentMethod === 'atm'} {...form.register('paymentMethod')}>
                <span className="font-medium">ATM 轉帳（虛擬帳號）</span>
                <span className="text-sm text-ink-muted">請於 30 分鐘內取得專屬帳號，之後 3 天內轉帳，入帳即出貨</span>
              </Choice>
              <Choice value="cod" checked={values.paymentMethod === 'cod'} {...form.register('paymentMethod')}>
                <span className="font-medium">{values.shippingMethod === 'home' ? '貨到付款' : '超商取貨付款'}</span>
                <span className="text-sm text-ink-muted">
                  {values.shippingMethod === 'home' ? '商品送達時付現給配送人員' : '到門市取貨時在櫃檯付款'}，加收手續費
                  {shipping.data ? ` ${formatTwd(shipping.data.codFee)}` : shipping.isError ? '' : <span aria-hidden="true" className="ml-1 inline-block h-4 w-14 animate-shimmer rounded-md bg-line/70 align-middle" />}
                </span>
              </Choice>
            </div>
            {errors.paymentMethod?.message && (
              <p role="alert" className="mt-2 text-sm text-danger">
                {errors.paymentMethod.message}
              </p>
            )}
          </Section>

          <Section n={5} title="優惠碼">
            <div className="flex flex-col gap-3">
              <div className="flex items-end gap-2">
                <TextField
                  containerClassName="flex-1"
                  label="優惠碼（選填）"
                  autoCapitalize="characters"
                  value={couponInput}
                  onChange={(e) => setCouponInput(e.target.value)}
                  error={values.couponCode && q?.couponError ? q.couponError : errors.couponCode?.message}
                />
                <Button variant="secondary" onClick={() => form.setValue('couponCode', couponInput.trim().toUpperCase(), { shouldDirty: true })}>
                  套用
                </Button>
              </div>
              {values.couponCode && q && !q.couponError && (
                <p className="flex items-center gap-3 text-sm text-success" role="status">
                  已套用優惠碼 {values.couponCode}
                  <button type="button" className="text-ink-muted underline underline-offset-4" onClick={() => { form.setValue('couponCode', ''); setCouponInput(''); }}>
                    取消
                  </button>
                </p>
              )}
              {membership.data && membership.data.coupons.some((c) => c.state === 'usable') && (
                <div className="flex flex-col gap-2">
                  <p className="text-sm font-medium">我的優惠券</p>
                  <ul className="flex flex-col gap-2">
                    {membership.data.coupons
                      .filter((c) => c.state === 'usable')
                      .map((c) => (
                        <li key={c.code} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-dashed border-tea/50 bg-tea-soft/30 px-3 py-2 text-sm">
                          <span>
                            <span className="font-medium">{c.name}</span>
                            <span className="block text-ink-muted">{c.description}</span>
                          </span>
                          <Button size="sm" variant="ghost" onClick={() => { setCouponInput(c.code); form.setValue('couponCode', c.code, { shouldDirty: true }); }}>
                            使用
                          </Button>
                        </li>
                      ))}
                  </ul>
                </div>
              )}
            </div>
          </Section>

          <Section n={6} title="訂單備註">
            <TextAreaField label="備註（選填）" placeholder="例如：希望週末送達、需要送禮包裝" maxLength={200} error={errors.note?.message} {...form.register('note')} />
          </Section>
        </div>

        <aside className="flex h-fit flex-col gap-4 rounded-lg border border-line bg-surface p-5 lg:sticky lg:top-24" aria-labelledby="summary-title">
          <h2 id="summary-title" className="text-lg font-semibold">
            訂單摘要
          </h2>
          <ul className="flex flex-col gap-2 text-sm">
            {cart.data.lines.map((l) => (
              <li key={l.variantId} className="flex justify-between gap-3">
                <span className="min-w-0">
                  {l.name}（{l.variantLabel}）× {l.quantity}
                </span>
                <span className="tabular shrink-0">{formatTwd(l.lineTotal)}</span>
              </li>
            ))}
          </ul>
          <dl className="flex flex-col gap-2 border-t border-line pt-4 text-sm" aria-live="polite" aria-busy={quote.isFetching}>
            <div className="flex justify-between">
              <dt className="text-ink-muted">商品小計</dt>
              <dd className="tabular">{q ? formatTwd(q.subtotal) : '…'}</dd>
            </div>
            {q?.discounts.map((d) => (
              <div key={d.label} className="flex justify-between text-[#8a5a2a]">
                <dt>{d.label}</dt>
                <dd className="tabular">-{formatTwd(d.amount)}</dd>
              </div>
            ))}
            {q?.shippingLines.map((l) => (
              <div key={l.label} className="flex justify-between">
                <dt className="text-ink-muted">{l.label}</dt>
                <dd className="tabular">{formatTwd(l.amount)}</dd>
              </div>
            ))}
            <div className="flex justify-between border-t border-line pt-3 text-base font-semibold">
              <dt>應付總額</dt>
              <dd className="tabular" data-testid="order-total">
                {q ? formatTwd(q.total) : '…'}
              </dd>
            </div>
          </dl>
          {q && q.toFreeShipping > 0 && <p className="text-xs text-ink-muted">再買 {formatTwd(q.toFreeShipping)} 即可免運費。</p>}
          {formError && (
            <Alert
              tone="error"
              action={
                formError.code === CheckoutErrorCode.tooManyOpenOrders ? (
                  <Link to={paths.orderList()} className={textLinkClass}>
                    前往訂單查詢
                  </Link>
                ) : (
                  <Link to={paths.cart()} className={textLinkClass}>
                    回購物車
                  </Link>
                )
              }
            >
              {formError.message}
            </Alert>
          )}
          <Button type="submit" size="lg" loading={isSubmitting || redirecting} disabled={problems.length > 0 || unverified}>
            {redirecting ? '前往付款頁…' : isSubmitting ? '訂單送出中…' : values.paymentMethod === 'cod' ? '送出訂單' : '送出訂單並付款'}
          </Button>
          <p className="text-xs text-ink-muted">
            送出訂單即表示您同意
            <Link to={paths.serviceTerms()} className={textLinkClass}>
              服務條款
            </Link>
            。
          </p>
        </aside>
      </form>
    </Container>
  );
}
