import type { PaymentForm } from '@shop/shared/orders';

/** Posts the signed payment form to the gateway (ECPay or the sandbox): a full-page navigation. */
export function submitPaymentForm(payment: PaymentForm): void {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = payment.action;
  form.setAttribute('data-ignore-unsaved', '');
  for (const [name, value] of Object.entries(payment.fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}
