import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbAvailable } from './helpers.ts';
import { serverDatabaseEnv, startServerProcess, type ServerProcess } from './server-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Outcome {
  readonly what: string;
  readonly status?: number;
  readonly connection?: string;
  readonly error?: string;
}

/** One request on a keep-alive agent; a reset or a hang-up is recorded as an error, never thrown. */
function request(
  agent: http.Agent,
  port: number,
  what: string,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
    slowMs?: number;
    onAccepted?: () => void;
  },
): Promise<Outcome> {
  return new Promise((resolve) => {
    const body = options.body ?? '';
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: options.method ?? 'GET',
        path: options.path,
        headers: {
          ...options.headers,
          ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
          ...(options.slowMs ? { expect: '100-continue' } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ what, status: res.statusCode, connection: res.headers.connection }));
        res.on('error', (e) => resolve({ what, error: `${e.message}` }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ what, error: e.code ?? e.message }));
    if (!body) return void req.end();
    if (!options.slowMs) return void req.end(body);
    // The body arrives in two halves, `slowMs` apart: the request is in flight when SIGTERM comes.
    // The head goes first with `Expect: 100-continue`; the server's 100 Continue proves it has
    // accepted the connection and read the head (a connection still waiting in the kernel's queue
    // when the server stops listening is reset, and would not be "in flight").
    const half = Math.floor(body.length / 2);
    req.once('continue', () => {
      options.onAccepted?.();
      req.write(body.slice(0, half));
      setTimeout(() => req.end(body.slice(half)), options.slowMs);
    });
    req.flushHeaders();
  });
}

/** A keep-alive socket that has had one answer; `again()` sends a second request on it. */
async function idleKeepAlive(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  let error: string | undefined;
  socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
  socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
  socket.on('close', () => (closed = true));
  const get = 'GET /api/site/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n';
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(get);
  while (!/\r\n\r\n[\s\S]*\}/.test(received) && !closed) await sleep(10);
  const first = received;
  received = '';
  return {
    first,
    again: () => {
      if (!closed) socket.write(get);
    },
    /** What the second request got: its status line, or how the socket ended without one. */
    async outcome(): Promise<string> {
      const deadline = Date.now() + 8000;
      while (!closed && !/^HTTP\/1\.1 \d{3}[\s\S]*\r\n\r\n/.test(received) && Date.now() < deadline)
        await sleep(10);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      return status
        ? `answered ${status}${/\r\nconnection: close\r\n/i.test(received) ? ', connection: close' : ''}`
        : `no answer (${error ?? (closed ? 'closed' : 'open')})`;
    },
  };
}

describe.skipIf(!dbAvailable())('shutdown on SIGTERM under load', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // NODE_ENV=test for the test-only sign-in, so a member's live-update stream is open too.
    // No grace: this is the drain itself, as after the grace (below) or on Ctrl-C.
    server = await startServerProcess({
      NODE_ENV: 'test',
      SHUTDOWN_GRACE_SECONDS: '0',
      ...(await serverDatabaseEnv()),
    });
  });
  afterAll(async () => server?.dispose());

  it('stops accepting, ends live streams, finishes in-flight requests, answers requests already sent, and exits 0 well within the timer', async () => {
    const port = server.port;
    const signIn = await fetch(`${server.url}/api/test/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'stream@example.com' }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';', 1)[0])
      .join('; ');

    // A live-update stream, which never ends by itself.
    const stream = new Promise<string>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { cookie } }, (res) => {
        res.resume();
        res.on('end', () => resolve('ended'));
        res.on('error', (e) => resolve(`error ${e.message}`));
      });
      req.on('error', (e: NodeJS.ErrnoException) => resolve(`error ${e.code ?? e.message}`));
    });

    // Keep-alive sockets that have had their answer and sit idle.
    const idle = await Promise.all(Array.from({ length: 6 }, () => idleKeepAlive(port)));
    expect(idle.every((s) => s.first.startsWith('HTTP/1.1 200'))).toBe(true);

    // Clients sending one request after another on keep-alive connections; each stops when told the connection closes.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    let stopping = false;
    const busy = Array.from({ length: 8 }, async (_, i) => {
      const outcomes: Outcome[] = [];
      for (;;) {
        const o = await request(agent, port, `busy ${i}`, { path: '/api/catalog/products?pageSize=12' });
        outcomes.push(o);
        if (o.error || o.connection === 'close') return outcomes;
        if (stopping && outcomes.length > 500) return outcomes;
      }
    });
    await sleep(300);

    // Requests in flight when the signal comes: their bodies are still arriving.
    const slowAgent = new http.Agent({ keepAlive: true });
    const login = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password-1' });
    const accepted: Array<Promise<void>> = [];
    const inFlight = Array.from({ length: 3 }, (_, i) => {
      let onAccepted = () => {};
      accepted.push(new Promise<void>((resolve) => (onAccepted = resolve)));
      return request(slowAgent, port, `slow ${i}`, {
        method: 'POST',
        path: '/api/auth/login',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: login,
        slowMs: 800,
        onAccepted,
      });
    });
    await Promise.all(accepted);
    await sleep(100);

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    // Requests sent on the idle sockets as the signal lands, and just after.
    for (const [i, socket] of idle.entries()) setTimeout(() => socket.again(), [0, 0, 2, 5, 10, 20][i]);
    const exit = server.exited(signalledAt);

    // While it drains, no new connection is accepted.
    await sleep(150);
    const late = await new Promise<string>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.on('connect', () => (s.destroy(), resolve('accepted')));
      s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });

    const results = {
      inFlight: await Promise.all(inFlight),
      idle: await Promise.all(idle.map((s) => s.outcome())),
      stream: await stream,
    };
    stopping = true;
    const busyOutcomes = (await Promise.all(busy)).flat();
    agent.destroy();
    slowAgent.destroy();

    const { code, afterMs } = await exit;
    expect({
      inFlight: results.inFlight.map((o) => o.status ?? o.error),
      // Each is answered, never reset (those that beat the signal keep their connection open).
      idle: results.idle.map((o) => o.replace(/, connection: close$/, '')),
      busyFailures: busyOutcomes.filter((o) => o.error || o.status !== 200),
      stream: results.stream,
      late,
      exit: { code, withinTimer: afterMs < 5000 },
    }).toEqual({
      inFlight: [400, 400, 400],
      idle: Array.from({ length: 6 }, () => 'answered 200'),
      busyFailures: [],
      stream: 'ended',
      late: 'ECONNREFUSED',
      exit: { code: 0, withinTimer: true },
    });
  });
});

/** One request on a connection of its own (no agent): its status, or how it failed. */
function fresh(port: number, path: string): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
      res.on('error', (e) => resolve(`error ${e.message}`));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(`error ${e.code ?? e.message}`));
  });
}

describe.skipIf(!dbAvailable())('shutdown on SIGTERM during a burst of new connections', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ SHUTDOWN_GRACE_SECONDS: '3', ...(await serverDatabaseEnv()) });
  });
  afterAll(async () => server?.dispose());

  it('says 503 on readiness first, keeps accepting through the grace, and answers every request that was sent', async () => {
    const port = server.port;
    const burst = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        fresh(port, i % 4 === 0 ? '/api/site/status' : '/api/catalog/products?pageSize=12'),
      );
    // Forty new connections on their way as the signal lands, forty more within 300 ms after it.
    const before = burst(40);
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const exit = server.exited(signalledAt);
    const after: Array<Promise<string>> = [];
    for (let i = 0; i < 4; i++) {
      await sleep(75);
      after.push(...burst(10));
    }
    const readiness = await fresh(port, '/api/health');
    const outcomes = [...(await Promise.all(before)), ...(await Promise.all(after))];
    const { code } = await exit;
    const refusedAfter = await fresh(port, '/api/site/status');
    expect({
      failed: outcomes.filter((o) => o !== '200'),
      answered: outcomes.length,
      readiness,
      code,
      refusedAfter,
    }).toEqual({ failed: [], answered: 80, readiness: '503', code: 0, refusedAfter: 'error ECONNREFUSED' });
  }, 60_000);
});
