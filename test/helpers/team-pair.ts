/**
 * Two served instances (the built dist/) on one fresh database of a throwaway PostgreSQL cluster and one s3rver
 * bucket, with a token and a .json template uploaded through the first — the set-up the team tests that need a
 * loopback image server (local render, idempotency) share. The cluster, the bucket server and the image server
 * stay the test file's: it starts them at module level (so it can skip) and stops them in its own `after`.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import pg from 'pg';
import { startServe, type ServeChild } from '../../scripts/lib/serve-child.js';
import { openPgRepositories } from '../../server/store/pg/index.js';
import { TokenAccess } from '../../server/services/token-access.js';
import type { PgCluster } from './pg-cluster.js';
import type { S3TestServer } from './s3-server.js';

export interface TeamPair {
  a: ServeChild;
  b: ServeChild;
  auth: { authorization: string };
  /** The uploaded template's uuid. */
  uuid: string;
  /** A connection to the instances' database, for the test's own looks and triggers. */
  db: pg.Client;
}

export async function startTeamPair(o: {
  cluster: PgCluster;
  s3: S3TestServer;
  bucket: string;
  temp: string;
  leaseMs: number;
  tokenName: string;
  template: { name: string; json: string };
}): Promise<TeamPair> {
  const url = await o.cluster.createDatabase();
  const repos = await openPgRepositories(url, { cacheDir: path.join(o.temp, 'cache') });
  const { token } = await new TokenAccess(repos.tokens).create(o.tokenName, false);
  await repos.close();
  const auth = { authorization: `Bearer ${token}` };
  const env = {
    DOCLOOM_DATABASE_URL: url,
    ...o.s3.serveEnv(o.bucket),
    DOCLOOM_QUEUE_LEASE_MS: String(o.leaseMs),
    // The image server is on loopback.
    DOCLOOM_ALLOW_PRIVATE_NETWORK: 'true',
  };
  const [a, b] = await Promise.all(['a', 'b'].map((n) => startServe(path.join(o.temp, n), env)));
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const form = new FormData();
  form.append('file', new Blob([o.template.json]), o.template.name);
  const res = await fetch(`${a.url}/api/template`, { method: 'POST', body: form, headers: auth });
  const body = (await res.json()) as { template: { uuid: string } };
  assert.equal(res.status, 201, JSON.stringify(body));
  return { a, b, auth, uuid: body.template.uuid, db };
}

/** Stops the instances still running (SIGTERM) and closes the connection; safe on a pair that never started. */
export async function stopTeamPair(pair: TeamPair | undefined): Promise<void> {
  if (!pair) return;
  for (const s of [pair.a, pair.b]) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
  await Promise.all([pair.a.exited, pair.b.exited]);
  await pair.db.end();
}
