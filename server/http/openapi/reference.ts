/**
 * The readable API reference (GET /api/reference): the OpenAPI description rendered to one static HTML page on the
 * server — no script, no external asset, so it works offline and under a CSP that allows nothing but its own style.
 */
import type { OpenApiDocument } from './index.js';
import type { Method, Operation, Parameter, Ref, ResponseObject, Schema } from './types.js';

const METHODS: Method[] = ['get', 'post', 'put', 'delete'];

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The little Markdown the descriptions use: `code` and **bold**. */
function prose(text: string | undefined): string {
  if (!text) return '';
  return esc(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .split(/\n{2,}/)
    .map((p) => (p.startsWith('- ') ? `<ul>${p.split('\n').map((li) => `<li>${li.replace(/^- /, '')}</li>`).join('')}</ul>` : `<p>${p}</p>`))
    .join('');
}

const refName = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

/** A schema in a few words: `string | null`, `integer (0, 1)`, a link to a named schema… */
function typeOf(schema: Schema | undefined): string {
  if (!schema) return '';
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return `<a href="#schema-${esc(name)}">${esc(name)}</a>`;
  }
  if ('const' in schema) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const alternatives = schema[key];
    if (Array.isArray(alternatives)) return (alternatives as Schema[]).map(typeOf).join(' | ');
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [String(schema.type)] : ['any'];
  let out = types
    .map((t) => (t === 'array' ? `array of ${typeOf(schema.items as Schema | undefined) || 'any'}` : esc(t)))
    .join(' | ');
  if (Array.isArray(schema.enum)) out += ` (${(schema.enum as unknown[]).map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(', ')})`;
  if (typeof schema.format === 'string') out += ` <span class="muted">${esc(schema.format)}</span>`;
  return out;
}

/** The description writes its parameters inline (common.ts); a reference would be a mistake to see at once. */
function inlineParam(p: Parameter | Ref): Parameter {
  if ('$ref' in p) throw new Error(`reference: parameters are written inline, not as $ref (${p.$ref})`);
  return p;
}

function fieldsTable(properties: Record<string, Schema>, required: string[]): string {
  const rows = Object.entries(properties).map(
    ([name, s]) =>
      `<tr><td><code>${esc(name)}</code>${required.includes(name) ? ' <span class="req">required</span>' : ''}</td><td>${typeOf(s)}</td><td>${prose(typeof s.description === 'string' ? s.description : '')}</td></tr>`,
  );
  return `<table><thead><tr><th>field</th><th>type</th><th>notes</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function operationHtml(path: string, method: Method, op: Operation, shared: Array<Parameter | Ref>): string {
  const parts: string[] = [];
  // Public when one of its security options is "nothing" (`{}`), as the sign-in exchange's optional bearer.
  const publicRoute = Array.isArray(op.security) && (op.security.length === 0 || op.security.some((s) => Object.keys(s).length === 0));
  parts.push(
    `<h3 id="op-${esc(op.operationId)}"><span class="method ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>`,
    `<p class="summary">${esc(op.summary)}${publicRoute ? ' <span class="badge">no token</span>' : ''}</p>`,
    prose(op.description),
  );
  const params = [...shared, ...(op.parameters ?? [])].map(inlineParam);
  if (params.length) {
    parts.push(
      '<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>type</th><th>notes</th></tr></thead><tbody>',
      ...params.map((p) => `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ''}</td><td>${p.in}</td><td>${typeOf(p.schema)}</td><td>${prose(p.description)}</td></tr>`),
      '</tbody></table>',
    );
  }
  if (op.requestBody) {
    const types = Object.keys(op.requestBody.content);
    const main = op.requestBody.content['multipart/form-data'] ?? op.requestBody.content[types[0]];
    const schema = main.schema as { properties?: Record<string, Schema>; required?: string[] };
    parts.push(`<h4>Body</h4><p class="muted">${types.map((t) => `<code>${esc(t)}</code>`).join(', ')}</p>`);
    if (schema.properties) parts.push(fieldsTable(schema.properties, schema.required ?? []));
    const example = main.examples?.example?.value;
    if (example !== undefined) parts.push(`<pre>${esc(JSON.stringify(example, null, 2))}</pre>`);
  }
  parts.push('<h4>Responses</h4><table><thead><tr><th>status</th><th>meaning</th><th>body</th></tr></thead><tbody>');
  for (const [status, r] of Object.entries(op.responses)) {
    const res = r as ResponseObject;
    const body = Object.entries(res.content ?? {})
      .map(([t, m]) => `<code>${esc(t)}</code> ${typeOf(m.schema)}`)
      .join('<br>');
    parts.push(`<tr><td>${esc(status)}</td><td>${prose(res.description)}</td><td>${body}</td></tr>`);
  }
  parts.push('</tbody></table>');
  const ok = Object.entries(op.responses).find(([s]) => s.startsWith('2'))?.[1] as ResponseObject | undefined;
  const okExample = ok?.content?.['application/json']?.examples?.example?.value;
  if (okExample !== undefined) parts.push(`<details><summary>Example response</summary><pre>${esc(JSON.stringify(okExample, null, 2))}</pre></details>`);
  return `<section class="op">${parts.join('\n')}</section>`;
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d232b;background:#fafbfc}
main{max-width:64em;margin:0 auto;padding:1em 2em 4em}
nav{background:#fff;border-bottom:1px solid #dde2e8;padding:.5em 2em}
nav a{margin-right:1em}
h2{border-bottom:2px solid #dde2e8;margin-top:2.5em}
.op{background:#fff;border:1px solid #dde2e8;border-radius:6px;padding:.2em 1.2em 1em;margin:1.2em 0}
.method{display:inline-block;min-width:4.5em;text-align:center;border-radius:4px;color:#fff;font-size:.8em;padding:.1em .4em}
.get{background:#2463b8}.post{background:#1c7c45}.put{background:#9a6200}.delete{background:#b3261e}
table{border-collapse:collapse;width:100%;margin:.5em 0}
th,td{border:1px solid #dde2e8;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#f1f3f6}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}
pre{background:#f1f3f6;padding:.8em;overflow:auto;border-radius:4px}
.muted{color:#5b6672}.req{color:#b3261e;font-size:.8em}.badge{background:#e7eefb;color:#2463b8;border-radius:4px;padding:0 .4em;font-size:.8em}
td p,td ul{margin:0}
`;

/** The page for `doc`. */
export function renderReference(doc: OpenApiDocument): string {
  const out: string[] = [];
  const info = doc.info as { title: string; version: string; description?: string };
  out.push(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(info.title)} ${esc(info.version)} — reference</title><style>${STYLE}</style></head><body>`,
    `<nav>${doc.tags.map((t) => `<a href="#tag-${esc(t.name)}">${esc(t.name)}</a>`).join('')}<a href="#schemas">Schemas</a><a href="openapi.json">openapi.json</a></nav><main>`,
    `<h1>${esc(info.title)} <span class="muted">${esc(info.version)}</span></h1>`,
    `<p>Base URL: <code>${esc(doc.servers[0]?.url ?? '')}</code> · OpenAPI ${esc(doc.openapi)} (<a href="openapi.json">openapi.json</a>)</p>`,
    prose(info.description),
  );
  for (const tag of doc.tags) {
    out.push(`<h2 id="tag-${esc(tag.name)}">${esc(tag.name)}</h2>`, prose(tag.description));
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (op?.tags.includes(tag.name)) out.push(operationHtml(path, method, op, item.parameters ?? []));
      }
    }
  }
  out.push('<h2 id="schemas">Schemas</h2>');
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    out.push(`<section class="op" id="schema-${esc(name)}"><h3>${esc(name)}</h3>`, prose(typeof schema.description === 'string' ? schema.description : ''));
    const props = schema.properties as Record<string, Schema> | undefined;
    out.push(props ? fieldsTable(props, (schema.required as string[] | undefined) ?? []) : `<p>${typeOf(schema)}</p>`);
    out.push('</section>');
  }
  out.push('</main></body></html>');
  return out.join('\n');
}
