/** GET /api/health: no token (a load balancer's probe); 200 when every dependency is ok, 503 naming the one down. */
import { Router } from 'express';
import type { Services } from '../../services/index.js';
import { RETRY_AFTER_SECONDS } from '../../errors/database.js';

export function healthRoutes(s: Services): Router {
  const r = Router();
  r.get('/health', async (_req, res) => {
    const health = await s.health();
    if (!health.success) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    res.status(health.success ? 200 : 503).json(health);
  });
  return r;
}
