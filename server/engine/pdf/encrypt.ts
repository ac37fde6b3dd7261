/**
 * PDF open-password encryption. jsPDF's own encryption is RC4 only, so the finished PDF is re-saved through
 * @cantoo/pdf-lib, whose security handler writes AES-256 (revision 6, AESV3). RC4 is never used.
 */
import { PDFDocument } from '@cantoo/pdf-lib';
import { EngineError } from '../errors.js';

/** Encrypts `bytes` so that `password` is needed to open them; every permission is granted once opened. */
export async function encryptPdf(bytes: Uint8Array, password: string): Promise<Uint8Array> {
  if (typeof password !== 'string' || password.length === 0) {
    throw new EngineError('invalid_password', 'The PDF password must be a non-empty string.');
  }
  // PDF 2.0 passwords are UTF-8 (SASLprep) and limited to 127 bytes; a longer one cannot be typed back in.
  if (Buffer.byteLength(password, 'utf8') > 127) {
    throw new EngineError('invalid_password', 'The PDF password must be at most 127 bytes long (UTF-8).');
  }
  // updateMetadata: false keeps the producer, creator and dates the renderer wrote.
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  doc.encrypt({
    userPassword: password,
    // The same password as owner: whoever may open the document may also print and copy it.
    ownerPassword: password,
    algorithm: 'AES-256',
    permissions: {
      printing: 'highResolution',
      modifying: true,
      copying: true,
      annotating: true,
      fillingForms: true,
      contentAccessibility: true,
      documentAssembly: true,
    },
  });
  // Object streams ON: with them off, this pdf-lib version writes the Info dictionary's strings (title, author,
  // dates) encrypted wrongly and readers show garbage (cantoo-scribe/pdf-lib#138; checked in encrypt.test.ts).
  return doc.save({ useObjectStreams: true });
}
