/**
 * Template files handed to the app by the OS: on the command line (Windows, Linux, a second instance) or by
 * macOS's 'open-file' event, which may fire before the service is up — hence the queue.
 */
import fs from 'node:fs';
import path from 'node:path';

/** `.docloom` is docloom's own template file (a JSON template; see docs/desktop.md); .docx/.json are accepted too. */
export const TEMPLATE_EXTENSIONS: readonly string[] = ['.docloom', '.docx', '.json'];

export function isTemplateFileName(fileName: string): boolean {
  return TEMPLATE_EXTENSIONS.includes(path.extname(fileName).toLowerCase());
}

/**
 * Existing template files among command-line arguments, resolved against the launching process's folder.
 * Switches (`--x`), the app's own path (`.`, main.js) and anything that is not an existing file are skipped.
 * Only `.docloom` and `.docx` are taken from argv: a `.json` argument is far more likely to be something else.
 */
export function templateFilesFromArgv(argv: readonly string[], workingDirectory: string): string[] {
  const found: string[] = [];
  for (const arg of argv.slice(1)) {
    if (arg.startsWith('-')) continue;
    const ext = path.extname(arg).toLowerCase();
    if (ext !== '.docloom' && ext !== '.docx') continue;
    const absolute = path.resolve(workingDirectory, arg);
    try {
      if (fs.statSync(absolute).isFile() && !found.includes(absolute)) found.push(absolute);
    } catch {
      // Not a file: not ours to open.
    }
  }
  return found;
}

/** Holds files until the app can import them, then passes each on exactly once. */
export class OpenFileQueue {
  private pending: string[] = [];
  private handler: ((filePath: string) => void) | null = null;

  add(filePath: string): void {
    if (this.handler) this.handler(filePath);
    else this.pending.push(filePath);
  }

  /** From now on files go straight to `handler`; the ones waiting go first. */
  drainTo(handler: (filePath: string) => void): void {
    this.handler = handler;
    for (const filePath of this.pending.splice(0)) handler(filePath);
  }
}
