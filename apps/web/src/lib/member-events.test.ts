import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectMemberEvents, type MemberEvent } from './member-events.ts';

/**
 * The server as the browser meets it: every request to /api/events goes through `fetch` (the
 * EventSource below uses it too), and the test decides each answer. Requests that open a stream are
 * counted apart from status questions (`?probe=1`). An open stream is a body the test writes
 * server-sent events into.
 */
interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** For a 200: lets the test push text and end the stream. */
  stream?: { push(text: string): void; end(): void };
}

let requests: number;
let answers: Array<() => Answer>;
/** How the server answers a status question; by default as it would answer a stream. */
let probeAnswer: (() => Answer) | null;

function openStream(): Answer & { stream: { push(text: string): void; end(): void } } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  const answer = {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    body,
    stream: {
      push: (text: string) => controller.enqueue(encoder.encode(text)),
      end: () => controller.close(),
    },
  };
  return answer;
}

function respond(answer: Answer & { body?: ReadableStream<Uint8Array> }): Response {
  const body =
    answer.status === 200
      ? answer.body
      : answer.status === 204
        ? null
        : JSON.stringify({ error: { code: 'x', message: 'x' } });
  return new Response(body, {
    status: answer.status,
    headers: answer.headers,
  });
}

/**
 * A stand-in for the browser's EventSource over the same network, so the behaviour is the same
 * whichever of the two the client uses: it fires `error` when refused or cut off.
 */
class NetworkEventSource extends EventTarget {
  onerror: ((event: Event) => void) | null = null;
  private closed = false;
  constructor(url: string) {
    super();
    void fetch(url).then(async (res) => {
      if (res.status !== 200 || !res.body) return this.fail();
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done || this.closed) break;
        buffer += decoder.decode(value, { stream: true });
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
          if (type) this.dispatchEvent(new MessageEvent(type, { data }));
        }
      }
      this.fail();
    });
  }
  private fail() {
    if (!this.closed) this.onerror?.(new Event('error'));
  }
  close() {
    this.closed = true;
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  requests = 0;
  answers = [];
  probeAnswer = null;
  vi.stubGlobal('EventSource', NetworkEventSource);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      expect(url).toContain('/api/events');
      const fallback = () => ({ status: 503 });
      if (url.includes('probe=1')) {
        const probe = probeAnswer ?? answers[Math.max(0, requests - 1)] ?? fallback;
        const answer = probe();
        return respond(answer.status === 200 ? { status: 204 } : answer);
      }
      const next = answers[requests] ?? fallback;
      requests++;
      return respond(next() as Answer & { body?: ReadableStream<Uint8Array> });
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets pending promises and `ms` of timers run. */
async function pass(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
}

describe('member live updates', () => {
  it('delivers the member’s events, and after a dropped stream reconnects with backoff and refetches', async () => {
    const first = openStream();
    const second = openStream();
    answers = [() => first, () => second];
    const events: MemberEvent[] = [];
    const onReconnect = vi.fn();
    const stop = connectMemberEvents((e) => events.push(e), onReconnect);
    await pass(10);
    first.stream.push(
      'retry: 1000\nevent: ready\ndata: {}\n\n: ping\n\nevent: order.updated\ndata: {"orderNo":"S1"}\n\n',
    );
    await pass(10);
    expect(events).toEqual([{ type: 'order.updated', data: { orderNo: 'S1' } }]);
    first.stream.end();
    await pass(900);
    expect(requests).toBe(1);
    await pass(200);
    expect(requests).toBe(2);
    second.stream.push('event: ready\ndata: {}\n\n');
    await pass(10);
    expect(onReconnect).toHaveBeenCalledTimes(1);
    stop();
  });

  it('gives way to the maintenance page the moment the owner switches maintenance on, and refetches when it is off', async () => {
    const stream = openStream();
    answers = [() => stream];
    const events: MemberEvent[] = [];
    const onReconnect = vi.fn();
    const onMaintenance = vi.fn();
    const stop = connectMemberEvents((e) => events.push(e), onReconnect, onMaintenance);
    await pass(10);
    stream.stream.push('event: ready\ndata: {}\n\n');
    await pass(10);
    stream.stream.push('event: site.maintenance\ndata: {"enabled":true}\n\n');
    await pass(10);
    expect(onMaintenance).toHaveBeenCalledTimes(1);
    expect(onReconnect).not.toHaveBeenCalled();
    stream.stream.push('event: site.maintenance\ndata: {"enabled":false}\n\n');
    await pass(10);
    expect(onReconnect).toHaveBeenCalledTimes(1);
    expect(onMaintenance).toHaveBeenCalledTimes(1);
    expect(events).toEqual([]);
    stop();
  });

  it('waits at least the Retry-After of a refused stream (429) before asking again', async () => {
    const later = openStream();
    answers = [() => ({ status: 429, headers: { 'retry-after': '30' } }), () => later];
    const stop = connectMemberEvents(() => {});
    await pass(10);
    expect(requests).toBe(1);
    await pass(29_000);
    expect(requests).toBe(1);
    await pass(1_100);
    expect(requests).toBe(2);
    stop();
  });

  it('keeps backing off while the server keeps refusing, never faster than it asks', async () => {
    answers = Array.from({ length: 10 }, () => () => ({ status: 429, headers: { 'retry-after': '5' } }));
    const stop = connectMemberEvents(() => {});
    await pass(60_000);
    // 5 s asked each time, the backoff (1 s ×1.5…) taking over once it is longer: far fewer than 12 tries a minute.
    expect(requests).toBeGreaterThan(1);
    expect(requests).toBeLessThanOrEqual(8);
    stop();
  });

  it('stops when the session is over (401), instead of knocking for ever', async () => {
    answers = Array.from({ length: 10 }, () => () => ({ status: 401 }));
    const stop = connectMemberEvents(() => {});
    await pass(120_000);
    expect(requests).toBe(1);
    stop();
  });

  it('takes a stream that went silent past the 30 s window for dead and opens a new one', async () => {
    const first = openStream();
    const second = openStream();
    answers = [() => first, () => second];
    const onReconnect = vi.fn();
    const stop = connectMemberEvents(() => {}, onReconnect);
    await pass(10);
    first.stream.push('event: ready\ndata: {}\n\n');
    // A network that drops packets without a word: the connection looks open, nothing arrives.
    await pass(29_000);
    expect(requests).toBe(1);
    await pass(3_000);
    expect(requests).toBe(2);
    second.stream.push('event: ready\ndata: {}\n\n');
    await pass(10);
    expect(onReconnect).toHaveBeenCalledTimes(1);
    stop();
  });

  it('keeps a quiet stream that hears its heartbeats', async () => {
    const only = openStream();
    answers = [() => only];
    const stop = connectMemberEvents(() => {});
    await pass(10);
    only.stream.push('event: ready\ndata: {}\n\n');
    for (let i = 0; i < 8; i++) {
      await pass(15_000);
      only.stream.push('event: heartbeat\ndata: {}\n\n');
    }
    expect(requests).toBe(1);
    stop();
  });

  it('never waits more than 30 s between tries while the server is away', async () => {
    const at: number[] = [];
    answers = Array.from({ length: 40 }, () => () => {
      at.push(Date.now());
      return { status: 503 };
    });
    const stop = connectMemberEvents(() => {});
    await pass(10 * 60_000);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps.length).toBeGreaterThan(10);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000 + 100);
    stop();
  });
});
