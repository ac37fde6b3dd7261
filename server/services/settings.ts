/**
 * Settings the GUI changes while the service runs (GET/PUT /api/settings, docs/api.md). Each falls back to the
 * configuration until it is first set; a change applies to the next document or preview, no restart needed.
 */
import type { SettingsRepository } from '../store/index.js';
import { Violations } from './errors.js';
import { parseFlag } from './tokens.js';

/** As the API shows them. */
export interface Settings {
  /** Image URLs may reach loopback and the local network (CONTRACT.md §9; off by default). */
  allow_private_network: boolean;
}

export class SettingsService {
  constructor(
    private readonly repo: SettingsRepository,
    private readonly defaults: Settings,
  ) {}

  current(): Settings {
    const stored = this.repo.get();
    return { allow_private_network: stored.allow_private_network ?? this.defaults.allow_private_network };
  }

  allowPrivateNetwork(): boolean {
    return this.current().allow_private_network;
  }

  /** Validates the fields (allow_private_network is required) and persists them; returns the new settings. */
  update(fields: Record<string, unknown>): Settings {
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
    this.repo.update({ allow_private_network: allow });
    return this.current();
  }
}
