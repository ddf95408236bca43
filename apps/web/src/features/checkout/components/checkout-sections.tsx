import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { QuoteResponse } from '@shop/shared/checkout';
import { normalizeMobileBarcode, WELL_KNOWN_DONATION_CODES } from '@shop/shared/invoice';
import type { CouponView } from '@shop/shared/membership';
import { formatTwd } from '@shop/shared/money';
import { PAYMENT_METHOD_LABELS } from '@shop/shared/payment-methods';
import {
  BARCODE_STORES,
  CVS_CODE_KIOSKS,
  installmentPlan,
  installmentWords,
} from '@shop/shared/store-payments';
import { SHIPPING_METHOD_LABELS } from '@shop/shared/shipping';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { checkedOnBlur } from '../api/carrier-check.ts';
import { useShippingRules } from '../api/shipping-rules.ts';
import { usePaymentOptions } from '../api/payment-options.ts';
import { LINE_PAY_NEXT_STEP } from '@shop/shared/line-pay';
import type { CheckoutForm } from '../schema.ts';
import { SaveAddressChoice, SavedAddressPicker } from './address-book.tsx';
import { AddressFields } from './address-fields.tsx';
import { StorePicker } from './store-picker.tsx';

type Form = UseFormReturn<CheckoutForm>;

/** The mobile barcode and certificate boxes show the code as it will be read (half-width, upper-case) while it is typed. */
function upperCaseAsTyped<T extends { onChange: (event: React.ChangeEvent<HTMLInputElement>) => unknown }>(
  field: T,
): T {
  return {
    ...field,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const input = event.target;
      const caret = input.selectionStart;
      const next = normalizeMobileBarcode(input.value);
      if (next !== input.value) {
        input.value = next;
        if (caret !== null)
          input.setSelectionRange(Math.min(caret, next.length), Math.min(caret, next.length));
      }
      return field.onChange(event);
    },
  };
}

/** One numbered step of the checkout form. */
export function Section({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`step-${n}`} className="rounded-lg border border-line bg-surface p-5 sm:p-6">
      <h2 id={`step-${n}`} className="mb-4 flex items-center gap-3 text-lg font-semibold">
        <span className="tabular flex size-7 items-center justify-center rounded-full bg-tea text-sm text-white">
          {n}
        </span>
        {title}
      </h2>
      {children}
    </section>
  );
}

function Choice({
  checked,
  children,
  disabled,
  ...input
}: React.InputHTMLAttributes<HTMLInputElement> & { children: React.ReactNode }) {
  return (
    <label
      className={cn(
        'flex min-h-14 cursor-pointer items-start gap-3 rounded-md border p-4',
        checked ? 'border-tea bg-tea-soft/60' : 'border-line',
        disabled && 'cursor-not-allowed opacity-60',
      )}
    >
      <input type="radio" className="mt-1 size-4 shrink-0 accent-tea" disabled={disabled} {...input} />
      <span className="flex flex-col">{children}</span>
    </label>
  );
}

export function ShippingMethodSection({ form, values }: { form: Form; values: CheckoutForm }) {
  const shipping = useShippingRules();
  return (
    <Section n={1} title="配送方式">
      <div className="grid gap-3 sm:grid-cols-2">
        {(['home', 'cvs'] as const).map((m) => (
          <Choice
            key={m}
            value={m}
            checked={values.shippingMethod === m}
            {...form.register('shippingMethod')}
          >
            <span className="font-medium">{SHIPPING_METHOD_LABELS[m]}</span>
            {shipping.data ? (
              <span className="text-sm text-ink-muted">
                運費 {formatTwd(shipping.data[m].fee)}，滿 {formatTwd(shipping.data[m].freeOver)} 免運
              </span>
            ) : shipping.isError ? (
              <span className="text-sm text-ink-muted">運費請見訂單摘要</span>
            ) : (
              <span
                aria-hidden="true"
                className="mt-1 block h-4 w-44 animate-shimmer rounded-md bg-line/70"
              />
            )}
          </Choice>
        ))}
      </div>
    </Section>
  );
}

export function RecipientSection({
  form,
  values,
  pick,
  storeMapPending,
}: {
  form: Form;
  values: CheckoutForm;
  pick: (v: Partial<CheckoutForm>) => void;
  storeMapPending: boolean;
}) {
  const { errors } = form.formState;
  return (
    <Section n={2} title={values.shippingMethod === 'home' ? '收件資訊' : '取件資訊'}>
      <div className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={values.shippingMethod === 'home' ? '收件人姓名' : '取件人姓名'}
            required
            autoComplete="name"
            hint={values.shippingMethod === 'cvs' ? '請填寫與證件相同的姓名，取貨時需核對。' : undefined}
            error={errors.recipientName?.message}
            {...form.register('recipientName')}
          />
          <TextField
            label="手機號碼"
            required
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="0912345678"
            error={errors.phone?.message}
            {...form.register('phone')}
          />
        </div>
        <SavedAddressPicker method={values.shippingMethod} onPick={pick} />
        {values.shippingMethod === 'home' ? (
          <AddressFields form={form} />
        ) : (
          <StorePicker form={form} returnTo="checkout" pending={storeMapPending} />
        )}
        <SaveAddressChoice form={form} values={values} />
      </div>
    </Section>
  );
}

export function InvoiceSection({ form, values }: { form: Form; values: CheckoutForm }) {
  const { errors } = form.formState;
  return (
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
        <Choice
          value="certificate"
          checked={values.invoiceType === 'certificate'}
          {...form.register('invoiceType')}
        >
          <span className="font-medium">自然人憑證載具</span>
          <span className="text-sm text-ink-muted">歸戶到您的自然人憑證</span>
        </Choice>
        <Choice
          value="donation"
          checked={values.invoiceType === 'donation'}
          {...form.register('invoiceType')}
        >
          <span className="font-medium">捐贈發票</span>
          <span className="text-sm text-ink-muted">捐給社福團體（愛心碼）</span>
        </Choice>
        <Choice value="company" checked={values.invoiceType === 'company'} {...form.register('invoiceType')}>
          <span className="font-medium">公司戶發票</span>
          <span className="text-sm text-ink-muted">需統一編號與公司抬頭</span>
        </Choice>
      </div>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {values.invoiceType === 'mobile' && (
          <TextField
            label="手機條碼"
            required
            placeholder="/ABC1234"
            autoCapitalize="characters"
            hint="「/」加上 7 碼英數字"
            error={errors.mobileBarcode?.message}
            {...checkedOnBlur(upperCaseAsTyped(form.register('mobileBarcode')), form, 'mobile')}
          />
        )}
        {values.invoiceType === 'certificate' && (
          <TextField
            label="自然人憑證條碼"
            required
            placeholder="AB12345678901234"
            inputMode="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            hint="2 碼英文字母加上 14 碼數字"
            error={errors.certificate?.message}
            {...upperCaseAsTyped(form.register('certificate'))}
          />
        )}
        {values.invoiceType === 'donation' && (
          <div className="flex flex-col gap-2">
            <TextField
              label="捐贈碼（愛心碼）"
              required
              inputMode="numeric"
              placeholder={`例如 ${WELL_KNOWN_DONATION_CODES[0].code}`}
              error={errors.donationCode?.message}
              {...checkedOnBlur(form.register('donationCode'), form, 'donation')}
            />
            <div role="group" aria-label="常用愛心碼" className="flex flex-wrap items-center gap-2">
              <span className="text-sm text-ink-muted">常用：</span>
              {WELL_KNOWN_DONATION_CODES.map(({ code, name }) => (
                <button
                  key={code}
                  type="button"
                  aria-pressed={values.donationCode === code}
                  onClick={() =>
                    form.setValue('donationCode', code, { shouldValidate: true, shouldDirty: true })
                  }
                  className="min-h-11 rounded-full border border-line bg-surface px-3 text-sm hover:border-tea aria-pressed:border-tea aria-pressed:bg-tea-soft aria-pressed:text-tea-dark"
                >
                  {name} <span className="tabular">{code}</span>
                </button>
              ))}
            </div>
          </div>
        )}
        {values.invoiceType === 'company' && (
          <>
            <TextField
              label="統一編號"
              required
              inputMode="numeric"
              maxLength={8}
              error={errors.taxId?.message}
              {...form.register('taxId')}
            />
            <TextField
              label="公司抬頭"
              required
              autoComplete="organization"
              error={errors.companyTitle?.message}
              {...form.register('companyTitle')}
            />
          </>
        )}
      </div>
    </Section>
  );
}

export function PaymentMethodSection({
  form,
  values,
  quote,
}: {
  form: Form;
  values: CheckoutForm;
  quote: QuoteResponse | undefined;
}) {
  const shipping = useShippingRules();
  const options = usePaymentOptions();
  const { errors } = form.formState;
  const offer = quote?.storePayments;
  const total = quote?.total ?? 0;
  // A store payment is shown only for a total in its range (the server refuses the others too);
  // one already chosen stays visible with a note, so the choice never vanishes under the cursor.
  const shows = (method: 'cvs_code' | 'cvs_barcode') =>
    values.paymentMethod === method || (method === 'cvs_code' ? offer?.cvsCode : offer?.cvsBarcode);
  const outOfRange =
    offer &&
    ((values.paymentMethod === 'cvs_code' && !offer.cvsCode) ||
      (values.paymentMethod === 'cvs_barcode' && !offer.cvsBarcode));
  return (
    <Section n={4} title="付款方式">
      <div className="grid gap-3">
        <Choice
          value="credit_card"
          checked={values.paymentMethod === 'credit_card'}
          {...form.register('paymentMethod')}
        >
          <span className="font-medium">{`${PAYMENT_METHOD_LABELS.credit_card}（綠界科技 ECPay）`}</span>
          <span className="text-sm text-ink-muted">VISA、Mastercard、JCB；請於 30 分鐘內完成付款</span>
        </Choice>
        {values.paymentMethod === 'credit_card' && offer && (
          <InstallmentChoice
            form={form}
            values={values}
            total={total}
            terms={offer.installments}
            from={offer.installmentsFrom}
          />
        )}
        <Choice value="atm" checked={values.paymentMethod === 'atm'} {...form.register('paymentMethod')}>
          <span className="font-medium">{PAYMENT_METHOD_LABELS.atm}</span>
          <span className="text-sm text-ink-muted">
            請於 30 分鐘內取得專屬帳號，之後 3 天內轉帳，入帳即出貨
          </span>
        </Choice>
        {options.data?.linePay && (
          <Choice
            value="line_pay"
            checked={values.paymentMethod === 'line_pay'}
            {...form.register('paymentMethod')}
          >
            <span className="font-medium">{PAYMENT_METHOD_LABELS.line_pay}</span>
            <span className="text-sm text-ink-muted">{LINE_PAY_NEXT_STEP}；請於 30 分鐘內完成付款</span>
          </Choice>
        )}
        {shows('cvs_code') && (
          <Choice
            value="cvs_code"
            checked={values.paymentMethod === 'cvs_code'}
            {...form.register('paymentMethod')}
          >
            <span className="font-medium">{PAYMENT_METHOD_LABELS.cvs_code}</span>
            <span className="text-sm text-ink-muted">
              {`送出訂單後取得一組繳費代碼，${offer ? `${offer.cvsCodeWithin}內` : '在期限內'}到 ${CVS_CODE_KIOSKS.join('、')} 輸入代碼、列印繳費單，再到櫃檯付款；收到款項即出貨`}
            </span>
          </Choice>
        )}
        {shows('cvs_barcode') && (
          <Choice
            value="cvs_barcode"
            checked={values.paymentMethod === 'cvs_barcode'}
            {...form.register('paymentMethod')}
          >
            <span className="font-medium">{PAYMENT_METHOD_LABELS.cvs_barcode}</span>
            <span className="text-sm text-ink-muted">
              {`送出訂單後取得繳費條碼，${offer ? `${offer.cvsBarcodeWithin}內` : '在期限內'}到 ${BARCODE_STORES.join('、')}櫃檯出示手機上的條碼（或列印）付款；超商約 2 天後通知我們，收到通知即出貨`}
            </span>
          </Choice>
        )}
        <Choice value="cod" checked={values.paymentMethod === 'cod'} {...form.register('paymentMethod')}>
          <span className="font-medium">
            {values.shippingMethod === 'home' ? PAYMENT_METHOD_LABELS.cod : '超商取貨付款'}
          </span>
          <span className="text-sm text-ink-muted">
            {values.shippingMethod === 'home' ? '商品送達時付現給配送人員' : '到門市取貨時在櫃檯付款'}
            ，加收手續費
            {shipping.data ? (
              ` ${formatTwd(shipping.data.codFee)}`
            ) : shipping.isError ? (
              ''
            ) : (
              <span
                aria-hidden="true"
                className="ml-1 inline-block h-4 w-14 animate-shimmer rounded-md bg-line/70 align-middle"
              />
            )}
          </span>
        </Choice>
      </div>
      {outOfRange && (
        <p role="alert" className="mt-2 text-sm text-danger">
          {`${PAYMENT_METHOD_LABELS[values.paymentMethod]}不適用 ${formatTwd(total)} 的訂單金額，請改選其他付款方式。`}
        </p>
      )}
      {errors.paymentMethod?.message && (
        <p role="alert" className="mt-2 text-sm text-danger">
          {errors.paymentMethod.message}
        </p>
      )}
    </Section>
  );
}

/**
 * 一次付清 or one of the terms offered for this total, under 信用卡: each with what the bank bills
 * a month (the first instalment carries what does not divide), and what happens next.
 */
function InstallmentChoice({
  form,
  values,
  total,
  terms,
  from,
}: {
  form: Form;
  values: CheckoutForm;
  total: number;
  terms: readonly number[];
  from: number;
}) {
  const { errors } = form.formState;
  if (terms.length === 0)
    return from > 0 ? (
      <p className="-mt-1 ml-1 text-sm text-ink-muted">{`訂單金額滿 ${formatTwd(from)} 可選信用卡分期（目前 ${formatTwd(total)}）。`}</p>
    ) : null;
  return (
    <fieldset className="-mt-1 ml-1 rounded-md border border-line bg-paper/60 p-3 sm:ml-8">
      <legend className="px-1 text-sm font-medium">分期付款（免利息，由發卡銀行每月列帳）</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        <Choice value="" checked={values.installments === ''} {...form.register('installments')}>
          <span className="font-medium">一次付清</span>
          <span className="tabular text-sm text-ink-muted">{formatTwd(total)}</span>
        </Choice>
        {terms.map((n) => (
          <Choice
            key={n}
            value={String(n)}
            checked={values.installments === String(n)}
            {...form.register('installments')}
          >
            <span className="font-medium">{`分 ${n} 期`}</span>
            <span className="tabular text-sm text-ink-muted">{perTerm(total, n)}</span>
          </Choice>
        ))}
      </div>
      <p className="mt-2 text-xs text-ink-muted">
        {values.installments
          ? `接下來會到綠界付款頁輸入信用卡，銀行核准後訂單即完成付款；${installmentWords(total, Number(values.installments))}，總額仍是 ${formatTwd(total)}。分期訂單退款時只能整筆退刷。`
          : '可分期的發卡銀行以綠界付款頁顯示為準。'}
      </p>
      {errors.installments?.message && (
        <p role="alert" className="mt-1 text-sm text-danger">
          {errors.installments.message}
        </p>
      )}
    </fieldset>
  );
}

/** 「每期 NT$500」, or 「首期 NT$502，其餘 NT$500」 when the total does not divide. */
function perTerm(total: number, terms: number): string {
  const { first, each } = installmentPlan(total, terms);
  return first === each ? `每期 ${formatTwd(each)}` : `首期 ${formatTwd(first)}，其餘 ${formatTwd(each)}`;
}

/** A typed code or one of the member's usable coupons; the quote says whether it applies. */
export function CouponSection({
  form,
  values,
  quote,
  coupons,
}: {
  form: Form;
  values: CheckoutForm;
  quote: QuoteResponse | undefined;
  coupons: readonly CouponView[];
}) {
  const { errors } = form.formState;
  const [couponInput, setCouponInput] = useState(values.couponCode);
  const usable = coupons.filter((c) => c.state === 'usable');
  return (
    <Section n={5} title="優惠碼">
      <div className="flex flex-col gap-3">
        <div className="flex items-end gap-2">
          <TextField
            containerClassName="flex-1"
            label="優惠碼（選填）"
            autoCapitalize="characters"
            value={couponInput}
            onChange={(e) => setCouponInput(e.target.value)}
            error={values.couponCode && quote?.couponError ? quote.couponError : errors.couponCode?.message}
          />
          <Button
            variant="secondary"
            onClick={() =>
              form.setValue('couponCode', couponInput.trim().toUpperCase(), { shouldDirty: true })
            }
          >
            套用
          </Button>
        </div>
        {values.couponCode && quote && !quote.couponError && (
          <p className="flex items-center gap-3 text-sm text-success" role="status">
            已套用優惠碼 {values.couponCode}
            <button
              type="button"
              className="text-ink-muted underline underline-offset-4"
              onClick={() => {
                form.setValue('couponCode', '');
                setCouponInput('');
              }}
            >
              取消
            </button>
          </p>
        )}
        {usable.length > 0 && (
          <div className="flex flex-col gap-2">
            <p className="text-sm font-medium">我的優惠券</p>
            <ul className="flex flex-col gap-2">
              {usable.map((c) => (
                <li
                  key={c.code}
                  className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-dashed border-tea/50 bg-tea-soft/30 px-3 py-2 text-sm"
                >
                  <span>
                    <span className="font-medium">{c.name}</span>
                    <span className="block text-ink-muted">{c.description}</span>
                  </span>
                  {/* The coupon in use says so; 使用 again would do nothing. */}
                  {values.couponCode === c.code && !quote?.couponError ? (
                    <span className="inline-flex min-h-9 items-center px-3 text-sm font-medium text-success">
                      已套用
                    </span>
                  ) : (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => {
                        setCouponInput(c.code);
                        form.setValue('couponCode', c.code, { shouldDirty: true });
                      }}
                    >
                      使用
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </Section>
  );
}

export function NoteSection({ form }: { form: Form }) {
  return (
    <Section n={6} title="訂單備註">
      <TextAreaField
        label="備註（選填）"
        placeholder="例如：希望週末送達、需要送禮包裝"
        maxLength={200}
        error={form.formState.errors.note?.message}
        {...form.register('note')}
      />
    </Section>
  );
}
