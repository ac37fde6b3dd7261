/**
 * Settings the GUI changes while the service runs (GET/PUT /api/settings, docs/api.md). Each falls back to the
 * configuration until it is first set; a change applies to the next document or preview, no restart needed.
 *
 * The renders read the setting synchronously (once per job) from a copy kept here: the copy is loaded at start and
 * replaced by every update through this instance. Instances sharing a database (docs/team-server.md) also reload it
 * every SHARED_RELOAD_MS, so a change made through another instance applies here within that time; GET
 * /api/settings always reads the store.
 */
import type { SettingsRepo, StoredSettings } from '../store/repositories.js';
import { Violations } from './errors.js';
import { parseFlag } from './tokens.js';

/** How often an instance on a shared database reloads the settings another instance may have changed. */
export const SHARED_RELOAD_MS = 2_000;

/** As the API shows them. */
export interface Settings {
  /** Image URLs may reach loopback and the local network (CONTRACT.md §9; off by default). */
  allow_private_network: boolean;
}

export class SettingsService {
  #stored: Readonly<StoredSettings> = {};
  #timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly repo: SettingsRepo,
    private readonly defaults: Settings,
  ) {}

  /** Loads the stored settings; `shared` (a database other instances write) also reloads them on a timer. */
  static async open(repo: SettingsRepo, defaults: Settings, shared = false): Promise<SettingsService> {
    const service = new SettingsService(repo, defaults);
    service.#stored = await repo.get();
    if (shared) {
      service.#timer = setInterval(() => {
        repo.get().then((s) => (service.#stored = s), () => undefined);
      }, SHARED_RELOAD_MS);
      service.#timer.unref();
    }
    return service;
  }

  #settings(stored: Readonly<StoredSettings>): Settings {
    return { allow_private_network: stored.allow_private_network ?? this.defaults.allow_private_network };
  }

  /** As stored now (read from the store, so another instance's change shows at once). */
  async current(): Promise<Settings> {
    this.#stored = await this.repo.get();
    return this.#settings(this.#stored);
  }

  /** The setting as last loaded (see the comment at the top). */
  allowPrivateNetwork(): boolean {
    return this.#settings(this.#stored).allow_private_network;
  }

  /** Validates the fields (allow_private_network is required) and persists them; returns the new settings. */
  async update(fields: Record<string, unknown>): Promise<Settings> {
    const v = new Violations();
    const raw = fields.allow_private_network;
    let allow: boolean | undefined;
    if (raw === undefined || raw === null || raw === '') {
      v.add('allow_private_network', 'The allow private network field is required.');
    } else {
      allow = parseFlag(raw);
      if (allow === undefined) v.add('allow_private_network', 'The allow private network field must be true or false.');
    }
    v.throwIfAny();
    this.#stored = await this.repo.update({ allow_private_network: allow });
    return this.#settings(this.#stored);
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
