import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, dbAvailable, dbEngine, type TestContext } from '../../../test/helpers.ts';

describe.skipIf(!dbAvailable())('health', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('answers ok with the database engine when the database answers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: dbEngine() });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('serves a burst of health requests from one database probe', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const execute = vi.spyOn(ctx.app.db, 'execute');
    try {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => ctx.app.inject({ method: 'GET', url: '/api/health' })),
      );
      expect(answers.every((a) => a.statusCode === 200)).toBe(true);
      expect(execute).toHaveBeenCalledTimes(1);
    } finally {
      execute.mockRestore();
    }
  });

  it('answers 503 within about 2 s when the database hangs, and ok again once it answers', async () => {
    const other = await createTestApp();
    try {
      const execute = vi
        .spyOn(other.app.db, 'execute')
        .mockImplementation(() => new Promise(() => undefined) as never);
      const started = Date.now();
      const res = await other.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(Date.now() - started).toBeLessThan(3000);
      execute.mockRestore();
      await new Promise((r) => setTimeout(r, 1100));
      expect((await other.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('answers 503 when the database is gone', async () => {
    const other = await createTestApp();
    await other.database.close();
    const res = await other.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'error', database: 'unavailable' });
    await other.app.close();
  });
});
