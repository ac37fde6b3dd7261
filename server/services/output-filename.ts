/** Output file names: safe on Windows, macOS and Linux, with the output type's extension. */

// Control characters are unsafe in file names on every system, hence the rule exception.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f<>:"/\\|?*]/g;
const RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;
const MAX_LENGTH = 200;

/** Replaces characters that are unsafe in file names, trims, and appends `.ext` unless already there. */
export function safeOutputFilename(raw: string, ext: string): string {
  let name = raw.normalize('NFC').replace(UNSAFE, '_').replace(/\s+/g, ' ').trim();
  // Windows drops trailing dots and spaces; a leading dot would hide the file on Unix.
  name = name.replace(/[. ]+$/, '').replace(/^\.+/, '');
  const suffix = `.${ext}`;
  if (name.toLowerCase().endsWith(suffix)) name = name.slice(0, -suffix.length).replace(/[. ]+$/, '');
  if (name === '') name = 'document';
  if (RESERVED.test(name)) name = `_${name}`;
  if (name.length > MAX_LENGTH) name = Array.from(name).slice(0, MAX_LENGTH).join('').trim();
  return `${name}${suffix}`;
}
