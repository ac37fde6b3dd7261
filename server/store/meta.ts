/**
 * meta.json: the data dir's schema version and one-time facts. openMeta() upgrades an older layout step by step
 * and refuses a data dir written by a newer docloom (it would not understand its files).
 */
import fs from 'node:fs';
import type { Layout } from './layout.js';
import path from 'node:path';
import { fsyncDirSync, writeFileAtomicSync } from './json-file.js';

export const SCHEMA_VERSION = 1;

export interface Meta {
  schema_version: number;
  created_at: string;
  /** Whether the sample templates were offered (only ever once per data dir). */
  samples_seeded: boolean;
}

interface Upgrade {
  from: number;
  to: number;
  describe: string;
  run(layout: Layout): void;
}

/**
 * Step k upgrades schema k to k+1. Version 0 is a data dir without meta.json: a fresh one, or one that holds only
 * a tokens.json (the CLI may create tokens before the service first runs).
 */
const UPGRADES: Upgrade[] = [
  {
    from: 0,
    to: 1,
    describe: 'create the v1 layout (document shards, file buckets, template folders)',
    run(layout) {
      fs.mkdirSync(layout.documentRecordsDir, { recursive: true });
      fs.mkdirSync(layout.documentFilesDir, { recursive: true });
      fs.mkdirSync(layout.templateFilesDir, { recursive: true });
      fs.mkdirSync(layout.tmp, { recursive: true });
      // The new folders are durable once their parents are synced (the data dir itself is synced by writeMeta).
      fsyncDirSync(path.dirname(layout.documentRecordsDir));
    },
  },
];

export function readMeta(layout: Layout): Meta | null {
  try {
    return JSON.parse(fs.readFileSync(layout.meta, 'utf8')) as Meta;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`docloom: ${layout.meta} is unreadable: ${(err as Error).message}`, { cause: err });
  }
}

export function writeMeta(layout: Layout, meta: Meta): void {
  writeFileAtomicSync(layout.meta, JSON.stringify(meta, null, 2) + '\n');
}

/** Reads meta.json, running upgrade steps as needed. `fresh` is true when the data dir had no meta yet. */
export function openMeta(layout: Layout, log: (line: string) => void): { meta: Meta; fresh: boolean } {
  const existing = readMeta(layout);
  const meta: Meta = existing ?? { schema_version: 0, created_at: new Date().toISOString(), samples_seeded: false };
  if (meta.schema_version > SCHEMA_VERSION) {
    throw new Error(
      `docloom: the data dir ${layout.dataDir} uses store schema ${meta.schema_version}, newer than this docloom understands (${SCHEMA_VERSION}); use a newer docloom`,
    );
  }
  while (meta.schema_version < SCHEMA_VERSION) {
    const step = UPGRADES.find((u) => u.from === meta.schema_version);
    if (!step) throw new Error(`docloom: no upgrade from store schema ${meta.schema_version}`);
    if (existing) log(`store: upgrading schema ${step.from} → ${step.to}: ${step.describe}`);
    step.run(layout);
    meta.schema_version = step.to;
    writeMeta(layout, meta);
  }
  return { meta, fresh: existing === null };
}
