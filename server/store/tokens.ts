/** API tokens on disk (tokens.json). Only SHA-256 hashes are kept; see services/tokens.ts for the scheme. */
import type { TokenRecord } from './records.js';
import { SharedJsonFile } from './shared-file.js';

interface TokensFile {
  last_id: number;
  tokens: TokenRecord[];
}

export class TokenRepository {
  readonly #file: SharedJsonFile<TokensFile>;
  #byId = new Map<number, TokenRecord>();

  constructor(file: string) {
    this.#file = new SharedJsonFile<TokensFile>(file, () => ({ last_id: 0, tokens: [] }));
    this.#file.onLoad = (data) => {
      this.#byId = new Map(data.tokens.map((t) => [t.id, t]));
    };
  }

  /** Looks a token up by id (one stat() to notice changes made by the CLI). */
  get(id: number): TokenRecord | undefined {
    this.#file.refresh();
    return this.#byId.get(id);
  }

  list(): readonly TokenRecord[] {
    return this.#file.data.tokens;
  }

  create(input: Omit<TokenRecord, 'id'>): TokenRecord {
    return this.#file.update((data) => {
      const record: TokenRecord = { id: data.last_id + 1, ...input };
      data.last_id = record.id;
      data.tokens.push(record);
      return record;
    });
  }

  /** Records a token's last use (one small atomic write; the caller decides how often). */
  touch(id: number, at: string): void {
    this.#file.update((data) => {
      const record = data.tokens.find((t) => t.id === id);
      if (record) record.last_used_at = at;
    });
  }

  /** Removes every token `drop` picks, in one write (none when it picks none); returns how many. */
  removeWhere(drop: (token: TokenRecord, all: readonly TokenRecord[]) => boolean): number {
    const current = this.list();
    if (!current.some((t) => drop(t, current))) return 0;
    return this.#file.update((data) => {
      const before = data.tokens.length;
      const all = [...data.tokens];
      data.tokens = data.tokens.filter((t) => !drop(t, all));
      return before - data.tokens.length;
    });
  }

  /** Returns false when there was no such token. */
  remove(id: number): boolean {
    return this.#file.update((data) => {
      const index = data.tokens.findIndex((t) => t.id === id);
      if (index < 0) return false;
      data.tokens.splice(index, 1);
      return true;
    });
  }
}
