/**
 * The bare server's render thread (bench/lib/bare-server.ts): compiles the templates it is sent, renders each job
 * with the built engine, and transfers the PDF back — the least a render worker does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { ROOT } from './serve.js';

export interface BareJob {
  id: number;
  uuid: string;
  data: Record<string, unknown>;
}
export interface BareResult {
  id: number;
  bytes?: ArrayBuffer;
  pages?: number;
  error?: string;
}
type Message = BareJob | { template: { uuid: string; kind: 'docx' | 'json'; bytes: Uint8Array } };

const engine = (await import(pathToFileURL(path.join(ROOT, 'dist', 'server', 'engine', 'index.js')).href)) as typeof import('../../server/engine/index.js');
const templates = new Map<string, import('../../server/engine/index.js').CompiledTemplate>();
const port = parentPort!;

/**
 * BARE_CORE=1: each job goes through docloom's own RenderCore (dist/, default limits, the bundled fonts), as a render
 * worker's does — to tell the cost of the core and its options from the cost of the worker's protocol around it.
 */
const core = process.env.BARE_CORE === '1' ? await renderCore() : null;
const templateFiles = new Map<string, string>();

async function renderCore() {
  const dist = (file: string): string => pathToFileURL(path.join(ROOT, 'dist', 'server', ...file.split('/'))).href;
  const { RenderCore } = (await import(dist('services/render-core.js'))) as typeof import('../../server/services/render-core.js');
  const { DEFAULT_LIMITS } = (await import(dist('config.js'))) as typeof import('../../server/config.js');
  return new RenderCore({ limits: DEFAULT_LIMITS, fontsDir: path.join(ROOT, 'resources', 'fonts') });
}

port.on('message', (msg: Message) => {
  if ('template' in msg) {
    const compiled = engine.compileTemplate({ kind: msg.template.kind, bytes: new Uint8Array(msg.template.bytes) });
    if (compiled.ok) templates.set(msg.template.uuid, compiled.template);
    if (core) {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-bare-core-')), `template.${msg.template.kind}`);
      fs.writeFileSync(file, msg.template.bytes);
      templateFiles.set(msg.template.uuid, file);
    }
    return;
  }
  if (core) {
    const job = { key: msg.uuid, templatePath: templateFiles.get(msg.uuid)!, kind: templateFiles.get(msg.uuid)!.endsWith('.docx') ? 'docx' : 'json', delimiters: ['{{', '}}'], data: msg.data, test: false, password: null, locale: null, metadata: { title: 'Invoice', creator: 'docloom' }, output: 'pdf', editableCopy: false, allowPrivateNetwork: false } as const;
    void core.render({ ...job, delimiters: ['{{', '}}'] }).then((out) => {
      if (!out.ok) return port.postMessage({ id: msg.id, error: out.message } satisfies BareResult);
      const buffer = ownBuffer(out.bytes);
      port.postMessage({ id: msg.id, bytes: buffer, pages: out.pages ?? 0 } satisfies BareResult, [buffer]);
    });
    return;
  }
  engine.renderPdf(templates.get(msg.uuid)!, msg.data, { metadata: { title: 'Invoice', creator: 'docloom' } }).then(
    (out) => {
      const buffer = ownBuffer(out.bytes);
      port.postMessage({ id: msg.id, bytes: buffer, pages: out.pages } satisfies BareResult, [buffer]);
    },
    (err: unknown) => port.postMessage({ id: msg.id, error: String(err) } satisfies BareResult),
  );
});

/** The bytes' buffer to transfer: their own, or a copy when they share it (a pooled Buffer). */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return own ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
}
