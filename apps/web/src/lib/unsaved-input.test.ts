import { beforeEach, describe, expect, it } from 'vitest';
import { hasUnsavedInput, installUnsavedInputTracking, resetUnsavedInputTracking } from './unsaved-input.ts';

describe('unsaved input tracking', () => {
  beforeEach(() => {
    installUnsavedInputTracking();
    resetUnsavedInputTracking();
    document.body.innerHTML = '';
  });

  it('marks a form dirty on input and clean on submit', () => {
    document.body.innerHTML = '<form id="f"><input name="a"></form>';
    const input = document.querySelector('input')!;
    expect(hasUnsavedInput()).toBe(false);
    input.value = '山';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    expect(hasUnsavedInput()).toBe(true);
    document.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    expect(hasUnsavedInput()).toBe(false);
  });

  it('forgets forms that left the page and ignores opted-out forms', () => {
    document.body.innerHTML = '<form data-ignore-unsaved><input></form><form id="b"><input></form>';
    const [a, b] = Array.from(document.querySelectorAll('input'));
    a!.dispatchEvent(new Event('input', { bubbles: true }));
    expect(hasUnsavedInput()).toBe(false);
    b!.dispatchEvent(new Event('input', { bubbles: true }));
    expect(hasUnsavedInput()).toBe(true);
    document.getElementById('b')!.remove();
    expect(hasUnsavedInput()).toBe(false);
  });
});
