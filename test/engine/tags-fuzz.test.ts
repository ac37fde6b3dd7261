/**
 * Robustness of the tag compiler and the binder: random tag soup in paragraphs, cells and headers, with random
 * delimiters and data, only ever compiles (then binds or fails with an EngineError) or reports template errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTags } from '../../server/engine/tags/compile.js';
import { bindTemplate } from '../../server/engine/bind/bind.js';
import { EngineError } from '../../server/engine/errors.js';
import type { Block, Delimiters, TemplateModel } from '../../server/engine/model/types.js';
import { seededRandom } from '../helpers/random.js';

const DELIMITERS: Delimiters[] = [['{{', '}}'], ['{', '}'], ['[', ']'], ['<<', '>>'], ['%%', '%%']];

test('random templates compile to a template or to errors, and bind or fail with an EngineError', async () => {
  const rand = seededRandom(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  let compiled = 0;
  let refused = 0;
  for (let i = 0; i < 1500; i++) {
    const [open, close] = pick(DELIMITERS);
    const names = ['a', 'b', 'items', '.', 'x.y', 'variable 1', ''];
    const good = ['a', 'b', 'items', '.', 'x.y', 'variable 1'];
    const variable = (): string => `${open}${pick(good)}${pick(['', ' | upper', ' | number:2', ' | date:"YYYY"', ' | currency:"EUR"', ' | default:"-"'])}${close}`;
    const mistake = (): string =>
      pick([
        `${open}${close}`, `${open}#${pick(names)}${close}`, `${open}/${pick(names)}${close}`, `${open}x | nope${close}`,
        `${open}%a:x${close}`, `${open}$x${close}`, open, `${open}a ${open}b${close}`,
      ]);
    const piece = (depth = 0): string => {
      const r = rand();
      if (r < 0.45) return variable();
      if (r < 0.65 && depth < 3) {
        const name = pick(good);
        return `${open}${pick(['#', '^'])}${name}${close}${piece(depth + 1)}${open}/${name}${close}`;
      }
      if (r < 0.75) return `${open}%${pick(good)}${pick(['', ':10x10'])}${close}`;
      if (r < 0.8) return `${open}$${pick(['page', 'pages'])}${close}`;
      if (r < 0.97) return pick([' ', 'text', '\n', '“', '|', ':', close]);
      return mistake();
    };
    const paragraph = (): Block => {
      // Whole text cut into runs at random places, as Word splits text.
      const text = Array.from({ length: Math.floor(rand() * 4) }, () => piece()).join('');
      const cuts = [0, ...Array.from({ length: Math.floor(rand() * 3) }, () => Math.floor(rand() * text.length)).sort((x, y) => x - y), text.length];
      return { type: 'paragraph', runs: cuts.slice(1).map((end, k) => ({ type: 'text' as const, text: text.slice(cuts[k], end), ...(k % 2 ? { style: { bold: true } } : {}) })) };
    };
    const block = (depth: number): Block =>
      depth < 2 && rand() < 0.2
        ? { type: 'table', columns: [100, 100], rows: Array.from({ length: 1 + Math.floor(rand() * 3) }, () => ({ cells: [0, 1].map(() => ({ blocks: Array.from({ length: 1 + Math.floor(rand() * 2) }, () => block(depth + 1)) })) })) }
        : paragraph();
    const model: TemplateModel = {
      version: 1,
      defaults: { run: {}, paragraph: {} },
      sections: [{
        page: { width: 595, height: 842, margins: { top: 50, right: 50, bottom: 50, left: 50 } },
        header: { default: [block(1)] },
        body: Array.from({ length: 1 + Math.floor(rand() * 5) }, () => block(0)),
      }],
    };
    const { template, errors } = compileTags(model, [open, close]);
    for (const e of errors) assert.ok(e.code && e.message && e.location.part, JSON.stringify(e));
    if (errors.length > 0) {
      refused++;
      continue;
    }
    compiled++;
    const value = (): unknown => pick<unknown>([undefined, null, '', 'v', 0, 7, true, false, [], [{ a: 'i' }, 'p'], { y: 'z' }, 'data:image/png;base64,AAAA']);
    const data = { a: value(), b: value(), items: value(), x: { y: value() }, 'variable 1': value() };
    try {
      await bindTemplate(structuredClone(template), data, {});
    } catch (err) {
      assert.ok(err instanceof EngineError, `iteration ${i}: ${String(err)}`);
    }
  }
  assert.ok(compiled > 200 && refused > 200, `both outcomes are exercised (compiled ${compiled}, refused ${refused})`);
});
