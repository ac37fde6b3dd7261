/**
 * The one connection per instance that LISTENs (docs/team-server.md, "Notifications"): the render queue's wake-ups
 * (store/pg/queue.ts) and the caches' invalidations (store/pg/cache.ts) arrive on it. Started by the first user (the
 * queue at service start, or the first cached lookup), it reconnects by itself when the connection drops.
 *
 * A notification sent while no connection listens is lost for good: each drop and each new LISTEN is told to the
 * `onReset` handlers (the caches drop everything they hold), and `generation` changes with them, so a lookup that
 * began before cannot store what it read.
 */
import type pg from 'pg';

const RELISTEN_MS = 1_000;

export interface PgListener {
  /** Calls `handler` with each notification's payload on `channel` (one of the channels given at creation). */
  on(channel: string, handler: (payload: string) => void): void;
  /** Calls `handler` when the connection is lost and when listening starts again (notifications may have been missed). */
  onReset(handler: () => void): void;
  /** Connects and LISTENs unless it already does (or is trying); resolves once the first attempt has ended. */
  start(): Promise<void>;
  /** True while a connection is listening on every channel. */
  listening(): boolean;
  /** Changes on every loss and every new LISTEN. */
  generation(): number;
  close(): Promise<void>;
}

export function pgListener(pool: pg.Pool, channels: readonly string[], log: (line: string) => void): PgListener {
  const handlers = new Map<string, ((payload: string) => void)[]>(channels.map((c) => [c, []]));
  const resets: (() => void)[] = [];
  let client: pg.PoolClient | undefined;
  let starting: Promise<void> | undefined;
  let closed = false;
  let generation = 0;

  const reset = () => {
    generation++;
    for (const handler of resets) handler();
  };

  const connect = async (): Promise<void> => {
    if (closed) return;
    let candidate: pg.PoolClient | undefined;
    try {
      candidate = await pool.connect();
      const c = candidate;
      c.on('notification', (msg) => {
        if (client !== c) return;
        for (const handler of handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
      });
      const lost = (err?: Error) => {
        if (client !== c) return;
        client = undefined;
        c.release(err ?? true);
        reset();
        if (!closed) {
          log(`store: the listening connection dropped${err ? ` (${err.message})` : ''}; listening again`);
          setTimeout(() => void connect(), RELISTEN_MS).unref();
        }
      };
      c.on('error', lost);
      c.on('end', () => lost());
      await c.query(channels.map((channel) => `LISTEN ${channel}`).join('; '));
      if (closed) {
        c.release(true);
        return;
      }
      client = c;
      // Whatever was read before this LISTEN may have missed a notification nobody heard.
      reset();
    } catch {
      if (candidate && client !== candidate) candidate.release(true);
      if (!closed) setTimeout(() => void connect(), RELISTEN_MS).unref();
    }
  };

  return {
    on(channel, handler) {
      const list = handlers.get(channel);
      if (!list) throw new Error(`store: no LISTEN on ${channel}`);
      list.push(handler);
    },
    onReset(handler) {
      resets.push(handler);
    },
    start() {
      starting ??= connect();
      return starting;
    },
    listening: () => !closed && client !== undefined,
    generation: () => generation,
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      c?.release(true);
      reset();
    },
  };
}
