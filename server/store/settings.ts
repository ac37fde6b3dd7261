/**
 * Service settings changed at run time (settings.json): the GUI's switches. A key that was never set is absent,
 * so the service falls back to its configuration (DOCLOOM_* variables) for it. Read once at open; only the
 * service writes it (atomically), so the copy in memory is the truth.
 */
import { JsonFileSync } from './json-file.js';

export interface StoredSettings {
  /** Image URLs may reach loopback and the local network (CONTRACT.md §9). */
  allow_private_network?: boolean;
}

export class SettingsRepository {
  readonly #file: JsonFileSync<StoredSettings>;
  #data: StoredSettings;

  constructor(file: string) {
    this.#file = new JsonFileSync<StoredSettings>(file);
    this.#data = this.#file.read() ?? {};
  }

  get(): Readonly<StoredSettings> {
    return this.#data;
  }

  /** Applies `patch` and writes the whole file atomically; memory changes only once the write succeeded. */
  update(patch: StoredSettings): Readonly<StoredSettings> {
    const next = { ...this.#data, ...patch };
    this.#file.write(next);
    this.#data = next;
    return next;
  }
}
