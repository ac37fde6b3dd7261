/**
 * A finished render's layout does not outlive the young generation's collections (docs/benchmarks.md, session 19,
 * promo19). On Node 24, V8 allocates a function literal assigned straight to a property in the old generation; the
 * flow stored its float placer that way (`emitter.floatAt = (…) => …`), once per section, and that dead closure kept
 * the body flow and through it the whole laid document, bound model and data alive through every scavenge: what a
 * layout left in the old generation grew with the document (17 KB for 10 paragraphs, 80 KB for 60), where it is now
 * the same small constant whatever the size. Measured in a child on the Node the service ships (the form costs
 * nothing on Node 20, which the tests may run on: there the check cannot tell and is skipped).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

test("what a layout leaves past two scavenges does not grow with the document (the flow's closures are young)", (t) => {
  const node = execFileSync('bash', [path.join(root, 'scripts/shipped-node.sh')], { encoding: 'utf8' }).trim();
  const out = execFileSync(node, ['--import', 'tsx', path.join(root, 'test/engine/pdf/render-garbage.child.ts')], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const r = JSON.parse(out.trim().split('\n').pop()!) as { node: string; small: number; large: number; probe: number };
  if (!(r.probe > 0)) {
    t.skip(`Node ${r.node} does not put property-assigned closures in the old generation: nothing to tell apart`);
    return;
  }
  // Without the fix: 17,440 and 80,312 bytes (Node 24.22); with it 936 and 936.
  assert.ok(r.large - r.small < 4096, `a 60-paragraph layout left ${r.large} bytes, a 10-paragraph one ${r.small}`);
  assert.ok(r.large < 16384, `a 60-paragraph layout left ${r.large} bytes in the old generation`);
});
