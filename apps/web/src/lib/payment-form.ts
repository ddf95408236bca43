/**
 * Posts a gateway's form as the server made it (ECPay's payment page or store map, or the
 * sandbox's): a full-page navigation.
 */
export function submitPaymentForm(
  payment: { readonly action: string; readonly fields: Readonly<Record<string, string>> },
  target?: '_blank',
): void {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = payment.action;
  if (target) form.target = target;
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
  if (target) form.remove();
}

/** ECPay's store map has a phone layout (Device 1): a narrow or touch-only screen gets it. */
export const mapDevice = (): 'mobile' | 'pc' =>
  typeof window !== 'undefined' && window.matchMedia('(max-width: 767px), (pointer: coarse)').matches
    ? 'mobile'
    : 'pc';
