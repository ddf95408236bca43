import { and, asc, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentDocument, ContentList, ContentOverview } from '@shop/shared/admin-content';
import type { FaqView, MasterView, TextPageView } from '@shop/shared/content-views';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { seedTestContent } from '../../../test/content-fixtures.ts';
import { ORIGIN } from '../../../test/shop.ts';
import { auditLog, contentItems } from '../../db/schema.ts';
import { DEMO_FAQ, DEMO_FAQ_CATEGORIES, DEMO_TEXT_PAGES } from '../../seed/content-policies.ts';
import { DEMO_MASTERS, DEMO_TEAM } from '../../seed/content-people.ts';

type Method = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

describe.skipIf(!dbAvailable())('console: site content', () => {
  let ctx: TestContext;
  const cookies: Record<'owner' | 'staff' | 'viewer' | 'customer', string> = {
    owner: '',
    staff: '',
    viewer: '',
    customer: '',
  };
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    await seedTestContent(ctx);
    for (const who of ['owner', 'staff', 'viewer', 'customer'] as const)
      cookies[who] = (await signIn(ctx.app, `${who}@example.com`)).cookie;
    await setRole(ctx.database, 'owner@example.com', 'owner');
    await setRole(ctx.database, 'staff@example.com', 'staff');
    await setRole(ctx.database, 'viewer@example.com', 'viewer');
  });
  afterAll(async () => ctx.close());

  const call = (method: Method, url: string, cookie?: string, payload?: unknown) =>
    ctx.app.inject({
      method,
      url,
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const as = (who: keyof typeof cookies) => ({
    get: (url: string) => call('GET', url, cookies[who]),
    put: (url: string, body: unknown) => call('PUT', url, cookies[who], body),
    post: (url: string, body?: unknown) => call('POST', url, cookies[who], body),
    patch: (url: string, body: unknown) => call('PATCH', url, cookies[who], body),
    del: (url: string) => call('DELETE', url, cookies[who]),
  });
  const staff = as('staff');
  const owner = as('owner');
  const viewer = as('viewer');

  /** A public content request, as a shopper's browser makes it. */
  const pub = async <T>(url: string, cookie?: string) => {
    const res = await call('GET', url, cookie);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return { body: res.json() as T, headers: res.headers };
  };
  const doc = async (kind: string, slug: string) => {
    const res = await owner.get(`/api/admin/content/${kind}/${slug}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ContentDocument;
  };
  const lastAudit = async (action: string) => {
    const [row] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, action))
      .orderBy(desc(auditLog.id))
      .limit(1);
    return row;
  };
  const auditCount = async () => (await ctx.database.db.select({ n: count() }).from(auditLog))[0]!.n;
  const snapshot = () =>
    ctx.database.db.select().from(contentItems).orderBy(asc(contentItems.kind), asc(contentItems.slug));
  const shippingPage = () =>
    structuredClone(DEMO_TEXT_PAGES.shipping) as unknown as Record<string, unknown> & {
      title: string;
      sections: Array<{ heading: string; blocks: unknown[] }>;
    };
  const masterDoc = async (slug: string) => (await doc('master', slug)).data as Record<string, unknown>;

  describe('who may do what', () => {
    const faqSlug = DEMO_FAQ[0]!.slug;
    const endpoints: Array<{
      name: string;
      method: Method;
      url: string;
      body?: object | (() => Promise<unknown>);
      write: boolean;
    }> = [
      { name: 'overview', method: 'GET', url: '/api/admin/content', write: false },
      { name: 'list', method: 'GET', url: '/api/admin/content/faq', write: false },
      { name: 'document', method: 'GET', url: `/api/admin/content/faq/${faqSlug}`, write: false },
      {
        name: 'save draft',
        method: 'PUT',
        url: `/api/admin/content/faq/${faqSlug}/draft`,
        body: async () => ({ data: (await doc('faq', faqSlug)).data }),
        write: true,
      },
      { name: 'publish', method: 'POST', url: `/api/admin/content/faq/${faqSlug}/publish`, write: true },
      {
        name: 'discard draft',
        method: 'DELETE',
        url: `/api/admin/content/faq/${faqSlug}/draft`,
        write: true,
      },
      {
        name: 'create',
        method: 'POST',
        url: '/api/admin/content/faqCategory',
        body: { data: { slug: 'matrix-category', name: '不該出現' } },
        write: true,
      },
      { name: 'delete', method: 'DELETE', url: `/api/admin/content/faq/${faqSlug}`, write: true },
      {
        name: 'visibility',
        method: 'PATCH',
        url: `/api/admin/content/faq/${faqSlug}`,
        body: { published: false },
        write: true,
      },
      {
        name: 'reorder',
        method: 'PUT',
        url: '/api/admin/content/faqCategory/order',
        body: { slugs: DEMO_FAQ_CATEGORIES.map((c) => c.slug).reverse() },
        write: true,
      },
    ];

    it.each(endpoints)(
      '$name ($method $url): anonymous 401, shopper 403, viewer only reads; nothing changes',
      async (e) => {
        const before = await snapshot();
        const audits = await auditCount();
        const body = typeof e.body === 'function' ? await e.body() : e.body;

        const anonymous = await call(e.method, e.url, undefined, body);
        expect(anonymous.statusCode).toBe(401);
        expect(anonymous.json().error.code).toBe('unauthenticated');
        const shopper = await call(e.method, e.url, cookies.customer, body);
        expect(shopper.statusCode).toBe(403);
        expect(shopper.json().error).toEqual({ code: 'forbidden', message: '這個帳號沒有管理後台的權限。' });
        const byViewer = await call(e.method, e.url, cookies.viewer, body);
        if (e.write) {
          expect(byViewer.statusCode).toBe(403);
          expect(byViewer.json().error.message).toBe('您的角色沒有權限進行這項操作。');
        } else {
          expect(byViewer.statusCode, byViewer.body).toBe(200);
          expect(byViewer.headers['cache-control']).toBe('no-store');
        }
        expect(await snapshot()).toEqual(before);
        expect(await auditCount()).toBe(audits);
      },
    );

    it('lets staff and the owner write (each write leaves its own audit row with the actor)', async () => {
      const slug = DEMO_FAQ[1]!.slug;
      const data = (await doc('faq', slug)).data;
      expect(
        (
          await staff.put(`/api/admin/content/faq/${slug}/draft`, {
            data: { ...data, question: '店員改的問題？' },
          })
        ).statusCode,
      ).toBe(200);
      expect(await lastAudit('content.draft')).toMatchObject({
        actorEmail: 'staff@example.com',
        actorRole: 'staff',
        entity: 'content',
        entityId: `faq/${slug}`,
      });
      expect((await owner.del(`/api/admin/content/faq/${slug}/draft`)).statusCode).toBe(200);
      expect(await lastAudit('content.discard')).toMatchObject({
        actorEmail: 'owner@example.com',
        actorRole: 'owner',
        entityId: `faq/${slug}`,
      });
    });
  });

  describe('reading', () => {
    it('lists every kind with its counts, last change, and the state of each page', async () => {
      const res = await viewer.get('/api/admin/content');
      expect(res.statusCode).toBe(200);
      const { kinds } = res.json() as ContentOverview;
      expect(kinds.map((k) => k.kind)).toEqual([
        'landing',
        'company',
        'textPage',
        'team',
        'master',
        'job',
        'media',
        'download',
        'ip',
        'faqCategory',
        'faq',
      ]);
      const faq = kinds.find((k) => k.kind === 'faq')!;
      expect(faq).toMatchObject({ total: DEMO_FAQ.length, visible: DEMO_FAQ.length, drafts: 0, pages: [] });
      expect(Date.parse(faq.updatedAt!)).toBeGreaterThan(Date.now() - 600_000);
      expect(kinds.find((k) => k.kind === 'team')).toMatchObject({
        total: DEMO_TEAM.length,
        visible: DEMO_TEAM.length,
      });
      const pages = kinds.find((k) => k.kind === 'textPage')!.pages;
      expect(pages.map((p) => [p.slug, p.hasDraft])).toEqual([
        ['shipping', false],
        ['transport', false],
        ['serviceTerms', false],
        ['privacyPolicy', false],
      ]);
      expect(kinds.find((k) => k.kind === 'landing')!.pages.map((p) => p.slug)).toEqual(['landing']);
    });

    it('lists a kind’s items in site order with their names, category and state', async () => {
      const res = await viewer.get('/api/admin/content/faq');
      expect(res.statusCode).toBe(200);
      const list = res.json() as ContentList;
      expect(list.items.map((i) => i.slug)).toEqual(DEMO_FAQ.map((f) => f.slug));
      expect(list.items[0]).toMatchObject({
        slug: DEMO_FAQ[0]!.slug,
        title: DEMO_FAQ[0]!.question,
        subtitle: '訂購與付款',
        published: true,
        hasDraft: false,
        sortOrder: 0,
      });
      const pages = (await viewer.get('/api/admin/content/textPage')).json() as ContentList;
      expect(pages.items.map((p) => [p.slug, p.title])).toEqual([
        ['shipping', '購物與配送須知'],
        ['transport', '運送方式'],
        ['serviceTerms', '服務條款'],
        ['privacyPolicy', '隱私權政策'],
      ]);
      const masters = (await viewer.get('/api/admin/content/master')).json() as ContentList;
      expect(masters.items.map((m) => [m.title, m.subtitle])).toEqual(
        DEMO_MASTERS.map((m) => [m.name, m.title]),
      );
    });

    it('answers one document with its draft (none yet), and 404 or 400 for what does not exist', async () => {
      const page = await doc('textPage', 'shipping');
      expect(page).toMatchObject({ kind: 'textPage', slug: 'shipping', draft: null, published: true });
      expect(page.data.title).toBe('購物與配送須知');
      // Stored with the tokens, not the amounts: the editor edits {{home.fee}}.
      expect(JSON.stringify(page.data)).toContain('{{home.fee}}');
      const missing = await viewer.get('/api/admin/content/master/nobody-here');
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe('找不到這筆網站內容，可能已被刪除。');
      const badKind = await viewer.get('/api/admin/content/recipes');
      expect(badKind.statusCode).toBe(400);
      expect(badKind.json().error.fields.kind).toBe('沒有這種網站內容');
    });
  });

  describe('drafts, preview and publishing', () => {
    it('saves a draft without changing the public page, shows it in preview to console roles only, and publishes it at once', async () => {
      const url = '/api/content/pages/shipping';
      // Warm the public cache: publishing must drop it.
      const live = await pub<TextPageView>(url);
      expect(live.body.title).toBe('購物與配送須知');
      expect(live.headers['cache-control']).toBe('public, no-cache');

      const edited = shippingPage();
      edited.title = '購物須知（冬季版）';
      edited.sections[0]!.heading = '怎麼下單';
      const saved = await staff.put('/api/admin/content/textPage/shipping/draft', { data: edited });
      expect(saved.statusCode, saved.body).toBe(200);
      const afterSave = saved.json() as ContentDocument;
      expect(afterSave.draft).toMatchObject({ title: '購物須知（冬季版）' });
      expect(afterSave.data.title).toBe('購物與配送須知');
      const draftAudit = await lastAudit('content.draft');
      expect(draftAudit).toMatchObject({
        actorEmail: 'staff@example.com',
        entityId: 'textPage/shipping',
        before: { draft: null },
        after: { draft: { title: '購物須知（冬季版）' } },
      });

      // Visitors (and anyone without the preview flag) still get the published page.
      expect((await pub<TextPageView>(url)).body.title).toBe('購物與配送須知');
      expect((await pub<TextPageView>(url, cookies.staff)).body.title).toBe('購物與配送須知');
      // Preview: console roles that may read content get the draft, never cached.
      for (const who of ['staff', 'owner', 'viewer'] as const) {
        const preview = await pub<TextPageView>(`${url}?preview=1`, cookies[who]);
        expect(preview.body.title, who).toBe('購物須知（冬季版）');
        expect(preview.body.sections[0]!.heading).toBe('怎麼下單');
        expect(preview.headers['cache-control']).toBe('no-store');
        expect(preview.headers.etag).toBeUndefined();
      }
      // A shopper or an anonymous visitor asking for a preview gets the published page.
      expect((await pub<TextPageView>(`${url}?preview=1`, cookies.customer)).body.title).toBe(
        '購物與配送須知',
      );
      expect((await pub<TextPageView>(`${url}?preview=1`)).body.title).toBe('購物與配送須知');
      // ...and a staff preview did not leave the draft in the cache for them.
      expect((await pub<TextPageView>(`${url}?preview=1`)).body.title).toBe('購物與配送須知');
      const overview = (await viewer.get('/api/admin/content')).json() as ContentOverview;
      expect(overview.kinds.find((k) => k.kind === 'textPage')).toMatchObject({ drafts: 1 });
      expect(overview.kinds.find((k) => k.kind === 'textPage')!.pages[0]).toMatchObject({
        slug: 'shipping',
        hasDraft: true,
      });

      const published = await staff.post('/api/admin/content/textPage/shipping/publish');
      expect(published.statusCode, published.body).toBe(200);
      expect(published.json()).toMatchObject({ draft: null, data: { title: '購物須知（冬季版）' } });
      expect((await pub<TextPageView>(url)).body.title).toBe('購物須知（冬季版）');
      const publishAudit = await lastAudit('content.publish');
      expect(publishAudit).toMatchObject({
        actorEmail: 'staff@example.com',
        entityId: 'textPage/shipping',
        before: { data: { title: '購物與配送須知' } },
        after: { data: { title: '購物須知（冬季版）' } },
      });

      // Nothing left to publish or discard.
      const again = await staff.post('/api/admin/content/textPage/shipping/publish');
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toBe('沒有尚未發布的草稿。');
      expect((await staff.del('/api/admin/content/textPage/shipping/draft')).statusCode).toBe(409);
    });

    it('discards a draft: the editor goes back to the published document', async () => {
      const data = await masterDoc('lin-xiu-qin');
      const res = await staff.put('/api/admin/content/master/lin-xiu-qin/draft', {
        data: { ...data, quote: '草稿裡的一句話。' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const discarded = await owner.del('/api/admin/content/master/lin-xiu-qin/draft');
      expect(discarded.statusCode).toBe(200);
      expect(discarded.json()).toMatchObject({ draft: null, data: { quote: data.quote } });
      expect(await lastAudit('content.discard')).toMatchObject({
        actorEmail: 'owner@example.com',
        entityId: 'master/lin-xiu-qin',
        before: { draft: { quote: '草稿裡的一句話。' } },
        after: { draft: null },
      });
      const preview = await pub<MasterView>('/api/content/masters/lin-xiu-qin?preview=1', cookies.staff);
      expect(preview.body.quote).toBe(data.quote);
    });

    it('previews a member-only detail page and lists with the draft, for staff only', async () => {
      const data = await masterDoc('huang-bo-jun');
      expect(
        (
          await staff.put('/api/admin/content/master/huang-bo-jun/draft', {
            data: { ...data, name: '黃柏鈞（草稿）' },
          })
        ).statusCode,
      ).toBe(200);
      try {
        const detail = await pub<MasterView>('/api/content/masters/huang-bo-jun?preview=1', cookies.staff);
        expect(detail.body.name).toBe('黃柏鈞（草稿）');
        expect(detail.headers['cache-control']).toBe('no-store');
        expect(
          (await pub<MasterView>('/api/content/masters/huang-bo-jun?preview=1', cookies.customer)).body.name,
        ).toBe(data.name);
        const list = await pub<MasterView[]>('/api/content/masters?preview=1', cookies.staff);
        expect(list.body.find((m) => m.slug === 'huang-bo-jun')!.name).toBe('黃柏鈞（草稿）');
        expect(
          (await pub<MasterView[]>('/api/content/masters?preview=1')).body.find(
            (m) => m.slug === 'huang-bo-jun',
          )!.name,
        ).toBe(data.name);
        // The landing page shows the first three masters: the preview uses the draft there too.
        const landing = await pub<{ masters: MasterView[] }>('/api/content/landing?preview=1', cookies.owner);
        expect(landing.body.masters.map((m) => m.name)).toContain('黃柏鈞（草稿）');
        expect(
          (await pub<{ masters: MasterView[] }>('/api/content/landing')).body.masters.map((m) => m.name),
        ).not.toContain('黃柏鈞（草稿）');
        // The media list takes the flag beside its own strict query.
        expect((await call('GET', '/api/content/media?page=1&preview=1', cookies.staff)).statusCode).toBe(
          200,
        );
      } finally {
        await staff.del('/api/admin/content/master/huang-bo-jun/draft');
      }
    });
  });

  describe('validation', () => {
    it('refuses a document that does not fit its kind with zh-TW messages per field path, changing nothing', async () => {
      const before = await snapshot();
      const audits = await auditCount();
      const bad = shippingPage();
      bad.title = '   ';
      bad.sections[0]!.blocks[0] = { type: 'paragraph', text: '' };
      bad.sections[1]!.blocks[0] = { type: 'table', rows: [] };
      bad.updated = '2026/11/01';
      const res = await staff.put('/api/admin/content/textPage/shipping/draft', { data: bad });
      expect(res.statusCode).toBe(400);
      const error = res.json().error;
      expect(error.code).toBe('invalid-argument');
      expect(error.fields).toEqual({
        title: '請填寫頁面標題',
        'sections.0.blocks.0.text': '請填寫段落文字',
        'sections.1.blocks.0.type': '區塊類型必須是 段落、小標題、條列、步驟、引言 其中之一',
        updated: '最後更新日期必須是日期（例如 2026-11-01）',
      });
      expect(error.message).toBe('有 4 個欄位需要修正，第一個是「頁面標題」：請填寫頁面標題');
      expect(await snapshot()).toEqual(before);
      expect(await auditCount()).toBe(audits);
    });

    it('refuses a link that is not a page (javascript:, data:, //elsewhere) in the announcements and the media list, changing nothing', async () => {
      const before = await snapshot();
      const landing = (await doc('landing', 'landing')).data as {
        announcements: Array<{ text: string; href?: string }>;
      };
      for (const href of [
        'javascript:alert(document.cookie)',
        ' JavaScript:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        '//evil.example/mall',
      ]) {
        const bad = structuredClone(landing);
        bad.announcements[0]!.href = href;
        const res = await staff.put('/api/admin/content/landing/landing/draft', { data: bad });
        expect(res.statusCode, href).toBe(400);
        expect(Object.keys(res.json().error.fields), href).toEqual(['announcements.0.href']);
      }
      const mediaSlug = (
        (await staff.get('/api/admin/content/media')).json() as { items: Array<{ slug: string }> }
      ).items[0]!.slug;
      const media = (await doc('media', mediaSlug)).data as { url: string };
      for (const url of ['javascript:alert(document.cookie)', 'data:text/html,hi', 'ftp://files.example/a']) {
        const res = await staff.put(`/api/admin/content/media/${mediaSlug}/draft`, {
          data: { ...media, url },
        });
        expect(res.statusCode, url).toBe(400);
        expect(Object.keys(res.json().error.fields), url).toEqual(['url']);
      }
      expect(await snapshot()).toEqual(before);
      // A path of this shop and a page on the web are links.
      const good = structuredClone(landing);
      good.announcements[0]!.href = 'https://www.youtube.com/@shanlan';
      good.announcements[1]!.href = '/faq';
      expect((await staff.put('/api/admin/content/landing/landing/draft', { data: good })).statusCode).toBe(
        200,
      );
      expect((await staff.del('/api/admin/content/landing/landing/draft')).statusCode).toBe(200);
    });

    it('names the limits of a master’s fields, and refuses a portrait that is not in storage', async () => {
      const data = await masterDoc('chen-jia-he');
      const res = await staff.put('/api/admin/content/master/chen-jia-he/draft', {
        data: { ...data, name: '陳'.repeat(21), years: 0, specialties: [], bio: ['好', ''] },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({
        name: '姓名最多 20 個字',
        years: '從事茶業年數至少為 1',
        specialties: '專長至少需要 1 個專長',
        'bio.1': '請填寫第 2 個段落',
      });
      const portrait = { ...(data.portrait as object), name: 'people/not-uploaded.png' };
      const missing = await staff.put('/api/admin/content/master/chen-jia-he/draft', {
        data: { ...data, portrait },
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.fields).toEqual({ portrait: '找不到這張圖片，請重新上傳' });
      expect((await doc('master', 'chen-jia-he')).draft).toBeNull();
    });

    it('refuses an amount token nobody knows, and accepts the known ones', async () => {
      const page = shippingPage();
      page.sections[2]!.blocks[0] = {
        type: 'list',
        items: ['宅配到府：運費 {{home.fee}}。', '超商取貨：運費 {{cvs.fees}}。'],
      };
      const res = await staff.put('/api/admin/content/textPage/shipping/draft', { data: page });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({
        'sections.2.blocks.0.items.1':
          '不認得的金額代碼 {{cvs.fees}}；可用的代碼：{{home.fee}}、{{home.freeOver}}、{{cvs.fee}}、{{cvs.freeOver}}、{{outlying}}、{{cod}}',
      });
      expect((await doc('textPage', 'shipping')).draft).toBeNull();
      page.sections[2]!.blocks[0] = {
        type: 'list',
        items: ['宅配到府：運費 {{home.fee}}。', '超商取貨：運費 {{cvs.fee}}。'],
      };
      const ok = await staff.put('/api/admin/content/textPage/shipping/draft', { data: page });
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await staff.del('/api/admin/content/textPage/shipping/draft')).statusCode).toBe(200);
    });

    it('refuses malformed bodies and unknown kinds', async () => {
      expect((await staff.put('/api/admin/content/textPage/shipping/draft', { title: 'x' })).statusCode).toBe(
        400,
      );
      expect(
        (await staff.put('/api/admin/content/textPage/shipping/draft', { data: [] })).json().error.fields
          .data,
      ).toBe('內容必須是一份文件');
      expect((await staff.put('/api/admin/content/recipes/x/draft', { data: {} })).statusCode).toBe(400);
      expect(
        (await staff.put('/api/admin/content/textPage/nothing/draft', { data: shippingPage() })).statusCode,
      ).toBe(404);
      const visibility = await staff.patch(`/api/admin/content/faq/${DEMO_FAQ[0]!.slug}`, {
        published: 'yes',
      });
      expect(visibility.statusCode).toBe(400);
      expect(visibility.json().error.fields.published).toBe('請指定要公開或隱藏');
      const order = await staff.put('/api/admin/content/faqCategory/order', { slugs: ['Returns!'] });
      expect(order.statusCode).toBe(400);
      expect(order.json().error.fields['slugs.0']).toBe('代碼格式不正確');
      expect((await staff.put('/api/admin/content/faqCategory/order', {})).json().error.fields.slugs).toBe(
        '請提供項目的順序',
      );
    });
  });

  describe('list items', () => {
    const newEntry = {
      slug: 'gift-wrapping',
      category: 'ordering-payment',
      question: '可以幫我包裝成禮盒嗎？',
      answer: [{ type: 'paragraph', text: '可以，結帳時勾選「禮盒包裝」即可。' }],
    };
    const publicFaq = async (cookie?: string, preview = false) =>
      (await pub<FaqView>(`/api/content/faq${preview ? '?preview=1' : ''}`, cookie)).body;

    it('creates an item hidden at the end of the list: only the preview shows it until it is shown', async () => {
      await publicFaq(); // warm the cache
      const res = await staff.post('/api/admin/content/faq', { data: newEntry });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        kind: 'faq',
        slug: 'gift-wrapping',
        published: false,
        draft: null,
        sortOrder: DEMO_FAQ.length,
        data: newEntry,
      });
      expect(await lastAudit('content.create')).toMatchObject({
        actorEmail: 'staff@example.com',
        entityId: 'faq/gift-wrapping',
        before: null,
        after: { published: false, data: { question: newEntry.question } },
      });
      expect((await publicFaq()).entries.map((e) => e.slug)).not.toContain('gift-wrapping');
      expect((await publicFaq(cookies.customer, true)).entries.map((e) => e.slug)).not.toContain(
        'gift-wrapping',
      );
      expect((await publicFaq(cookies.staff, true)).entries.map((e) => e.slug)).toContain('gift-wrapping');

      const shown = await staff.patch('/api/admin/content/faq/gift-wrapping', { published: true });
      expect(shown.statusCode, shown.body).toBe(200);
      expect(shown.json().published).toBe(true);
      expect((await publicFaq()).entries.map((e) => e.slug).at(-1)).toBe('gift-wrapping');
      expect(await lastAudit('content.visibility')).toMatchObject({
        entityId: 'faq/gift-wrapping',
        before: { published: false },
        after: { published: true },
      });

      const hidden = await owner.patch('/api/admin/content/faq/gift-wrapping', { published: false });
      expect(hidden.statusCode).toBe(200);
      expect((await publicFaq()).entries.map((e) => e.slug)).not.toContain('gift-wrapping');
    });

    it('refuses a new item with a taken or reserved slug, an unknown category or an empty question', async () => {
      const taken = await staff.post('/api/admin/content/faq', {
        data: { ...newEntry, slug: DEMO_FAQ[0]!.slug },
      });
      expect(taken.statusCode).toBe(400);
      expect(taken.json().error.fields).toEqual({ slug: '這個網址代碼已經有人使用，請換一個' });
      expect(
        (await staff.post('/api/admin/content/faq', { data: { ...newEntry, slug: 'new' } })).json().error
          .fields,
      ).toEqual({ slug: '「new」是保留字，請換一個網址代碼' });
      const bad = await staff.post('/api/admin/content/faq', {
        data: { ...newEntry, slug: 'Gift Wrap', question: '' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields).toEqual({
        slug: '網址代碼只能使用小寫英文字母、數字與連字號（最多 80 個字）',
        question: '請填寫問題',
      });
      const category = await staff.post('/api/admin/content/faq', {
        data: { ...newEntry, slug: 'orphan', category: 'no-such-category' },
      });
      expect(category.statusCode).toBe(400);
      expect(category.json().error.fields).toEqual({ category: '沒有這個分類，請從清單中選擇' });
      const rows = await ctx.database.db
        .select()
        .from(contentItems)
        .where(and(eq(contentItems.kind, 'faq'), eq(contentItems.slug, 'orphan')));
      expect(rows).toEqual([]);
    });

    it('keeps pages whole: a page cannot be created, hidden, reordered or deleted', async () => {
      const created = await staff.post('/api/admin/content/textPage', {
        data: { ...shippingPage(), slug: 'refunds' },
      });
      expect(created.statusCode).toBe(400);
      expect(created.json().error.message).toBe('「說明頁面」是固定頁面，不能新增。');
      expect(
        (await staff.patch('/api/admin/content/landing/landing', { published: false })).json().error.message,
      ).toBe('「首頁」是固定頁面，不能隱藏。');
      expect((await staff.del('/api/admin/content/textPage/privacyPolicy')).json().error.message).toBe(
        '「說明頁面」是固定頁面，不能刪除。',
      );
      expect((await staff.put('/api/admin/content/textPage/order', { slugs: ['shipping'] })).statusCode).toBe(
        400,
      );
      expect((await pub<TextPageView>('/api/content/pages/privacyPolicy')).body.title).toBe('隱私權政策');
    });

    it('reorders a list: the public page follows at once', async () => {
      expect((await pub<FaqView>('/api/content/faq')).body.categories.map((c) => c.slug)).toEqual(
        DEMO_FAQ_CATEGORIES.map((c) => c.slug),
      );
      const reversed = DEMO_FAQ_CATEGORIES.map((c) => c.slug).reverse();
      const res = await staff.put('/api/admin/content/faqCategory/order', { slugs: reversed });
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as ContentList).items.map((i) => [i.slug, i.sortOrder])).toEqual(
        reversed.map((s, i) => [s, i]),
      );
      expect((await pub<FaqView>('/api/content/faq')).body.categories.map((c) => c.slug)).toEqual(reversed);
      expect(await lastAudit('content.reorder')).toMatchObject({
        actorEmail: 'staff@example.com',
        entityId: 'faqCategory',
        before: { slugs: DEMO_FAQ_CATEGORIES.map((c) => c.slug) },
        after: { slugs: reversed },
      });

      // Every item exactly once; jobs and media go by date.
      const partial = await staff.put('/api/admin/content/faqCategory/order', { slugs: reversed.slice(1) });
      expect(partial.statusCode).toBe(409);
      expect(partial.json().error.message).toBe('清單已經有人更動過，請重新整理後再調整順序。');
      const twice = await staff.put('/api/admin/content/faqCategory/order', {
        slugs: [reversed[0], ...reversed],
      });
      expect(twice.statusCode).toBe(400);
      expect(twice.json().error.fields.slugs).toBe('順序中有重複的項目');
      expect(
        (await staff.put('/api/admin/content/job/order', { slugs: ['roasting-apprentice'] })).json().error
          .message,
      ).toBe('職缺在網站上依刊登日期排列，新的在前。');
      expect((await pub<FaqView>('/api/content/faq')).body.categories.map((c) => c.slug)).toEqual(reversed);

      expect(
        (
          await owner.put('/api/admin/content/faqCategory/order', {
            slugs: DEMO_FAQ_CATEGORIES.map((c) => c.slug),
          })
        ).statusCode,
      ).toBe(200);
    });

    it('deletes an item (the public list drops it), but not a category that still has questions', async () => {
      await pub<FaqView>('/api/content/faq');
      const entry = DEMO_FAQ.at(-1)!;
      const res = await owner.del(`/api/admin/content/faq/${entry.slug}`);
      expect(res.statusCode, res.body).toBe(200);
      expect((await pub<FaqView>('/api/content/faq')).body.entries.map((e) => e.slug)).not.toContain(
        entry.slug,
      );
      expect(await lastAudit('content.delete')).toMatchObject({
        actorEmail: 'owner@example.com',
        entityId: `faq/${entry.slug}`,
        before: { published: true, data: { question: entry.question } },
        after: null,
      });
      expect((await owner.del(`/api/admin/content/faq/${entry.slug}`)).statusCode).toBe(404);

      const inUse = await staff.del('/api/admin/content/faqCategory/returns');
      expect(inUse.statusCode).toBe(409);
      expect(inUse.json().error.message).toMatch(/^這個分類還有 \d+ 個問題/);
      expect((await pub<FaqView>('/api/content/faq')).body.categories.map((c) => c.slug)).toContain(
        'returns',
      );
    });
  });
  describe('two editors at once', () => {
    it('refuses a save or a publish over a version the editor never saw, and changes nothing', async () => {
      const slug = DEMO_FAQ[2]!.slug;
      const opened = await doc('faq', slug); // both editors open the same entry
      expect(opened.revision).toMatch(/^[a-f0-9]{32}$/);
      const mine = { ...opened.data, question: '店員甲改寫的問題？' };
      const theirs = { ...opened.data, question: '店主乙改寫的問題？' };

      const first = await staff.put(`/api/admin/content/faq/${slug}/draft`, {
        data: mine,
        baseRevision: opened.revision,
      });
      expect(first.statusCode, first.body).toBe(200);
      const afterFirst = first.json() as ContentDocument;
      expect(afterFirst.revision).not.toBe(opened.revision);

      const audits = await auditCount();
      const late = await owner.put(`/api/admin/content/faq/${slug}/draft`, {
        data: theirs,
        baseRevision: opened.revision,
      });
      expect(late.statusCode).toBe(409);
      expect(late.json().error.code).toBe('edit-conflict');
      expect(late.json().error.message).toContain('已有其他人儲存或發布了新的版本');
      const publishLate = await owner.post(`/api/admin/content/faq/${slug}/publish`, {
        baseRevision: opened.revision,
      });
      expect(publishLate.statusCode).toBe(409);
      expect(publishLate.json().error.code).toBe('edit-conflict');
      const stored = await doc('faq', slug);
      expect(stored.draft).toMatchObject({ question: '店員甲改寫的問題？' });
      expect(stored.data).toEqual(opened.data);
      expect(await auditCount()).toBe(audits);

      // With the current revision both work; a malformed revision is a 400 naming the field.
      const bad = await owner.put(`/api/admin/content/faq/${slug}/draft`, {
        data: theirs,
        baseRevision: 'x',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields).toHaveProperty('baseRevision');
      const again = await owner.put(`/api/admin/content/faq/${slug}/draft`, {
        data: theirs,
        baseRevision: afterFirst.revision,
      });
      expect(again.statusCode, again.body).toBe(200);
      const published = await owner.post(`/api/admin/content/faq/${slug}/publish`, {
        baseRevision: (again.json() as ContentDocument).revision,
      });
      expect(published.statusCode, published.body).toBe(200);
      expect((published.json() as ContentDocument).data).toMatchObject({ question: '店主乙改寫的問題？' });
      // Without a revision (scripts, older clients) the save goes through as before.
      expect((await owner.post(`/api/admin/content/faq/${slug}/publish`)).json().error.code).not.toBe(
        'edit-conflict',
      );
    });
  });
});
