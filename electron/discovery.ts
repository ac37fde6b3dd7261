/**
 * The discovery file: `docloom.json` in the app data folder tells local tools (scripts, editor plug-ins) where
 * the running app's API is, since the port may differ from the default when that one was taken.
 * Written atomically (temporary file + rename) so a reader never sees half a file; removed on quit, but only if
 * it is still ours (a newer instance may have replaced it). It holds no secret: tools bring their own token.
 */
import fs from 'node:fs';
import path from 'node:path';

export const DISCOVERY_FILE_NAME = 'docloom.json';

export interface DiscoveryInfo {
  /** Origin of the API; the interface's paths (/api/document, …) are relative to it. */
  baseUrl: string;
  /** Process id of the app (its main process). */
  pid: number;
  version: string;
  /** ISO 8601, UTC. */
  startedAt: string;
}

export function discoveryFilePath(appDataDir: string): string {
  return path.join(appDataDir, DISCOVERY_FILE_NAME);
}

export function writeDiscoveryFile(file: string, info: DiscoveryInfo): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o644 });
  fs.renameSync(temporary, file);
}

/** The file's content when it is a well-formed discovery file, else null (missing, unreadable, foreign). */
export function readDiscoveryFile(file: string): DiscoveryInfo | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  const value = parsed as Partial<DiscoveryInfo> | null;
  if (
    !value ||
    typeof value.baseUrl !== 'string' ||
    typeof value.pid !== 'number' ||
    typeof value.version !== 'string' ||
    typeof value.startedAt !== 'string'
  ) {
    return null;
  }
  return { baseUrl: value.baseUrl, pid: value.pid, version: value.version, startedAt: value.startedAt };
}

/** Removes the file if it names process `pid`; returns whether it did. Never throws (runs while quitting). */
export function removeDiscoveryFile(file: string, pid: number): boolean {
  const current = readDiscoveryFile(file);
  if (current && current.pid !== pid) return false;
  try {
    fs.rmSync(file, { force: true });
    return current !== null;
  } catch {
    return false;
  }
}
