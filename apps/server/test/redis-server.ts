import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/** A port nothing listens on right now (the kernel's pick, released at once). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** True when `redis-server` is on PATH; fault tests that need one are skipped otherwise. */
export function redisServerAvailable(): boolean {
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  const ok = probe.status === 0;
  if (!ok) console.warn('[redis fault tests] redis-server is not on PATH; these tests are skipped.');
  return ok;
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (c: Buffer) => {
      reply += c.toString();
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
  });
}

/**
 * A throwaway Redis on its own port, never the machine's: nothing saved to disk, killable and
 * restartable on the same port, so a test can take it away under a running server and give it back.
 */
export async function throwawayRedis() {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 5000;
    while (!(await answers(port))) {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  /** Kills it at once (SIGKILL, as a crash would), and waits until the port is free. */
  const kill = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, start, kill };
}
