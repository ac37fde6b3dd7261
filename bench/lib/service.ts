/**
 * A real service for an HTTP benchmark: a fresh data dir (optionally filled first), startServer on a free port,
 * a token, and the template upload; the service is closed and the data dir removed whatever happens.
 */
import fs from 'node:fs';
import { startServer } from '../../server/index.js';
import { benchDataDir } from './data-dir.js';

export interface BenchService {
  url: string;
  /** Headers that authenticate as the benchmark's token. */
  auth: { authorization: string };
  /** Uploads a JSON template and returns its uuid (throws with the service's answer when it refuses it). */
  uploadTemplate(json: string, filename?: string): Promise<string>;
}

export async function withBenchService(
  name: string,
  opts: { renderWorkers: number; prepare?: (dataDir: string) => Promise<void> },
  run: (service: BenchService) => Promise<void>,
): Promise<void> {
  const dataDir = benchDataDir(`docloom-bench-${name}-`);
  try {
    await opts.prepare?.(dataDir);
    const server = await startServer({
      env: {},
      config: { port: 0, dataDir, seedSamples: false, logLevel: 'error', renderWorkers: opts.renderWorkers },
      log: () => undefined,
    });
    try {
      const { token } = await server.createToken('bench');
      const auth = { authorization: `Bearer ${token}` };
      const uploadTemplate = async (json: string, filename = 'invoice.json'): Promise<string> => {
        const form = new FormData();
        form.append('file', new Blob([json]), filename);
        const res = await fetch(`${server.url}/api/template`, { method: 'POST', body: form, headers: auth });
        const body = (await res.json()) as { template?: { uuid: string } };
        if (!body.template) throw new Error(`template upload failed: ${res.status} ${JSON.stringify(body)}`);
        return body.template.uuid;
      };
      await run({ url: server.url, auth, uploadTemplate });
    } finally {
      await server.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
