import { expect, test } from './test.ts';
import { signInBrowser } from './support.ts';
import type { Locator, Page } from '@playwright/test';

/**
 * WCAG 2.4.7 (focus visible): every control a keyboard reaches shows where the focus is. Each
 * control is focused as a keyboard user focuses it (after a key press, so :focus-visible holds),
 * and must then draw an outline or a ring at least 2 px wide.
 */
async function focusRing(page: Page, control: Locator) {
  await page.keyboard.press('Shift');
  await control.focus();
  return control.evaluate((el) => {
    const style = getComputedStyle(el);
    return {
      outline: style.outlineStyle !== 'none' ? parseFloat(style.outlineWidth) : 0,
      shadow: style.boxShadow,
    };
  });
}

async function expectRings(page: Page, controls: Record<string, Locator>) {
  for (const [name, control] of Object.entries(controls)) {
    await expect(control, name).toBeVisible();
    const ring = await focusRing(page, control);
    expect(ring.outline >= 2 || ring.shadow !== 'none', `${name}: ${JSON.stringify(ring)}`).toBe(true);
  }
}

test('text fields, text areas, selects, checkboxes and buttons show a focus ring in the shop', async ({
  page,
}) => {
  await page.goto('/contact');
  const form = page.locator('form').filter({ has: page.getByLabel('姓名') });
  await expectRings(page, {
    'text field': form.getByLabel('姓名'),
    'e-mail field': form.getByLabel('電子郵件'),
    select: form.getByLabel('詢問類別'),
    'text area': form.getByLabel('訊息內容'),
    checkbox: form.getByRole('checkbox').first(),
    button: form.getByRole('button').last(),
  });
});

test('a product card shows where the focus is when its link is reached by keyboard', async ({
  page,
  context,
}) => {
  await signInBrowser(context);
  await page.goto('/mall');
  const link = page.locator('main article a[href^="/mall/"]').first();
  const card = link.locator('xpath=ancestor::article[1]');
  await page.keyboard.press('Shift');
  await link.focus();
  const ring = await card.evaluate((el) => ({
    style: getComputedStyle(el).outlineStyle,
    width: parseFloat(getComputedStyle(el).outlineWidth),
  }));
  expect(ring.style !== 'none' && ring.width >= 2, JSON.stringify(ring)).toBe(true);
});

test('the console’s fields and selects show a focus ring too', async ({ page, context }) => {
  await signInBrowser(context, undefined, 'owner');
  await page.goto('/admin/orders');
  await expectRings(page, {
    select: page.locator('main select').first(),
    'search field': page.locator('main input[type="search"], main input[type="text"]').first(),
  });
});
