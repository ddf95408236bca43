import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { options } from 'preact';

// Preact runs effects after the next frame: a requestAnimationFrame, and a 100 ms timer beside it
// that cancels the frame. A test file that ends inside those 100 ms leaves the timer behind; when it
// fires, jsdom's window is gone and `cancelAnimationFrame is not defined` fails the run (seen in
// CI). In tests, effects wait for a plain timer instead, which needs no window.
options.requestAnimationFrame = (callback) => {
  setTimeout(callback, 0);
};

// A test fails on an unexpected console.error (React warnings, failed renders).
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  if (errors.length > 0) throw new Error(`console.error was called:\n${errors.map((a) => a.map(String).join(' ')).join('\n')}`);
});

// jsdom has no modal dialogs: open and close flip the attribute the way the browser does.
if (typeof HTMLDialogElement !== 'undefined') {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
}
