import { expect, test } from './test.ts';
import type { Page } from '@playwright/test';
import { signInBrowser, uniqueEmail } from './support.ts';

/**
 * An address like this passed the shop's e-mail rule until it refused `?`, so accounts and contact
 * messages may still hold one. Put into a mailto: link unencoded, it adds a recipient.
 */
const HOSTILE_EMAIL = 'x?cc=attacker@evil.example';
/** An office number with an extension: `#` must reach the dialer, not start a URL fragment. */
const HOSTILE_PHONE = '02-2345-6789#123?body=x';

/** Serves the console page's own data with the customer's address swapped for the hostile one. */
async function swapContact(page: Page, apiPath: string, swap: (json: Record<string, unknown>) => void) {
  await page.route(`**${apiPath}`, async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as Record<string, unknown>;
    swap(json);
    await route.fulfill({ response, json });
  });
}

/** The parts of a mailto: link as a mail program reads them. */
function mailto(href: string | null) {
  const url = new URL(href ?? '');
  return {
    protocol: url.protocol,
    to: decodeURIComponent(url.pathname),
    fields: [...url.searchParams.keys()],
  };
}

test.describe('console links to a customer', () => {
  test('an order’s e-mail link writes to the customer alone, whatever the address holds', async ({
    browser,
  }) => {
    const context = await browser.newContext();
    await signInBrowser(context, uniqueEmail('owner'), 'owner');
    const list = (await (await context.request.get('/api/admin/orders?page=1')).json()) as {
      items: { orderNo: string }[];
    };
    const orderNo = list.items[0]?.orderNo;
    expect(orderNo, 'the demo data has orders').toBeTruthy();
    const page = await context.newPage();
    await swapContact(page, `/api/admin/orders/${orderNo}`, (json) => {
      (json.customer as { email: string }).email = HOSTILE_EMAIL;
    });
    await page.goto(`/admin/orders/${orderNo}`);
    const link = page.getByRole('link', { name: HOSTILE_EMAIL });
    await expect(link).toBeVisible();
    expect(mailto(await link.getAttribute('href'))).toEqual({
      protocol: 'mailto:',
      to: HOSTILE_EMAIL,
      fields: [],
    });
    await context.close();
  });

  test('a contact message’s e-mail and phone links carry the address and number whole', async ({
    browser,
  }) => {
    const context = await browser.newContext();
    await signInBrowser(context, uniqueEmail('owner'), 'owner');
    const sent = await context.request.post('/api/contact', {
      data: {
        name: '林小嵐',
        email: 'lan@example.com',
        phone: '0912345678',
        subject: '商品諮詢',
        message: '請問凍頂烏龍有小包裝嗎？',
        consent: true,
        website: '',
        startedAt: Date.now() - 10_000,
      },
    });
    expect(sent.ok(), await sent.text()).toBe(true);
    const { referenceNo } = (await sent.json()) as { referenceNo: string };
    const page = await context.newPage();
    await swapContact(page, `/api/admin/messages/${referenceNo}`, (json) => {
      json.email = HOSTILE_EMAIL;
      json.phone = HOSTILE_PHONE;
    });
    await page.goto(`/admin/messages?open=${encodeURIComponent(referenceNo)}`);
    const dialog = page.getByRole('dialog');
    const address = dialog.getByRole('link', { name: HOSTILE_EMAIL });
    await expect(address).toBeVisible();
    expect(mailto(await address.getAttribute('href'))).toEqual({
      protocol: 'mailto:',
      to: HOSTILE_EMAIL,
      fields: [],
    });
    // A reply is sent by the shop to the address it stored, not through a mailto: link.
    await expect(dialog.getByRole('link', { name: /回覆/ })).toHaveCount(0);
    await expect(dialog.getByRole('form', { name: '回覆來信' })).toBeVisible();
    const tel = new URL((await dialog.getByRole('link', { name: HOSTILE_PHONE }).getAttribute('href')) ?? '');
    expect(tel.protocol).toBe('tel:');
    // Digits, + and # reach the dialer (# encoded), nothing else: no query, no fragment.
    expect(tel.search).toBe('');
    expect(tel.hash).toBe('');
    expect(decodeURIComponent(tel.pathname)).toBe('0223456789#123');
    await context.close();
  });
});
