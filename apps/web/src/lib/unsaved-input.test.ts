import { beforeEach, describe, expect, it } from 'vitest';
import {
  hasUnsavedInput,
  installUnsavedInputTracking,
  markFormSaved,
  resetUnsavedInputTracking,
} from './unsaved-input.ts';

const type = (input: HTMLInputElement, value: string) => {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
};
const submit = (form: HTMLFormElement) =>
  form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));

describe('unsaved input tracking', () => {
  beforeEach(() => {
    installUnsavedInputTracking();
    resetUnsavedInputTracking();
    document.body.innerHTML = '';
  });

  it('marks a form dirty on input, keeps it dirty when sent, and clean once saved', () => {
    document.body.innerHTML = '<form id="f"><input name="a"></form>';
    const input = document.querySelector('input')!;
    const form = document.querySelector('form')!;
    expect(hasUnsavedInput()).toBe(false);
    type(input, '山');
    expect(hasUnsavedInput()).toBe(true);
    // Sent, but the answer may still be a refusal: the typed text is all the person has.
    submit(form);
    expect(hasUnsavedInput()).toBe(true);
    markFormSaved(input);
    expect(hasUnsavedInput()).toBe(false);
  });

  it('a refused submit keeps the form protected, however often it is sent again', () => {
    document.body.innerHTML = '<form><input name="a"></form>';
    const input = document.querySelector('input')!;
    type(input, '山嵐');
    submit(document.querySelector('form')!);
    submit(document.querySelector('form')!);
    expect(hasUnsavedInput()).toBe(true);
  });

  it('text typed while a save was on its way stays protected after that save', () => {
    document.body.innerHTML = '<form><input name="a"></form>';
    const input = document.querySelector('input')!;
    type(input, '山');
    submit(document.querySelector('form')!);
    type(input, '山嵐');
    markFormSaved(document.querySelector('form'));
    expect(hasUnsavedInput()).toBe(true);
  });

  it('a reset form holds nothing to lose', () => {
    document.body.innerHTML = '<form><input name="a"></form>';
    type(document.querySelector('input')!, '山');
    document.querySelector('form')!.dispatchEvent(new Event('reset', { bubbles: true }));
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
