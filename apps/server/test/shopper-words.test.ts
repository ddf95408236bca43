import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, type TestContext } from './helpers.ts';
import { ORIGIN } from './shop.ts';

/** A refused request's message is shown to shoppers as it is: their words, never field keys. */
describe.skipIf(!dbAvailable())('refusal messages a shopper reads', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  const contact = (overrides: Record<string, unknown>) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: '198.51.100.7',
      headers: { origin: ORIGIN },
      payload: {
        name: '林小嵐',
        email: 'lan@example.com',
        phone: '0912-345-678',
        subject: '商品諮詢',
        message: '請問凍頂烏龍適合冷泡嗎？想買來送長輩。',
        consent: true,
        website: '',
        startedAt: Date.now() - 60_000,
        ...overrides,
      },
    });

  it('a form refusal says what to fix without the field key', async () => {
    const one = (await contact({ message: '你好' })).json().error;
    expect(one.message).toBe('訊息內容不能少於 10 個字元。');
    expect(one.fields.message).toBe('訊息內容不能少於 10 個字元');
    const two = (await contact({ message: '你好', consent: false })).json().error;
    expect(two.message).toBe('訊息內容不能少於 10 個字元；另有 1 個欄位需要修正。');
  });

  it('a bad address (query) says so in words, without the parameter name', async () => {
    const page = (await ctx.app.inject({ method: 'GET', url: '/api/content/media?page=0' })).json().error;
    expect(page.message).toBe('網址中的條件有誤：頁碼至少為 1。');
    const unknown = (await ctx.app.inject({ method: 'GET', url: '/api/content/media?sort=old' })).json()
      .error;
    expect(unknown.message).toBe('網址中的條件有誤，請回到上一頁重新選擇。');
  });
});
