/**
 * Real listeners on loopback for the outbound-guard tests: they count every TCP connection they accept, so a
 * test can prove that a refused URL never reached the network. Nothing here talks to anything but loopback.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { makePng } from './images.js';

export interface Listener {
  host: string;
  port: number;
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export interface HttpListener extends Listener {
  /** Requests received so far, by path. */
  requests(path?: string): number;
  /** Host headers received, in order. */
  hostHeaders: string[];
}

export type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

function track(server: net.Server): { connections: () => number; closeAll: () => void } {
  let count = 0;
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    count++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => { /* a client cut off on purpose: expected in these tests */ });
  });
  return { connections: () => count, closeAll: () => { for (const s of sockets) s.destroy(); } };
}

function listen(server: net.Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port));
  });
}

/** Whether this machine can listen on ::1 (IPv6 loopback). */
export async function hasIpv6Loopback(): Promise<boolean> {
  const probe = net.createServer();
  try {
    await listen(probe, '::1');
    return true;
  } catch {
    return false;
  } finally {
    await new Promise<void>((resolve) => (probe.listening ? probe.close(() => resolve()) : resolve()));
  }
}

/**
 * A trap: a TCP listener that must never be reached. Should a connection arrive anyway, it answers with a real
 * PNG, so a broken guard would visibly "succeed" rather than fail for some unrelated reason.
 */
export async function startTrap(host: string): Promise<Listener> {
  const png = makePng(1, 1);
  const server = net.createServer((socket) => {
    socket.once('data', () => {
      socket.end(Buffer.concat([
        Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: ${png.length}\r\nConnection: close\r\n\r\n`),
        png,
      ]));
    });
  });
  const tracked = track(server);
  const port = await listen(server, host);
  return {
    host, port, connections: tracked.connections,
    close: () => new Promise((resolve) => { tracked.closeAll(); server.close(() => resolve()); }),
  };
}

/** An HTTP server on loopback with the given routes (by path, without query); unknown paths answer 404. */
export async function startHttp(host: string, routes: Record<string, Route>, tls?: { key: string; cert: string }): Promise<HttpListener> {
  const counts = new Map<string, number>();
  const hostHeaders: string[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    counts.set(path, (counts.get(path) ?? 0) + 1);
    hostHeaders.push(req.headers.host ?? '');
    const route = routes[path];
    if (route) route(req, res);
    else res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  const tracked = track(server);
  const port = await listen(server, host);
  return {
    host, port, hostHeaders,
    connections: tracked.connections,
    requests: (path?: string) => path === undefined
      ? [...counts.values()].reduce((a, b) => a + b, 0)
      : counts.get(path) ?? 0,
    close: () => new Promise((resolve) => { tracked.closeAll(); server.close(() => resolve()); }),
  };
}

/** A port on 127.0.0.1 where nothing listens (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server, '127.0.0.1');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Lets any connection a broken guard might still be making arrive before connections are counted. */
export function settle(ms = 50): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
