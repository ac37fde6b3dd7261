/**
 * Where the bundled TTF files are read from. Defaults to resources/fonts in the project; the packaged desktop
 * app points it at its own resources folder with setFontsDir() before the first render.
 */
import path from 'node:path';
import { projectRoot } from '../../../config.js';

let fontsDir: string | null = null;
const listeners: Array<() => void> = [];

/** Sets the folder holding the bundled fonts; fonts already read from the old folder are forgotten. */
export function setFontsDir(dir: string): void {
  fontsDir = path.resolve(dir);
  for (const listener of listeners) listener();
}

export function getFontsDir(): string {
  if (fontsDir === null) fontsDir = path.join(projectRoot(), 'resources', 'fonts');
  return fontsDir;
}

/** Lets font caches drop what they read when the folder changes. */
export function onFontsDirChange(listener: () => void): void {
  listeners.push(listener);
}
