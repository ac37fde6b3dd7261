/**
 * The desktop's file flows (electron/actions.ts, service/client.ts) against a real service: File → Import
 * Template… uploads what the open dialog returns; saving a document writes it where the save dialog says.
 * The dialogs are fakes (they are Electron's); the HTTP, the service and the files are real.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importTemplateFile, importTemplateInteractively, saveDocumentInteractively, type Dialogs } from '../../electron/actions.js';
import { ServiceClient, ServiceRequestError, uploadFileName } from '../../electron/service/client.js';
import { pdfText } from '../helpers/pdf.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ROOT } from './helpers/node-fork.js';

const SAMPLES = path.join(ROOT, 'resources', 'templates');

interface FakeDialogs extends Dialogs {
  openAnswers: Array<{ canceled: boolean; filePaths: string[] }>;
  saveAnswers: Array<{ canceled: boolean; filePath?: string }>;
  shown: Array<{ kind: string; options?: unknown; title?: string; message?: string }>;
}

function fakeDialogs(): FakeDialogs {
  const dialogs: FakeDialogs = {
    openAnswers: [],
    saveAnswers: [],
    shown: [],
    async showOpenDialog(options) {
      dialogs.shown.push({ kind: 'open', options });
      return dialogs.openAnswers.shift() ?? { canceled: true, filePaths: [] };
    },
    async showSaveDialog(options) {
      dialogs.shown.push({ kind: 'save', options });
      return dialogs.saveAnswers.shift() ?? { canceled: true };
    },
    showError(title, message) {
      dialogs.shown.push({ kind: 'error', title, message });
    },
  };
  return dialogs;
}

describe('desktop file flows (real service)', () => {
  let server: TestServer;
  let client: ServiceClient;
  let tmp: string;

  before(async () => {
    server = await startTestServer();
    client = new ServiceClient(server.url, server.token);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-electron-actions-'));
  });
  after(async () => {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function templateCount(): Promise<number> {
    const body = (await (await server.api('/api/template')).json()) as { templates: { total: number } };
    return body.templates.total;
  }

  it('uploads a .docloom file picked in the open dialog (as <name>.json)', async () => {
    const file = path.join(tmp, 'Letter.docloom');
    fs.copyFileSync(path.join(SAMPLES, 'letter.json'), file);
    const dialogs = fakeDialogs();
    dialogs.openAnswers.push({ canceled: false, filePaths: [file] });

    const template = await importTemplateInteractively(client, dialogs);
    assert.ok(template, `imported; dialogs: ${JSON.stringify(dialogs.shown)}`);
    assert.equal(dialogs.shown[0]!.kind, 'open');
    const stored = (await (await server.api(`/api/template/${template.uuid}`)).json()) as { template: { original_filename: string; name: string } };
    assert.equal(stored.template.original_filename, 'Letter.json');
    assert.equal(stored.template.name, template.name);
  });

  it('does nothing when the open dialog is cancelled', async () => {
    const before = await templateCount();
    const dialogs = fakeDialogs();
    assert.equal(await importTemplateInteractively(client, dialogs), null);
    assert.equal(await templateCount(), before);
  });

  it('shows the service\'s own reason when a file is refused', async () => {
    const broken = path.join(tmp, 'broken.docx');
    fs.writeFileSync(broken, 'this is not a zip file');
    const before = await templateCount();
    const dialogs = fakeDialogs();
    assert.equal(await importTemplateFile(client, dialogs, broken), null);
    const error = dialogs.shown.find((entry) => entry.kind === 'error');
    assert.equal(error?.title, 'Could not import broken.docx');
    assert.ok(error?.message && error.message.length > 10 && !/HTTP \d+\)$/.test(error.message), `a real message: ${error?.message}`);
    assert.equal(await templateCount(), before);
  });

  describe('saving a document', () => {
    let documentId: number;
    let outputFilename: string;

    before(async () => {
      const upload = await client.uploadTemplate(path.join(SAMPLES, 'letter.json'));
      const response = await server.api('/api/document', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          template_id: upload.uuid,
          data: JSON.parse(fs.readFileSync(path.join(SAMPLES, 'letter.data.json'), 'utf8')),
          output_filename: 'Letter to Okafor',
        }),
      });
      const body = (await response.json()) as { document: { id: number; status: string; output_filename: string } };
      assert.equal(response.status, 201, JSON.stringify(body));
      assert.equal(body.document.status, 'completed');
      documentId = body.document.id;
      outputFilename = body.document.output_filename;
    });

    it('writes the PDF where the user chose, offering the document\'s name in the Downloads folder', async () => {
      const downloads = path.join(tmp, 'Downloads');
      fs.mkdirSync(downloads);
      const target = path.join(tmp, 'chosen', 'My letter.pdf');
      fs.mkdirSync(path.dirname(target));
      const dialogs = fakeDialogs();
      dialogs.saveAnswers.push({ canceled: false, filePath: target });

      const saved = await saveDocumentInteractively(client, dialogs, { documentId, suggestedName: undefined, defaultFolder: downloads });
      assert.deepEqual(saved, { path: target, size: fs.statSync(target).size });
      const offered = dialogs.shown[0]!.options as { defaultPath: string; filters: Array<{ extensions: string[] }> };
      assert.equal(path.dirname(offered.defaultPath), downloads);
      assert.equal(path.basename(offered.defaultPath), outputFilename.endsWith('.pdf') ? outputFilename : `${outputFilename}.pdf`);
      assert.deepEqual(offered.filters[0]!.extensions, ['pdf']);

      const bytes = fs.readFileSync(target);
      assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
      assert.match(pdfText(bytes), /Okafor/);
      assert.deepEqual(fs.readdirSync(path.dirname(target)), ['My letter.pdf'], 'no partial file left');
    });

    it('uses the GUI\'s suggested name when it gives one', async () => {
      const dialogs = fakeDialogs();
      await saveDocumentInteractively(client, dialogs, { documentId, suggestedName: 'Okafor.pdf', defaultFolder: tmp });
      assert.equal((dialogs.shown[0]!.options as { defaultPath: string }).defaultPath, path.join(tmp, 'Okafor.pdf'));
    });

    it('writes nothing when the save dialog is cancelled', async () => {
      const folder = path.join(tmp, 'cancelled');
      fs.mkdirSync(folder);
      const dialogs = fakeDialogs();
      assert.equal(await saveDocumentInteractively(client, dialogs, { documentId, suggestedName: undefined, defaultFolder: folder }), null);
      assert.deepEqual(fs.readdirSync(folder), []);
    });

    it('an unknown document fails with the service\'s 404 before any dialog opens', async () => {
      const dialogs = fakeDialogs();
      await assert.rejects(
        saveDocumentInteractively(client, dialogs, { documentId: 999_999, suggestedName: undefined, defaultFolder: tmp }),
        (error: unknown) => error instanceof ServiceRequestError && error.status === 404 && /not found/i.test(error.message),
      );
      assert.deepEqual(dialogs.shown, []);
    });

    it('a folder that cannot be written leaves no partial file and says why', async () => {
      const target = path.join(tmp, 'no-such-folder', 'x.pdf');
      const dialogs = fakeDialogs();
      dialogs.saveAnswers.push({ canceled: false, filePath: target });
      await assert.rejects(
        saveDocumentInteractively(client, dialogs, { documentId, suggestedName: undefined, defaultFolder: tmp }),
        /ENOENT/,
      );
      assert.equal(fs.existsSync(path.dirname(target)), false);
    });
  });

  it('a wrong token is reported, not crashed on', async () => {
    const stranger = new ServiceClient(server.url, '1|wrong');
    await assert.rejects(stranger.getDocument(1), (error: unknown) => error instanceof ServiceRequestError && error.status === 401);
  });

  it('upload names: .docloom goes up as .json, others unchanged', () => {
    assert.equal(uploadFileName('/x/Invoice.docloom'), 'Invoice.json');
    assert.equal(uploadFileName('/x/Invoice.DOCLOOM'), 'Invoice.json');
    assert.equal(uploadFileName('/x/Letter.docx'), 'Letter.docx');
  });
});
