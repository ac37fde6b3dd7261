/**
 * The Generate page's state: the chosen template, the data being edited (shared by the form and the JSON view),
 * the test switch and the last generated document.
 *
 * Every change to the data — a keystroke, a row added, removed or moved, a Reset, a loaded file, a JSON text —
 * is an operation recorded in one history (undo/redo), and each one schedules a draft write (lib/drafts.ts),
 * so nothing typed is lost to a reload, a template switch or a crash. Components never mutate the data
 * themselves: they call the operations below with the scope (root object or row) they show.
 */
import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import * as api from '../api/client.js';
import type { DocumentRecord, TemplateField, TemplateRecord } from '../api/types.js';
import {
  clonePlain,
  deleteValue,
  emptyRow,
  fillMissing,
  initialData,
  parseFields,
  readValue,
  unusedKeys,
  validateData,
  writeValue,
  type DataObject,
} from '../lib/fields.js';
import { History, type Change } from '../lib/history.js';
import { createDraftWriter, loadDraft } from '../lib/drafts.js';
import { newKeys, spliceKeys } from '../lib/row-keys.js';

/** A short message about the last big change ("Data reset to the sample."), with Undo while it is still the last step. */
export interface EditNotice {
  id: number;
  text: string;
  step: number;
}

function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export const useGenerateStore = defineStore('generate', () => {
  const template = ref<TemplateRecord | null>(null);
  const fields = ref<TemplateField[]>([]);
  const data = ref<DataObject>({});
  /** Off until switched on: a document is real unless asked otherwise. Kept in the draft. */
  const test = ref(false);
  const generating = ref(false);
  const result = ref<DocumentRecord | null>(null);
  const error = ref<unknown>(null);
  /** Set by the JSON view while its text does not parse ("line 3, column 5: …"); Generate waits for it. */
  const jsonError = ref('');
  const notice = ref<EditNotice | null>(null);
  /** Shown when drafts cannot be written (no storage, quota full): edits then live only in this page. */
  const draftWarning = ref('');
  /** Bumped by every data change: cheap to watch, unlike the data itself. */
  const revision = ref(0);
  const historyTick = ref(0);

  const history = new History({ limit: 500, pauseMs: 1000 });
  const canUndo = computed(() => historyTick.value >= 0 && history.canUndo);
  const canRedo = computed(() => historyTick.value >= 0 && history.canRedo);

  const problems = computed(() => validateData(fields.value, data.value));
  const unused = computed(() => unusedKeys(fields.value, data.value));

  // ---- drafts ----

  const drafts = createDraftWriter({
    onError: (err) => {
      draftWarning.value = `Your edits cannot be saved as a draft in this window (${err instanceof Error ? err.message : String(err)}). They are kept only while this page stays open.`;
    },
    onSaved: () => (draftWarning.value = ''),
  });
  /** True while a template and its draft are being put in place (that is not a change to save). */
  let restoring = false;

  function saveDraftSoon(): void {
    const uuid = template.value?.uuid;
    if (!uuid || restoring) return;
    drafts.schedule(uuid, () => ({ json: JSON.stringify(data.value), test: test.value, savedAt: Date.now() }));
  }
  watch(test, saveDraftSoon, { flush: 'sync' });
  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', () => void drafts.flush());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') void drafts.flush();
    });
  }

  // ---- history ----

  function changed(): void {
    revision.value++;
    historyTick.value++;
    saveDraftSoon();
  }

  function apply(change: Change, group: string | null = null): number {
    const step = history.apply(change, group);
    changed();
    return step;
  }

  function undo(): boolean {
    const done = history.undo();
    if (done) changed();
    return done;
  }

  function redo(): boolean {
    const done = history.redo();
    if (done) changed();
    return done;
  }

  let noticeId = 0;
  function announce(text: string, step: number): void {
    notice.value = { id: ++noticeId, text, step };
  }
  /** Undo from a notice: only while its own step is still the one Undo would take back. */
  function undoNotice(): void {
    if (notice.value && history.lastId === notice.value.step) undo();
    notice.value = null;
  }
  const noticeUndoable = computed(() => historyTick.value >= 0 && notice.value !== null && history.lastId === notice.value.step);

  // ---- operations on the data ----

  /** Sets a field in a scope (the root or a row). `group` joins keystrokes in one field into one undo step. */
  function setField(scope: DataObject, name: string, value: unknown, group: string | null = null): void {
    const before = readValue(scope, name);
    if (Object.is(before, value)) return;
    apply(
      {
        redo: () => writeValue(scope, name, value),
        undo: () => (before === undefined ? deleteValue(scope, name) : writeValue(scope, name, before)),
      },
      group,
    );
  }

  /** `list.splice(index, removeCount, ...rows)` as one undoable change that keeps each row's key. */
  function spliceRows(list: unknown[], index: number, removeCount: number, rows: unknown[]): number {
    const added = newKeys(rows.length);
    let removed: unknown[] = [];
    let removedKeys: number[] = [];
    return apply({
      redo: () => {
        removedKeys = spliceKeys(list, index, removeCount, added);
        removed = list.splice(index, removeCount, ...rows);
      },
      undo: () => {
        spliceKeys(list, index, rows.length, removedKeys);
        list.splice(index, rows.length, ...removed);
      },
    });
  }

  /** The list a list/table field holds, created (in the same step) when the data has none yet. */
  function listOf(scope: DataObject, field: TemplateField): unknown[] {
    const value = readValue(scope, field.name);
    if (Array.isArray(value)) return value;
    setField(scope, field.name, []);
    return readValue(scope, field.name) as unknown[];
  }

  function addRow(scope: DataObject, field: TemplateField): number {
    let index = 0;
    history.transaction(() => {
      const list = listOf(scope, field);
      index = list.length;
      spliceRows(list, index, 0, [emptyRow(field)]);
    });
    historyTick.value++;
    return index;
  }

  function removeRow(list: unknown[], index: number, label: string): void {
    const step = spliceRows(list, index, 1, []);
    announce(`Removed ${label}.`, step);
  }

  function moveRow(list: unknown[], from: number, to: number): void {
    if (to < 0 || to >= list.length || from === to) return;
    let key: number[] = [];
    apply({
      redo: () => {
        key = spliceKeys(list, from, 1, []);
        const [row] = list.splice(from, 1);
        spliceKeys(list, to, 0, key);
        list.splice(to, 0, row);
      },
      undo: () => {
        key = spliceKeys(list, to, 1, []);
        const [row] = list.splice(to, 1);
        spliceKeys(list, from, 0, key);
        list.splice(from, 0, row);
      },
    });
  }

  /**
   * Tab-separated lines pasted into a table cell: fills the cells from there rightwards and downwards, adding
   * rows when the block runs past the last one; one undo step.
   */
  function pasteBlock(scope: DataObject, field: TemplateField, rowIndex: number, columnIndex: number, block: string[][]): void {
    const columns = field.fields ?? [];
    history.transaction(() => {
      const list = listOf(scope, field);
      block.forEach((cells, r) => {
        const at = rowIndex + r;
        if (at >= list.length) spliceRows(list, list.length, 0, [emptyRow(field)]);
        const row = list[at];
        if (typeof row !== 'object' || row === null) return;
        cells.forEach((cell, c) => {
          const column = columns[columnIndex + c];
          if (column) setField(row as DataObject, column.name, cell);
        });
      });
    });
    historyTick.value++;
  }

  /** Replaces the whole data object (JSON view, loaded file, Reset); the form follows. */
  function replaceData(next: DataObject, group: string | null = null): number {
    const before = data.value;
    return apply({ redo: () => (data.value = next), undo: () => (data.value = before) }, group);
  }

  function resetData(): void {
    if (!template.value) return;
    const step = replaceData(initialData(template.value, fields.value));
    jsonError.value = '';
    announce('Data reset to the sample.', step);
  }

  // ---- template ----

  let chooseTicket = 0;
  async function choose(uuid: string): Promise<void> {
    if (template.value?.uuid === uuid) return;
    const ticket = ++chooseTicket;
    void drafts.flush(); // the template being left keeps its last keystroke
    const record = await api.getTemplate(uuid);
    let draft = null;
    try {
      draft = await loadDraft(uuid);
    } catch (err) {
      draftWarning.value = `Drafts are unavailable in this window (${err instanceof Error ? err.message : String(err)}): edits are kept only while this page stays open.`;
    }
    if (ticket !== chooseTicket) return; // another template was chosen meanwhile
    restoring = true;
    try {
      template.value = record;
      fields.value = parseFields(record);
      let restored: DataObject | null = null;
      if (draft) {
        try {
          const parsed: unknown = JSON.parse(draft.json);
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) restored = parsed as DataObject;
        } catch {
          restored = null; // a damaged draft: start from the sample
        }
      }
      // A draft from an older version of the template keeps every key (unused ones are listed, never dropped).
      data.value = restored ? fillMissing(fields.value, restored) : initialData(record, fields.value);
      test.value = restored ? Boolean(draft?.test) : false;
      history.clear();
      historyTick.value++;
      revision.value++;
      notice.value = null;
      jsonError.value = '';
      result.value = null;
      error.value = null;
    } finally {
      restoring = false;
    }
  }

  function clear(): void {
    void drafts.flush();
    chooseTicket++;
    template.value = null;
    fields.value = [];
    data.value = {};
    result.value = null;
    history.clear();
    historyTick.value++;
    notice.value = null;
  }

  // ---- generate ----

  const canGenerate = computed(() => Boolean(template.value) && !generating.value && !jsonError.value);

  /** One press, one document: locked while it runs, and sent with its own Idempotency-Key. */
  async function generate(): Promise<DocumentRecord | null> {
    if (!template.value || generating.value || jsonError.value) return null;
    generating.value = true;
    error.value = null;
    result.value = null;
    try {
      const request = { template_id: template.value.uuid, data: clonePlain(data.value), test: test.value };
      result.value = await api.createDocument(request, { idempotencyKey: randomKey() });
      return result.value;
    } catch (err) {
      error.value = err;
      return null;
    } finally {
      generating.value = false;
    }
  }

  return {
    template,
    fields,
    data,
    test,
    generating,
    result,
    error,
    jsonError,
    notice,
    noticeUndoable,
    draftWarning,
    revision,
    problems,
    unused,
    canUndo,
    canRedo,
    canGenerate,
    choose,
    clear,
    setField,
    addRow,
    removeRow,
    moveRow,
    pasteBlock,
    replaceData,
    resetData,
    undo,
    redo,
    undoNotice,
    generate,
  };
});
