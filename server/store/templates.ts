/** Template records (templates.json) and their files (templates/<uuid>/v<N>.<ext>). */
import fs from 'node:fs';
import type { Layout } from './layout.js';
import type { TemplateKind, TemplateRecord } from './records.js';
import { SharedJsonFile } from './shared-file.js';
import { fsyncDirSync, writeFileAtomicSync } from './json-file.js';

interface TemplatesFile {
  last_id: number;
  templates: TemplateRecord[];
}

export interface TemplateListQuery {
  /** Case-insensitive substring of the name. */
  name?: string;
  offset: number;
  limit: number;
}

export class TemplateRepository {
  readonly #file: SharedJsonFile<TemplatesFile>;
  readonly #layout: Layout;
  #byUuid = new Map<string, TemplateRecord>();
  #byId = new Map<number, TemplateRecord>();

  constructor(layout: Layout) {
    this.#layout = layout;
    this.#file = new SharedJsonFile<TemplatesFile>(layout.templates, () => ({ last_id: 0, templates: [] }));
    this.#file.onLoad = (data) => {
      this.#byUuid = new Map(data.templates.map((t) => [t.uuid, t]));
      this.#byId = new Map(data.templates.map((t) => [t.id, t]));
    };
  }

  getByUuid(uuid: string): TemplateRecord | undefined {
    this.#file.refresh();
    return this.#byUuid.get(uuid);
  }

  getById(id: number): TemplateRecord | undefined {
    this.#file.refresh();
    return this.#byId.get(id);
  }

  /** Every record (reconcile at start). Do not mutate it. */
  all(): readonly TemplateRecord[] {
    return this.#file.data.templates;
  }

  count(): number {
    return this.#file.data.templates.length;
  }

  /** Newest first. */
  list(query: TemplateListQuery): { total: number; items: TemplateRecord[] } {
    const all = this.#file.data.templates;
    const needle = query.name?.toLowerCase();
    const matching: TemplateRecord[] = [];
    for (let i = all.length - 1; i >= 0; i--) {
      if (needle === undefined || all[i].name.toLowerCase().includes(needle)) matching.push(all[i]);
    }
    return { total: matching.length, items: matching.slice(query.offset, query.offset + query.limit) };
  }

  /**
   * Writes the file first, then the record, so a record never points at a missing file. Changes to the records
   * and to the template folders run under the data dir's write.lock (the CLI's `import` may run at the same time).
   */
  create(input: Omit<TemplateRecord, 'id' | 'version'>, file: Uint8Array): TemplateRecord {
    return this.#file.lock.run(() => {
      try {
        this.#writeFile(input.uuid, 1, input.kind, file);
        return this.#file.update((data) => {
          const record: TemplateRecord = { ...input, id: data.last_id + 1, version: 1 };
          data.last_id = record.id;
          data.templates.push(record);
          return record;
        });
      } catch (err) {
        // Not stored (a full disk…): no folder is left behind — unless the record did land (only the folder's
        // fsync after the rename failed), which must keep its file.
        if (!this.getByUuid(input.uuid)) fs.rmSync(this.#layout.templateDir(input.uuid), { recursive: true, force: true });
        throw err;
      }
    });
  }

  /**
   * Changes settings and, with `file`, stores the new file as the next version. The previous version's file is
   * kept (a queued async render may still read it); older ones are removed.
   */
  update(uuid: string, patch: Partial<Omit<TemplateRecord, 'id' | 'uuid' | 'created_at'>>, file?: Uint8Array): TemplateRecord | undefined {
    return this.#file.lock.run(() => this.#update(uuid, patch, file));
  }

  #update(uuid: string, patch: Partial<Omit<TemplateRecord, 'id' | 'uuid' | 'created_at'>>, file?: Uint8Array): TemplateRecord | undefined {
    const current = this.getByUuid(uuid);
    if (!current) return undefined;
    const version = patch.version ?? current.version;
    const kind = patch.kind ?? current.kind;
    let updated: TemplateRecord | undefined;
    try {
      if (file) this.#writeFile(uuid, version, kind, file);
      updated = this.#file.update((data) => {
        const index = data.templates.findIndex((t) => t.uuid === uuid);
        if (index < 0) return undefined;
        const record: TemplateRecord = { ...data.templates[index], ...patch };
        data.templates[index] = record;
        return record;
      });
    } catch (err) {
      // Not stored (a full disk…): the new version's file goes; the template stays as it was.
      // (Unless the record did land, as above.)
      if (file && version !== current.version && this.getByUuid(uuid)?.version !== version) {
        fs.rmSync(this.#layout.templateFile(uuid, version, kind), { force: true });
      }
      throw err;
    }
    if (updated && file) this.#removeOldVersions(uuid, updated.version, updated.kind);
    return updated;
  }

  remove(uuid: string): boolean {
    return this.#file.lock.run(() => {
      const removed = this.#file.update((data) => {
        const index = data.templates.findIndex((t) => t.uuid === uuid);
        if (index < 0) return false;
        data.templates.splice(index, 1);
        return true;
      });
      if (removed) fs.rmSync(this.#layout.templateDir(uuid), { recursive: true, force: true });
      return removed;
    });
  }

  /** Path of the template's current file (for the render workers, which read and cache it themselves). */
  filePath(record: Pick<TemplateRecord, 'uuid' | 'version' | 'kind'>): string {
    return this.#layout.templateFile(record.uuid, record.version, record.kind);
  }

  readFile(record: Pick<TemplateRecord, 'uuid' | 'version' | 'kind'>): Buffer {
    return fs.readFileSync(this.filePath(record));
  }

  #writeFile(uuid: string, version: number, kind: TemplateKind, bytes: Uint8Array): void {
    const made = fs.mkdirSync(this.#layout.templateDir(uuid), { recursive: true });
    // A new template folder must itself be durable before the record that names it is written.
    if (made !== undefined) fsyncDirSync(this.#layout.templateFilesDir);
    // The start-up reconcile removes folders without a record under the same write.lock, so this one stays.
    writeFileAtomicSync(this.#layout.templateFile(uuid, version, kind), bytes, { tmpDir: this.#layout.tmp });
  }

  #removeOldVersions(uuid: string, keep: number, kind: TemplateKind): void {
    const keepNames = new Set([`v${keep}.${kind}`, `v${keep - 1}.json`, `v${keep - 1}.docx`]);
    let names: string[];
    try {
      names = fs.readdirSync(this.#layout.templateDir(uuid));
    } catch {
      return;
    }
    for (const name of names) if (!keepNames.has(name)) fs.rmSync(`${this.#layout.templateDir(uuid)}/${name}`, { force: true });
  }
}
