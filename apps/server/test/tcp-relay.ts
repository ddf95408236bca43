import net from 'node:net';

export interface TcpRelayOptions {
  /** Holds every chunk, either way, this long before passing it on (in order): a slow link. */
  readonly delayMs?: number;
}

/**
 * A TCP relay on a loopback port to `host:port`, for fault tests: it can hold every byte back
 * (`delayMs` or `slowDown`, a slow link) or turn into a black hole (connections stay open, every byte either way
 * is dropped). Connections swallowed by the black hole stay dead after `restore`, as they would
 * behind a real partition; new ones are relayed again.
 */
export async function tcpRelay(host: string, port: number, options: TcpRelayOptions = {}) {
  interface Pair {
    client: net.Socket;
    upstream: net.Socket | null;
    dead: boolean;
  }
  const pairs = new Set<Pair>();
  let swallowing = false;
  let delayMs = options.delayMs ?? 0;
  const pass = (pair: Pair, to: net.Socket, chunk: Buffer) => {
    const send = () => {
      if (!pair.dead && !to.destroyed) to.write(chunk);
    };
    // Equal delays fire in the order they were set, so the stream keeps its order.
    if (delayMs) setTimeout(send, delayMs);
    else send();
  };
  const server = net.createServer((client) => {
    const pair: Pair = { client, upstream: null, dead: swallowing };
    pairs.add(pair);
    client.on('error', () => undefined);
    client.on('close', () => {
      pairs.delete(pair);
      pair.upstream?.destroy();
    });
    if (pair.dead) return;
    const upstream = net.connect(port, host);
    pair.upstream = upstream;
    upstream.on('error', () => undefined);
    upstream.on('close', () => {
      if (!pair.dead) client.destroy();
    });
    client.on('data', (chunk: Buffer) => pass(pair, upstream, chunk));
    upstream.on('data', (chunk: Buffer) => pass(pair, client, chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** From now on every chunk waits this long (0: at once again). */
    slowDown(ms: number) {
      delayMs = ms;
    },
    blackhole() {
      swallowing = true;
      for (const pair of pairs) pair.dead = true;
    },
    restore() {
      swallowing = false;
    },
    close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      server.close();
    },
  };
}
