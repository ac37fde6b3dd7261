/**
 * node:zlib in the render and import workers, made safe to stop (server/engine/zlib-gate.ts). A worker terminated
 * inside a zlib call can abort the whole process (node_zlib.cc "close before init": seen on Node 24 in a CI run;
 * the first storm below without the gate aborted Node 20 too). Should the gate fail, this file's process aborts and
 * the test runner reports the file as failed. CI runs it on Node 20, 22 and 24 (scripts/node-versions.sh).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startWorker, stopWorker } from '../../server/services/worker-start.js';
import { WorkerPool } from '../../server/services/render-pool.js';
import type { RenderJob, RenderOutcome } from '../../server/services/render-core.js';
import { DEFAULT_LIMITS } from '../../server/config.js';
import { buildDocx, p } from '../docx/build-docx.js';
import { encodePng } from '../../scripts/lib/png.js';
import { tempDir } from './support.js';
import { seededRandom } from '../helpers/random.js';

/** Workers stopped in the first storm (each costs a worker start, ~0.1–0.2 s of CPU with tsx). */
const STORM = Number(process.env.DOCLOOM_ZLIB_STORM ?? 80);
/** Workers alive at once in the first storm. */
const LANES = 3;

test(`${STORM} workers doing nothing but zlib calls, each stopped at a random moment: the process lives; stops wait for the call in progress`, async () => {
  let started = 0;
  let stopped = 0;
  let caughtInside = 0;
  const lane = async (): Promise<void> => {
    while (started < STORM) {
      started++;
      // startWorker finds zlib-hammer.ts beside this file, as the pools find their workers.
      const worker = startWorker(import.meta.url, 'zlib-hammer');
      await new Promise<void>((resolve, reject) => {
        worker.once('message', () => resolve());
        worker.once('error', reject);
      });
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
      const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
      caughtInside += await stopWorker(worker);
      assert.equal(await exited, 1, 'terminated');
      stopped++;
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  assert.equal(stopped, STORM);
  // The hammer spends most of its time in zlib: many stops found it inside and waited (the gate did something).
  assert.ok(caughtInside > 0, 'no stop found its worker inside a zlib call');
});

/** An RGBA picture of noise (it compresses badly: much to inflate and deflate), different for each seed. */
function noisePng(size: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  const pixels = Uint8Array.from({ length: size * size * 4 }, (_, i) => ((i & 3) === 3 ? 128 : 0) + ((random() * ((i & 3) === 3 ? 128 : 256)) | 0));
  return encodePng(size, size, pixels);
}

function picture(id: string): string {
  return `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="1828800" cy="1828800"/><wp:docPr id="1" name="${id}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="${id}"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
}

test('render workers stopped at random moments during .docx renders heavy in zlib (pictures with alpha, many pages): the pool recovers, the process lives', async () => {
  const dir = tempDir();
  const media: Record<string, Uint8Array> = {};
  let body = '';
  for (let i = 0; i < 6; i++) {
    media[`pic${i}.png`] = noisePng(160, i + 1);
    body += picture(`img_pic${i}`) + Array.from({ length: 40 }, (_, k) => p(`Paragraph ${i}.${k} of {{name}}: the quick brown fox jumps over the lazy dog.`)).join('');
  }
  const file = path.join(dir, 'pictures.docx');
  fs.writeFileSync(file, buildDocx({ body, media }));
  const pool = new WorkerPool(2, { limits: { ...DEFAULT_LIMITS }, fontsDir: null }, () => undefined);
  // An idle worker is unref'd: terminating one whose render ended before the stop would leave nothing to wait for.
  const keepAlive = setInterval(() => undefined, 1000);
  let n = 0;
  // A new key each time: the worker reads (inflates) the .docx again, as a first render of a new template does.
  const job = (): RenderJob => ({
    key: `t@${++n}`, templatePath: file, kind: 'docx', delimiters: ['{{', '}}'], data: { name: 'Ada' }, test: false, password: null, locale: null,
    output: 'pdf', editableCopy: false, allowPrivateNetwork: false,
  });
  try {
    const warm = await pool.render(job(), 'interactive');
    assert.equal(warm.ok, true, JSON.stringify(warm).slice(0, 300));
    const t0 = Date.now();
    await pool.render(job(), 'interactive');
    // The stops fall anywhere in a render (of a new template: read, laid out, drawn, deflated).
    const renderMs = Date.now() - t0;
    const rounds = Number(process.env.DOCLOOM_ZLIB_POOL_ROUNDS ?? 2);
    const outcomes: RenderOutcome[] = [];
    for (let round = 0; round < rounds; round++) {
      // Stopped only once warm and rendering: a worker that dies warming counts as a failed start (the pool would
      // wait before the next, and after three go inline).
      while (pool.warmThreads() < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const rendering = Array.from({ length: 2 }, () => pool.render(job(), 'interactive', () => started()));
      await running;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * renderMs));
      // What the render_ms limit and close() do to a worker.
      await Promise.all(pool.threads().map((worker) => stopWorker(worker)));
      outcomes.push(...(await Promise.all(rendering)));
    }
    for (const outcome of outcomes) {
      assert.ok(outcome.ok || outcome.code === 'render_crashed', JSON.stringify(outcome).slice(0, 300));
    }
    const after = await pool.render(job(), 'interactive');
    assert.equal(after.ok, true, JSON.stringify(after).slice(0, 300));
  } finally {
    await pool.close();
    clearInterval(keepAlive);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
