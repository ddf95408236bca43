import { test as base, expect, type Page } from '@playwright/test';

export { expect };

/**
 * The shop's pages arrive rendered by the server and become the app a moment later
 * (docs/decisions/024-server-rendering.md): until then their controls ignore the pointer and their
 * fields are not the app's yet. A person waits for that moment without noticing; a test acts within
 * milliseconds, so after every full page load (goto, reload) it waits for the app to take over —
 * on every page of the worker, those of contexts a test opens itself included.
 */
let waitForApp = true;
const patched = new WeakSet<object>();

async function appReady(page: Page): Promise<void> {
  if (!waitForApp) return;
  // A page that never becomes the app (a test that blocks its code) or that leaves is not waited for.
  await page
    .locator('#root[data-hydrating]')
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}

function patch(page: Page): void {
  const proto = Object.getPrototypeOf(page) as Page;
  if (patched.has(proto)) return;
  patched.add(proto);
  const goto = proto.goto;
  const reload = proto.reload;
  proto.goto = async function (this: Page, url, options) {
    const res = await goto.call(this, url, options);
    if (options?.waitUntil !== 'commit') await appReady(this);
    return res;
  };
  proto.reload = async function (this: Page, options) {
    const res = await reload.call(this, options);
    if (options?.waitUntil !== 'commit') await appReady(this);
    return res;
  };
}

export const test = base.extend<{ appReadyAfterLoads: void }>({
  appReadyAfterLoads: [
    async ({ page, javaScriptEnabled }, use) => {
      patch(page);
      waitForApp = javaScriptEnabled !== false;
      await use();
    },
    { auto: true },
  ],
});
