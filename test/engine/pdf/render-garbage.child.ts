/**
 * Child of render-garbage.test.ts, run with the Node the service ships (scripts/shipped-node.sh). Prints a JSON line:
 * the old-generation bytes one layout-and-flow (layoutPages) of a 10- and of a 60-paragraph model leaves behind
 * after two young-generation collections (median of 60 calls each, after 300 of warm-up), and `probe`: the bytes
 * V8 puts straight in the old generation when a function literal is assigned to a property (0 where it does not).
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { layoutPages } from '../../../server/engine/pdf/render.js';
import { model, para, section } from './helpers.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (o?: { type: 'minor' }) => void;
const oldUsed = (): number => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;

const make = (paragraphs: number, i: number) =>
  model([section(Array.from({ length: paragraphs }, (_, k) => para(`Paragraph ${k} of render ${i}, long enough to wrap once on an A4 page.`)))]);

/** Median old-generation growth over two scavenges after `fn`, with the young generation emptied before. */
function kept(fn: (i: number) => void): number {
  for (let i = 0; i < 300; i++) fn(i);
  const d: number[] = [];
  for (let i = 0; i < 60; i++) {
    gc({ type: 'minor' });
    gc({ type: 'minor' });
    const before = oldUsed();
    fn(i);
    gc({ type: 'minor' });
    gc({ type: 'minor' });
    d.push(oldUsed() - before);
  }
  return d.sort((a, b) => a - b)[d.length >> 1];
}

const small = kept((i) => void layoutPages(make(10, i)));
const large = kept((i) => void layoutPages(make(60, i)));
const sink: { f?: () => number } = {};
let probe = Infinity;
for (let r = 0; r < 5; r++) {
  const before = oldUsed();
  for (let i = 0; i < 1000; i++) {
    const o = { x: i };
    sink.f = () => o.x; // the form floats.ts must not use
  }
  const grew = oldUsed() - before;
  if (grew >= 0) probe = Math.min(probe, grew / 1000);
}
console.log(JSON.stringify({ node: process.versions.node, small, large, probe }));
