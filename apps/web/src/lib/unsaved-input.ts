/**
 * Tracks forms the user has typed into and not yet saved, without any work in each form: an
 * `input` or `change` event inside a form marks it dirty. Sending it is not saving it: a submit
 * the browser's checks, the form's own rules or the server refused leaves the typed text on screen,
 * so the form stays protected until `markFormSaved` says the server took it, the form is reset,
 * or it leaves the page. A form can opt out with `data-ignore-unsaved`. Used so a new build never
 * reloads away what a shopper typed.
 */
/** Each dirty form, with the number of the last input typed into it. */
const dirty = new Map<HTMLFormElement, number>();
/** For each submitted form, the number of its last input when it was sent. */
const submitted = new WeakMap<HTMLFormElement, number>();
let inputs = 0;
let installed = false;

function formOf(target: EventTarget | null | undefined): HTMLFormElement | null {
  if (!(target instanceof Element)) return null;
  const form =
    target instanceof HTMLFormElement
      ? target
      : ((target as HTMLInputElement).form ?? target.closest('form'));
  return form && !form.hasAttribute('data-ignore-unsaved') ? form : null;
}

export function installUnsavedInputTracking(doc: Document = document): void {
  if (installed) return;
  installed = true;
  const touched = (event: Event) => {
    const form = formOf(event.target);
    if (form) dirty.set(form, ++inputs);
  };
  doc.addEventListener('input', touched, true);
  doc.addEventListener('change', touched, true);
  doc.addEventListener(
    'submit',
    (event) => {
      const form = formOf(event.target);
      if (form && dirty.has(form)) submitted.set(form, dirty.get(form)!);
    },
    true,
  );
  doc.addEventListener(
    'reset',
    (event) => {
      const form = formOf(event.target);
      if (form) dirty.delete(form);
    },
    true,
  );
}

/**
 * Call when the server accepted what a form sent (`element` is the form or anything inside it).
 * Text typed while the request was on its way is newer than what was saved, so the form then
 * stays protected.
 */
export function markFormSaved(element: EventTarget | null | undefined): void {
  const form = formOf(element);
  if (!form) return;
  const sent = submitted.get(form);
  if (sent !== undefined && dirty.get(form) === sent) dirty.delete(form);
}

/** True while a form still on the page holds input the user has not saved. */
export function hasUnsavedInput(): boolean {
  for (const form of dirty.keys()) {
    if (!form.isConnected) dirty.delete(form);
  }
  return dirty.size > 0;
}

/** For tests. */
export function resetUnsavedInputTracking(): void {
  dirty.clear();
}
