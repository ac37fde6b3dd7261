/** Template files handed over by the OS (electron/open-files.ts), with real files. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isTemplateFileName, OpenFileQueue, templateFilesFromArgv } from '../../electron/open-files.js';

describe('files from the OS', () => {
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-electron-open-'));
    for (const name of ['Invoice.docloom', 'Letter.DOCX', 'data.json', 'notes.txt']) fs.writeFileSync(path.join(tmp, name), 'x');
    fs.mkdirSync(path.join(tmp, 'folder.docloom'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('picks existing .docloom/.docx files from a command line, resolved against its folder', () => {
    const argv = ['/opt/docloom/docloom', '.', '--flag=1', 'Invoice.docloom', path.join(tmp, 'Letter.DOCX'), 'data.json', 'notes.txt', 'folder.docloom', 'gone.docx', 'Invoice.docloom'];
    assert.deepEqual(templateFilesFromArgv(argv, tmp), [path.join(tmp, 'Invoice.docloom'), path.join(tmp, 'Letter.DOCX')]);
  });

  it('ignores the executable itself', () => {
    const exe = path.join(tmp, 'Invoice.docloom');
    assert.deepEqual(templateFilesFromArgv([exe], tmp), []);
  });

  it('knows which names are templates', () => {
    assert.equal(isTemplateFileName('a.docloom'), true);
    assert.equal(isTemplateFileName('a.JSON'), true);
    assert.equal(isTemplateFileName('a.pdf'), false);
  });

  it('holds files until the app is ready, then passes each on once, in order', () => {
    const queue = new OpenFileQueue();
    const seen: string[] = [];
    queue.add('/a.docloom');
    queue.add('/b.docx');
    queue.drainTo((file) => seen.push(file));
    queue.add('/c.docloom');
    assert.deepEqual(seen, ['/a.docloom', '/b.docx', '/c.docloom']);
  });
});
