import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorHandler, OUTAGE_GAP_MS } from './error-body.ts';

/** A request whose log records what is written, of one app (`config`), and a reply that records nothing. */
function fakeRequest(config: object, logged: Array<Record<string, unknown>>) {
  const log = { error: (o: Record<string, unknown>) => logged.push(o), warn: () => {}, info: () => {} };
  return {
    log,
    url: '/api/catalog/products',
    method: 'GET',
    server: { config },
  } as unknown as FastifyRequest;
}
const reply = {
  code: () => reply,
  header: () => reply,
  headers: () => reply,
  send: () => reply,
} as unknown as FastifyReply;

/** What node-postgres throws when the server went away, wrapped as drizzle wraps it. */
const databaseAway = () =>
  new Error('Failed query: select …', {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  }) as FastifyError;

describe('logging while the database is away', () => {
  afterEach(() => vi.useRealTimers());

  it('writes one short line per failed request, and the stack once per outage', () => {
    vi.useFakeTimers();
    const handle = errorHandler();
    const logged: Array<Record<string, unknown>> = [];
    const request = fakeRequest({}, logged);
    for (let i = 0; i < 50; i++) {
      handle(databaseAway(), request, reply);
      vi.advanceTimersByTime(100);
    }
    expect(logged).toHaveLength(50);
    expect(logged.filter((l) => 'err' in l)).toHaveLength(1);
    expect(logged[0]).toHaveProperty('err');
    expect(logged[1]).toEqual({
      url: '/api/catalog/products',
      method: 'GET',
      cause: 'connect ECONNREFUSED 127.0.0.1:5432',
    });

    // Back, then away again later: a new outage, with its stack.
    vi.advanceTimersByTime(OUTAGE_GAP_MS + 1);
    handle(databaseAway(), request, reply);
    expect(logged.filter((l) => 'err' in l)).toHaveLength(2);
  });

  it('still logs the stack of every other server error', () => {
    const logged: Array<Record<string, unknown>> = [];
    const request = fakeRequest({}, logged);
    for (let i = 0; i < 3; i++) errorHandler()(new Error('a bug') as FastifyError, request, reply);
    expect(logged.filter((l) => 'err' in l)).toHaveLength(3);
  });
});
