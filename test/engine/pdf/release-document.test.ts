/**
 * What a finished render leaves of its jsPDF document (render.ts, releaseDocument). jsPDF's constructor makes objects
 * V8 keeps in the old generation that point at the document, so every document outlives the scavenges and is
 * promoted whole; and its plugins' module state and the shared `jsPDF.API.setLineDash` keep the last document made
 * reachable. After the render the document must be an empty shell: its members deleted, so neither path carries
 * them (docs/benchmarks.md, session 19, promo19). Both tests fail without the deletions in releaseDocument.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { jsPDF } from 'jspdf';
import { assertValidPdf, model, para, render } from './helpers.js';

interface Captured {
  doc: Record<string, unknown>;
  internal: Record<string, unknown>;
}

/** Runs `fn` with every jsPDF document made meanwhile handed to `seen` (jsPDF's own plugin event). */
async function capturing<T>(seen: (c: Captured) => void, fn: () => Promise<T>): Promise<T> {
  const events = (jsPDF.API as unknown as { events: [string, (this: Record<string, unknown>) => void][] }).events;
  const entry: [string, (this: Record<string, unknown>) => void] = [
    'initialized',
    function (this: Record<string, unknown>) {
      const internal = this.internal as Record<string, unknown> & { events: { subscribe(topic: string, fn: () => void): void } };
      // While the document writes its bytes, before the render lets it go: its plugins have all been set up.
      internal.events.subscribe('postPutResources', () => seen({ doc: this, internal }));
    },
  ];
  events.push(entry);
  try {
    return await fn();
  } finally {
    events.splice(events.indexOf(entry), 1);
  }
}

test('after a render its jsPDF document has no members left: not its methods, internal or plugin objects', async () => {
  const docs: Captured[] = [];
  const bytes = await capturing((c) => docs.push(c), () => render(model([para('Released after output.')])));
  assertValidPdf(bytes);
  assert.equal(docs.length, 1);
  const [{ doc, internal }] = docs;
  assert.deepEqual(Object.keys(doc), [], 'the document object is empty');
  assert.deepEqual(Object.keys(internal), [], 'its internal object is empty');
});

test('the last document rendered is not reachable through jsPDF\'s shared state after a full collection', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  let refs: WeakRef<object>[] = [];
  await capturing(
    (c) => {
      // Objects only the document's members reach: its plugins' (context2d, canvas, outline). (Its emptied internal
      // object stays reachable from jsPDF's closures; the test above sees it empty.)
      refs = ['context2d', 'canvas', 'outline'].map((k) => new WeakRef(c.doc[k] as object));
    },
    () => render(model([para('The last document of this thread.')])),
  );
  assert.equal(refs.length, 3);
  // WeakRef targets stay alive until the job that made the refs ends.
  await new Promise((r) => setTimeout(r, 0));
  gc();
  await new Promise((r) => setTimeout(r, 0));
  gc();
  assert.deepEqual(refs.map((r) => r.deref() === undefined), [true, true, true]);
});
