/**
 * Tracks forms the user has typed into and not yet submitted, without any work in each form:
 * an `input` event inside a form marks it dirty; submit or reset clears it. A form can opt out
 * with `data-ignore-unsaved`. Used so a new build never reloads away what a shopper typed.
 */
const dirty = new Set<HTMLFormElement>();
let installed = false;

function formOf(target: EventTarget | null): HTMLFormElement | null {
  if (!(target instanceof Element)) return null;
  const form = (target as HTMLInputElement).form ?? target.closest('form');
  return form && !form.hasAttribute('data-ignore-unsaved') ? form : null;
}

export function installUnsavedInputTracking(doc: Document = document): void {
  if (installed) return;
  installed = true;
  doc.addEventListener('input', (event) => {
    const form = formOf(event.target);
    if (form) dirty.add(form);
  }, true);
  doc.addEventListener('change', (event) => {
    const form = formOf(event.target);
    if (form) dirty.add(form);
  }, true);
  const clear = (event: Event) => {
    if (event.target instanceof HTMLFormElement) dirty.delete(event.target);
  };
  doc.addEventListener('submit', clear, true);
  doc.addEventListener('reset', clear, true);
}

/** True while a form still on the page holds input the user has not submitted. */
export function hasUnsavedInput(): boolean {
  for (const form of dirty) {
    if (!form.isConnected) dirty.delete(form);
  }
  return dirty.size > 0;
}

/** For tests. */
export function resetUnsavedInputTracking(): void {
  dirty.clear();
}
