/**
 * A TCP proxy a test can pull the plug on: down() cuts every open connection and resets each new
 * one, as a database that crashed or became unreachable would; freeze() keeps every connection
 * open but lets nothing through, as a frozen host or a network partition would; up() lets
 * connections through again, on the same port.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  down(): void;
  freeze(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let isDown = false;
  let frozen = false;

  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };

  const server = createServer((client) => {
    if (isDown) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    // Either side failing ends both, as a dropped link would.
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
    // Bytes pass only while the link is not frozen; a frozen link swallows them.
    client.on('data', (chunk) => {
      if (!frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!frozen) client.write(chunk);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    down() {
      isDown = true;
      for (const socket of open) socket.resetAndDestroy();
    },
    freeze() {
      frozen = true;
    },
    up() {
      isDown = false;
      frozen = false;
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
