/**
 * Steps the GUI tests share, written the way a person works the interface: through labels, roles and the
 * visible words, waiting for states (never for time).
 */
import type { Download, Page } from 'playwright-core';
import fs from 'node:fs/promises';
import type { PageDataTransfer, PageDocument } from './page-dom.js';

// In-page code below runs in the browser (see page-dom.ts).
declare const document: PageDocument;
declare const DataTransfer: { new (): PageDataTransfer };

/** Picks a file through the real button → system file chooser path. */
export async function pickFile(page: Page, buttonName: string | RegExp, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: buttonName }).click()]);
  await chooser.setFiles(file);
}

/** Drops a file on an element as a drag-and-drop from the desktop would. */
export async function dropFile(page: Page, selector: string, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ bytes, name, type }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], name, { type }));
      return transfer;
    },
    { bytes: [...file.buffer], name: file.name, type: file.mimeType },
  );
  await page.dispatchEvent(selector, 'dragenter', { dataTransfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer });
}

/** The text pdf.js put into the preview's text layer, white space collapsed. */
export async function previewText(page: Page, scope = '.pdf-preview'): Promise<string> {
  const text = await page.locator(`${scope} .textLayer`).allTextContents();
  return text.join(' ').replace(/\s+/g, ' ').trim();
}

/** Waits until the rendered preview's text contains every string (and none of `absent`). */
export async function waitForPreview(page: Page, present: string[], absent: string[] = [], timeout = 30_000): Promise<string> {
  await page.waitForFunction(
    ({ present, absent }) => {
      const layers = Array.from(document.querySelectorAll('.pdf-preview .textLayer'));
      const text = layers.map((l) => l.textContent ?? '').join(' ').replace(/\s+/g, ' ');
      return present.every((p) => text.includes(p)) && absent.every((a) => !text.includes(a));
    },
    { present, absent },
    { timeout },
  );
  return previewText(page);
}

export async function downloadBytes(download: Download): Promise<Buffer> {
  const file = await download.path();
  return fs.readFile(file);
}

/** Waits for a short notice ("Settings saved.") in the live region. */
export async function waitForNotice(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('.notices').getByText(text).first().waitFor();
}
