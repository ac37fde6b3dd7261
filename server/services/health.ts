/**
 * GET /api/health (docs/api.md): whether this instance can serve, for a load balancer — no token needed, nothing
 * secret said. Each dependency is `ok` or `down`: `database` the store (the data folder, or PostgreSQL answering a
 * query), `storage` where files live (the data folder, or the bucket answering a HEAD), `queue` the render queue
 * (this instance's render pool, `down` once the service is stopping; on a team server also its listening
 * connection to the shared queue in PostgreSQL). 503 when any is down.
 */
export type DependencyState = 'ok' | 'down';

export interface Health {
  success: boolean;
  database: DependencyState;
  storage: DependencyState;
  queue: DependencyState;
}

/** Longest a check waits before it counts the dependency as down. */
export const HEALTH_CHECK_MS = 3_000;

export interface HealthChecks {
  database: () => Promise<void>;
  storage: () => Promise<void>;
  queue: () => boolean;
}

async function state(check: () => Promise<void>): Promise<DependencyState> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<DependencyState>((resolve) => {
    timer = setTimeout(() => resolve('down'), HEALTH_CHECK_MS);
  });
  try {
    return await Promise.race([check().then((): DependencyState => 'ok', (): DependencyState => 'down'), late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(checks: HealthChecks): Promise<Health> {
  const [database, storage] = await Promise.all([state(checks.database), state(checks.storage)]);
  const queue: DependencyState = checks.queue() ? 'ok' : 'down';
  return { success: database === 'ok' && storage === 'ok' && queue === 'ok', database, storage, queue };
}
