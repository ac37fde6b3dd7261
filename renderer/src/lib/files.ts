/** Local files in and out of the GUI: reading a picked file, saving text or bytes through a download. */

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(`Could not read the file: ${reader.error?.message ?? 'unknown error'}`));
    reader.readAsDataURL(file);
  });
}

export function readAsText(file: Blob): Promise<string> {
  return file.text();
}

/** Saves a blob under a name (the browser's download, or the desktop shell's save dialog through it). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the download a moment to start before the URL is released.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function saveText(text: string, filename: string, type = 'application/json'): void {
  saveBlob(new Blob([text], { type }), filename);
}

/** "Invoice 2026.docx" → "Invoice 2026"; used to name saved data files. */
export function baseName(filename: string): string {
  return filename.replace(/\.[^.]+$/, '');
}
