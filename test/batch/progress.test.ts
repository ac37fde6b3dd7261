/**
 * The CLI batch's progress (server/batch/progress.ts) on a terminal: a bar redrawn in place with done/total, the
 * rate and the ETA; a failed row printed above the bar without tearing it; the summary replaces the bar.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Progress } from '../../server/batch/progress.js';

test('on a terminal: a bar with done/total, rate and ETA redrawn in place; a note above it; the summary at the end', async () => {
  let written = '';
  const terminal = { isTTY: true, write: (chunk: string) => ((written += chunk), true) } as unknown as NodeJS.WriteStream;
  const progress = new Progress({ total: 10, stream: terminal });
  for (let i = 0; i < 5; i++) progress.tick(true);
  progress.tick(false);
  await new Promise((r) => setTimeout(r, 250));
  // The terminal's erase-line sequence (ESC [K) is what the bar is redrawn with, hence the rule exception.
  // eslint-disable-next-line no-control-regex
  assert.match(written, /\r\x1b\[K█{18}░{12} 6\/10, 1 failed {2}\d+ doc\/s {2}ETA [\d.]+ s/);
  progress.note('row 6: logo: not an image (invalid_image)');
  // eslint-disable-next-line no-control-regex
  assert.match(written, /\r\x1b\[Krow 6: logo: not an image \(invalid_image\)\n\r\x1b\[K█/);
  const summary = progress.finish();
  assert.match(summary, /^5\/10 done, 1 failed, [\d.]+ s, \d+ doc\/s$/);
  assert.ok(written.endsWith(`\r\x1b[K${summary}\n`));
});
