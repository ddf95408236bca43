import { afterAll, describe, expect, it } from 'vitest';
import { dbAvailable } from './helpers.ts';
import { freePort, redisServerAvailable } from './redis-server.ts';
import { serverDatabaseEnv, startServerProcess, type ServerProcess } from './server-process.ts';

const WARN = 40;

describe.skipIf(!dbAvailable() || !redisServerAvailable())('a server set up for several instances', () => {
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.dispose()));
  });

  it('starts while its Redis is down after waiting for it, says so once in the log and in health, and warns that files stay on its own disk', async () => {
    const nothing = await freePort();
    const server = await startServerProcess({
      REDIS_URL: `redis://127.0.0.1:${nothing}`,
      REDIS_START_WAIT_SECONDS: '1',
      ...(await serverDatabaseEnv()),
    });
    servers.push(server);
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', redis: 'unavailable' });
    // Several reconnection attempts later, still one line about the outage.
    await new Promise((r) => setTimeout(r, 3000));
    const warnings = server
      .logs()
      .filter((l) => l.level >= WARN)
      .map((l) => l.msg);
    expect(warnings.filter((m) => m.startsWith('Redis unavailable'))).toHaveLength(1);
    expect(warnings.filter((m) => m.startsWith('Redis not ready after 1 s'))).toHaveLength(1);
    expect(warnings.filter((m) => m.includes('uploaded files are stored on this instance'))).toHaveLength(1);
  }, 90_000);
});
