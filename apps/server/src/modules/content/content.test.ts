import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DownloadView,
  FaqView,
  IpRecordView,
  JobView,
  LandingView,
  MasterView,
  MediaListView,
  TeamMemberView,
} from '@shop/shared/content-views';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog } from '../../../test/fixtures.ts';
import { seedTestContent } from '../../../test/content-fixtures.ts';
import { DEMO_FAQ, DEMO_FAQ_CATEGORIES, DEMO_TEXT_PAGES } from '../../seed/content-policies.ts';
import { DEMO_LANDING, DEMO_MASTERS, DEMO_TEAM } from '../../seed/content-people.ts';
import { contentItems } from '../../db/schema.ts';
import type { Asset } from '../../seed/content.ts';
import { upsert } from './repo.ts';
import { contentChanged } from './service.ts';
import { TEXT_PAGES } from '@shop/shared/content';
import { formatTwd } from '@shop/shared/money';
import { DEFAULT_SHIPPING_RULES as RULES } from '@shop/shared/shipping';

describe.skipIf(!dbAvailable())('content API', () => {
  let ctx: TestContext;
  let assets: Map<string, Asset>;
  let member: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    assets = await seedTestContent(ctx);
    member = (await signIn(ctx.app, 'member@example.com')).cookie;
  });
  afterAll(async () => ctx.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url, headers });
  const getJson = async <T>(url: string, headers: Record<string, string> = {}): Promise<T> => {
    const res = await get(url, headers);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json() as T;
  };
  /** Sets a stored document's published flag and tells the read cache. */
  const publish = async (kind: string, slug: string, published: boolean) => {
    await ctx.database.db
      .update(contentItems)
      .set({ published })
      .where(and(eq(contentItems.kind, kind), eq(contentItems.slug, slug)));
    contentChanged();
  };

  describe('landing page', () => {
    it('answers the page words, the featured products in the given order without drafts, three masters and the three newest media items', async () => {
      const body = await getJson<LandingView>('/api/content/landing');
      expect(body.page.heroTitle).toBe('鹿谷山上，焙一壺好茶');
      expect(body.page.promises.map((p) => p.title)).toEqual(['每批親自試泡', '資訊寫清楚', '1–3 天出貨']);
      expect(body.products.map((p) => p.slug)).toEqual(['li-shan', 'dong-ding', 'white-cup']);
      expect(body.products[0]).toMatchObject({
        name: '梨山高山茶',
        priceMin: 980,
        priceMax: 1880,
        compareAtPrice: 1200,
        inStock: true,
        category: { slug: 'oolong', name: '烏龍茶' },
      });
      expect(body.masters.map((m) => m.slug)).toEqual(['chen-jia-he', 'lin-xiu-qin', 'huang-bo-jun']);
      expect(body.media.map((m) => m.slug)).toEqual([
        'yingge-teapot-partnership',
        'cold-brew-at-home',
        'taichung-tasting-room',
      ]);
    });

    it('turns portraits into image views with WebP variants of the stored picture', async () => {
      const { masters } = await getJson<LandingView>('/api/content/landing');
      expect(masters[0]!.portrait).toEqual({
        src: '/api/storage/b/content/o/people%2Fchen-jia-he.png%40640.webp?alt=media',
        srcSet: [320, 640, 1280]
          .map((w) => `/api/storage/b/content/o/people%2Fchen-jia-he.png%40${w}.webp?alt=media ${w}w`)
          .join(', '),
        width: 8,
        height: 8,
        alt: DEMO_MASTERS[0]!.portrait.alt,
      });
      const picture = await get(masters[0]!.portrait.src);
      expect(picture.statusCode).toBe(200);
      expect(picture.headers['content-type']).toBe('image/webp');
    });
  });

  describe('caching of public lists', () => {
    it('sends a strong ETag with no-cache and answers 304 without a body when it still matches', async () => {
      const first = await get('/api/content/faq');
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('public, no-cache');
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await get('/api/content/faq', { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect((await get('/api/content/faq', { 'if-none-match': `W/${etag}` })).statusCode).toBe(304);
      expect((await get('/api/content/faq', { 'if-none-match': '"something-else"' })).statusCode).toBe(200);
    });

    it('keeps serving the cached answer after a direct write, and the new one after contentChanged()', async () => {
      const before = await get('/api/content/landing');
      const original = (before.json() as LandingView).page;
      try {
        await upsert(ctx.database.db, {
          kind: 'landing',
          slug: 'landing',
          data: { ...original, heroTitle: '冬茶上市' },
          sortOrder: 0,
        });
        const stale = await get('/api/content/landing');
        expect((stale.json() as LandingView).page.heroTitle).toBe('鹿谷山上，焙一壺好茶');
        expect(stale.headers.etag).toBe(before.headers.etag);

        contentChanged();
        const fresh = await get('/api/content/landing', { 'if-none-match': String(before.headers.etag) });
        expect(fresh.statusCode).toBe(200);
        expect((fresh.json() as LandingView).page.heroTitle).toBe('冬茶上市');
        expect(fresh.headers.etag).not.toBe(before.headers.etag);
      } finally {
        await upsert(ctx.database.db, { kind: 'landing', slug: 'landing', data: original, sortOrder: 0 });
        contentChanged();
      }
      expect((await getJson<LandingView>('/api/content/landing')).page.heroTitle).toBe(
        DEMO_LANDING.heroTitle,
      );
    });
  });

  describe('company and text pages', () => {
    it('answers the company page', async () => {
      const body = await getJson<{
        title: string;
        values: unknown[];
        milestones: Array<{ year: number }>;
        locations: Array<{ name: string }>;
      }>('/api/content/company');
      expect(body.title).toBe('關於山嵐茶事');
      expect(body.locations.map((l) => l.name)).toEqual([
        '鹿谷焙茶室與門市',
        '臺中品茶室',
        '臺北大稻埕選品櫃',
      ]);
      expect(body.milestones[0]!.year).toBe(1987);
    });

    it.each([
      ['shipping', '購物與配送須知'],
      ['transport', '運送方式'],
      ['serviceTerms', '服務條款'],
      ['privacyPolicy', '隱私權政策'],
    ])('answers the %s page', async (slug, title) => {
      const body = await getJson<{ title: string; sections: Array<{ heading: string }>; updated: string }>(
        `/api/content/pages/${slug}`,
      );
      expect(body.title).toBe(title);
      expect(body.sections.map((s) => s.heading)).toEqual(
        DEMO_TEXT_PAGES[slug as keyof typeof DEMO_TEXT_PAGES].sections.map((s) => s.heading),
      );
      expect(body.updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    });

    it('names shipping amounts from the fee table checkout uses, and leaves no token unfilled anywhere', async () => {
      const transport = JSON.stringify(await getJson('/api/content/pages/transport'));
      for (const amount of [
        RULES.home.fee,
        RULES.home.freeOver,
        RULES.cvs.fee,
        RULES.cvs.freeOver,
        RULES.outlyingSurcharge,
        RULES.codFee,
      ]) {
        expect(transport).toContain(formatTwd(amount));
      }
      // The stored text holds the token, not a copy of the amount.
      expect(JSON.stringify(DEMO_TEXT_PAGES.transport)).toContain('{{home.fee}}');
      for (const url of [
        '/api/content/landing',
        '/api/content/faq',
        ...TEXT_PAGES.map((slug) => `/api/content/pages/${slug}`),
      ]) {
        expect((await get(url)).body, url).not.toMatch(/\{\{/);
      }
    });

    it('refuses a page that is not one of the text pages', async () => {
      const res = await get('/api/content/pages/jobs');
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid-argument', fields: { slug: '沒有這個頁面' } });
    });
  });

  describe('team', () => {
    it('lists everyone in the editor’s order, with portraits', async () => {
      const team = await getJson<TeamMemberView[]>('/api/content/team');
      expect(team.map((m) => m.slug)).toEqual(DEMO_TEAM.map((m) => m.slug));
      expect(team[0]).toMatchObject({ slug: 'chen-yi-an', name: '陳以安', role: '第三代負責人' });
      expect(team[0]!.portrait.src).toBe(
        '/api/storage/b/content/o/people%2Fchen-yi-an.png%40640.webp?alt=media',
      );
    });

    it('shows a member’s page to signed-in visitors only', async () => {
      const anonymous = await get('/api/content/team/chen-yi-an');
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().error.code).toBe('unauthenticated');
      const body = await getJson<TeamMemberView>('/api/content/team/chen-yi-an', { cookie: member });
      expect(body).toMatchObject({ name: '陳以安', favouriteTea: '凍頂烏龍，冬天一定要喝熱的' });
      expect(body.bio).toHaveLength(3);
    });

    it('answers 404 for an unknown member and 400 for a malformed slug', async () => {
      const missing = await get('/api/content/team/nobody-here', { cookie: member });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toEqual({ code: 'not-found', message: '找不到這個頁面的內容。' });
      const bad = await get('/api/content/team/Chen_Yi', { cookie: member });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.slug).toBe('代碼格式不正確');
    });

    it('hides unpublished members from the list and the detail', async () => {
      await publish('team', 'su-wen-bin', false);
      try {
        expect((await getJson<TeamMemberView[]>('/api/content/team')).map((m) => m.slug)).not.toContain(
          'su-wen-bin',
        );
        expect((await get('/api/content/team/su-wen-bin', { cookie: member })).statusCode).toBe(404);
      } finally {
        await publish('team', 'su-wen-bin', true);
      }
      expect((await getJson<TeamMemberView[]>('/api/content/team')).map((m) => m.slug)).toContain(
        'su-wen-bin',
      );
    });
  });

  describe('masters', () => {
    it('lists the masters without their products', async () => {
      const masters = await getJson<MasterView[]>('/api/content/masters');
      expect(masters.map((m) => m.slug)).toEqual([
        'chen-jia-he',
        'lin-xiu-qin',
        'huang-bo-jun',
        'jian-guo-dong',
      ]);
      expect(masters[0]).toMatchObject({ name: '陳家和', title: '焙茶師傅' });
      expect(masters[0]!.products).toBeUndefined();
    });

    it('shows a master with the related products on sale, in order, to signed-in visitors only', async () => {
      expect((await get('/api/content/masters/chen-jia-he')).statusCode).toBe(401);
      const body = await getJson<MasterView>('/api/content/masters/chen-jia-he', { cookie: member });
      expect(body.name).toBe('陳家和');
      // next-spring is a draft; the others are active.
      expect(body.products!.map((p) => p.slug)).toEqual(['zhuni-pot', 'dong-ding']);
      expect(body.products![1]).toMatchObject({
        name: '凍頂烏龍茶',
        priceMin: 480,
        priceMax: 880,
        inStock: true,
      });
    });

    it('answers an empty product list when none of the related products exist', async () => {
      const body = await getJson<MasterView>('/api/content/masters/jian-guo-dong', { cookie: member });
      expect(body.relatedProductSlugs.length).toBeGreaterThan(0);
      expect(body.products).toEqual([]);
    });

    it('answers 404 for an unknown master', async () => {
      expect((await get('/api/content/masters/nobody-here', { cookie: member })).statusCode).toBe(404);
    });
  });

  describe('jobs', () => {
    it('lists openings newest posted first', async () => {
      const jobs = await getJson<JobView[]>('/api/content/jobs');
      expect(jobs.map((j) => [j.slug, j.posted])).toEqual([
        ['taichung-tasting-room-part-time', '2026-11-10'],
        ['online-customer-service', '2026-11-03'],
        ['roasting-apprentice', '2026-10-20'],
        ['marketing-design-intern', '2026-09-15'],
      ]);
    });

    it('drops an unpublished opening once content changes', async () => {
      await publish('job', 'roasting-apprentice', false);
      try {
        expect((await getJson<JobView[]>('/api/content/jobs')).map((j) => j.slug)).toEqual([
          'taichung-tasting-room-part-time',
          'online-customer-service',
          'marketing-design-intern',
        ]);
      } finally {
        await publish('job', 'roasting-apprentice', true);
      }
    });
  });

  describe('media', () => {
    it('pages all items six at a time, newest first', async () => {
      const first = await getJson<MediaListView>('/api/content/media');
      expect(first).toMatchObject({ page: 1, totalPages: 2, total: 10 });
      expect(first.items.map((m) => m.date)).toEqual([
        '2026-06-16',
        '2025-12-05',
        '2025-07-09',
        '2025-03-20',
        '2024-11-02',
        '2024-08-14',
      ]);
      const second = await getJson<MediaListView>('/api/content/media?type=all&page=2');
      expect(second).toMatchObject({ page: 2, totalPages: 2, total: 10 });
      expect(second.items.map((m) => m.slug)).toEqual([
        'family-business-going-online',
        'roastery-documentary',
        'staged-roasting-patent',
        'three-generations-of-charcoal',
      ]);
    });

    it('filters by type', async () => {
      const videos = await getJson<MediaListView>('/api/content/media?type=video');
      expect(videos).toMatchObject({ page: 1, totalPages: 1, total: 3 });
      expect(videos.items.map((m) => m.slug)).toEqual([
        'cold-brew-at-home',
        'nantou-tea-trail',
        'roastery-documentary',
      ]);
      expect(
        videos.items.every((m) => m.type === 'video' && /^[A-Za-z0-9_-]{6,20}$/.test(m.videoId ?? '')),
      ).toBe(true);
      const articles = await getJson<MediaListView>('/api/content/media?type=article&page=2');
      expect(articles).toMatchObject({ page: 2, totalPages: 2, total: 7 });
      expect(articles.items.map((m) => m.slug)).toEqual(['three-generations-of-charcoal']);
    });

    it('answers an empty page past the end', async () => {
      expect(await getJson<MediaListView>('/api/content/media?page=9')).toEqual({
        items: [],
        page: 9,
        totalPages: 2,
        total: 10,
      });
    });

    it.each([
      ['type=podcast', 'type', '類型必須是 all、article 或 video'],
      ['page=0', 'page', '頁碼至少為 1'],
      ['page=two', 'page', '頁碼必須是整數'],
      ['page=-1', 'page', '頁碼必須是整數'],
    ])('refuses ?%s with a zh-TW message', async (query, field, message) => {
      const res = await get(`/api/content/media?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid-argument');
      expect(res.json().error.fields[field]).toBe(message);
      expect(res.json().error.message).toBe(`網址中的條件有誤：${message}。`);
    });

    it('refuses unknown query parameters', async () => {
      const res = await get('/api/content/media?sort=old');
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid-argument');
      expect(res.json().error.message).toBe('網址中的條件有誤，請回到上一頁重新選擇。');
    });
  });

  describe('downloads', () => {
    it('lists files with their URL, size and type from storage; members-only files live in the private bucket', async () => {
      const items = await getJson<DownloadView[]>('/api/content/downloads');
      expect(items.map((d) => [d.slug, d.membersOnly])).toEqual([
        ['catalog-2026-autumn-winter', false],
        ['oolong-brewing-guide', false],
        ['cold-brew-starter', false],
        ['pesticide-residue-report-2026-spring', true],
        ['tea-master-course-notes', true],
      ]);
      const report = items.find((d) => d.slug === 'pesticide-residue-report-2026-spring')!;
      expect(report).toMatchObject({
        title: '2026 春茶農藥殘留檢驗報告',
        url: '/api/storage/b/members/o/shanlan-pesticide-report-2026-spring.pdf?alt=media',
        size: assets.get('members/shanlan-pesticide-report-2026-spring.pdf')!.bytes.length,
        contentType: 'application/pdf',
      });
      expect(items[0]).toMatchObject({
        url: '/api/storage/b/downloads/o/shanlan-catalog-2026-autumn-winter.pdf?alt=media',
        size: assets.get('downloads/shanlan-catalog-2026-autumn-winter.pdf')!.bytes.length,
      });
      expect(items[0]).not.toHaveProperty('file');
    });

    it('serves public files to anyone and members-only files to signed-in visitors only', async () => {
      const items = await getJson<DownloadView[]>('/api/content/downloads');
      const open = items.find((d) => !d.membersOnly)!;
      const closed = items.find((d) => d.membersOnly)!;
      const publicFile = await get(open.url);
      expect(publicFile.statusCode).toBe(200);
      expect(publicFile.body.startsWith('%PDF-1.4')).toBe(true);
      expect((await get(closed.url)).statusCode).toBe(401);
      const membersFile = await get(closed.url, { cookie: member });
      expect(membersFile.statusCode).toBe(200);
      expect(membersFile.headers['content-type']).toBe('application/pdf');
    });

    it('leaves out an item whose file is not in storage', async () => {
      await upsert(ctx.database.db, {
        kind: 'download',
        slug: 'lost-file',
        data: {
          slug: 'lost-file',
          title: '遺失的檔案',
          category: '其他',
          description: '這個檔案沒有上傳。',
          date: '2026-12-01',
          membersOnly: false,
          file: { bucket: 'downloads', name: 'lost.pdf' },
        },
        sortOrder: 99,
      });
      contentChanged();
      try {
        const items = await getJson<DownloadView[]>('/api/content/downloads');
        expect(items).toHaveLength(5);
        expect(items.map((d) => d.slug)).not.toContain('lost-file');
      } finally {
        await ctx.database.db
          .delete(contentItems)
          .where(and(eq(contentItems.kind, 'download'), eq(contentItems.slug, 'lost-file')));
        contentChanged();
      }
    });
  });

  describe('patents and trademarks', () => {
    it('lists records with certificate images, or null when there is none', async () => {
      const records = await getJson<IpRecordView[]>('/api/content/ip');
      expect(records).toHaveLength(7);
      expect(records.filter((r) => r.kind === 'patent')).toHaveLength(3);
      expect(records[0]).toMatchObject({
        slug: 'patent-segmented-charcoal-roasting',
        title: '發明專利：烏龍茶之分段炭焙方法',
      });
      expect(records[0]!.certificate!.src).toBe(
        '/api/storage/b/content/o/certificates%2Fpatent-segmented-charcoal-roasting.png%40640.webp?alt=media',
      );
      expect(records.find((r) => r.slug === 'trademark-shanlan-tea-japan')!.certificate).toBeNull();
    });
  });

  describe('FAQ', () => {
    it('answers the categories in order and every entry, each in a known category', async () => {
      const faq = await getJson<FaqView>('/api/content/faq');
      expect(faq.categories).toEqual(DEMO_FAQ_CATEGORIES);
      expect(faq.categories[0]).toEqual({ slug: 'ordering-payment', name: '訂購與付款' });
      expect(faq.entries).toHaveLength(DEMO_FAQ.length);
      expect(faq.entries[0]).toMatchObject({
        slug: 'do-i-need-an-account',
        category: 'ordering-payment',
        question: '一定要加入會員才能購物嗎？',
      });
      const known = new Set(faq.categories.map((c) => c.slug));
      expect(faq.entries.filter((e) => !known.has(e.category))).toEqual([]);
    });
  });
});
