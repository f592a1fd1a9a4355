import { connect, createServer, type Server, type Socket } from 'node:net';

export type ProxyMode = 'up' | 'down' | 'blackhole';

export interface TcpProxy {
  /** the port the proxy listens on (kept across down() and up()) */
  port: number;
  mode: ProxyMode;
  /** connections accepted since the start (forwarded or held) */
  accepted: number;
  /** Forwards connections to the target (again). */
  up(): Promise<void>;
  /** A server that stopped: every open connection is cut, new ones are refused (ECONNREFUSED). */
  down(): Promise<void>;
  /**
   * A host that went away without a word: open connections are cut, new ones are accepted
   * but nothing ever answers (as a dropped network does; the client must time out).
   */
  blackhole(): Promise<void>;
  /** Where up() forwards to from now on (a server that came back on another port). */
  retarget(target: { host: string; port: number }): void;
  close(): Promise<void>;
}

/**
 * A small TCP proxy of the test's own between the server and something it depends on
 * (PostgreSQL, an SMTP server), so a test can take that dependency away and bring it
 * back without touching the real one, which other tests share.
 */
export async function startTcpProxy(initialTarget: { host: string; port: number }, options: { mode?: ProxyMode } = {}): Promise<TcpProxy> {
  let target = initialTarget;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const proxy: TcpProxy = {
    port: 0,
    mode: options.mode ?? 'up',
    accepted: 0,
    up: () => setMode('up'),
    down: () => setMode('down'),
    blackhole: () => setMode('blackhole'),
    retarget(next) {
      target = next;
    },
    async close() {
      cutAll();
      await stopListening();
    },
  };

  const onConnection = (client: Socket) => {
    proxy.accepted++;
    track(client);
    if (proxy.mode !== 'up') {
      client.pause(); // held: never answered, never read
      return;
    }
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };

  let server: Server | undefined;
  function listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      const next = createServer(onConnection);
      next.once('error', reject);
      next.listen(proxy.port, '127.0.0.1', () => {
        next.off('error', reject);
        server = next;
        proxy.port = (next.address() as { port: number }).port;
        resolve();
      });
    });
  }
  function stopListening(): Promise<void> {
    const current = server;
    server = undefined;
    return current ? new Promise((resolve) => current.close(() => resolve())) : Promise.resolve();
  }
  function cutAll(): void {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  }

  async function setMode(mode: ProxyMode): Promise<void> {
    proxy.mode = mode;
    if (mode === 'down') {
      const closing = stopListening();
      cutAll();
      await closing;
      return;
    }
    if (mode === 'blackhole') cutAll();
    if (!server) await listen();
  }

  if (proxy.mode !== 'down') await listen();
  else {
    // reserve a port without listening on it
    await listen();
    await stopListening();
  }
  return proxy;
}
