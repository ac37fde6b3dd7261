/** One instance per user (electron/single-instance.ts) with a fake `app`; the files on the command line are real. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { claimSingleInstance, focusWindow, type FocusableWindow, type SingleInstanceApp } from '../../electron/single-instance.js';

/** Stands in for Electron's app: the lock is held by whichever fake asked first (like the real per-profile lock). */
class FakeApp implements SingleInstanceApp {
  static lockHolder: FakeApp | null = null;
  quitCalls = 0;
  private listener: ((event: unknown, argv: string[], cwd: string) => void) | null = null;

  requestSingleInstanceLock(): boolean {
    if (FakeApp.lockHolder && FakeApp.lockHolder !== this) {
      return false;
    }
    FakeApp.lockHolder = this;
    return true;
  }
  quit(): void {
    this.quitCalls += 1;
  }
  on(_event: 'second-instance', listener: (event: unknown, argv: string[], cwd: string) => void): this {
    this.listener = listener;
    return this;
  }
  /** What Electron does in the first instance when a second one starts. */
  secondInstanceStarted(argv: string[], cwd: string): void {
    this.listener?.({}, argv, cwd);
  }
}

class FakeWindow implements FocusableWindow {
  minimized = true;
  visible = false;
  focused = false;
  destroyed = false;
  isDestroyed = () => this.destroyed;
  isMinimized = () => this.minimized;
  restore = () => void (this.minimized = false);
  show = () => void (this.visible = true);
  focus = () => void (this.focused = true);
}

describe('single instance', () => {
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-electron-single-'));
    FakeApp.lockHolder = null;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('the first instance keeps running; a second one quits and the first comes to the front with its files', () => {
    const first = new FakeApp();
    const window = new FakeWindow();
    const opened: string[][] = [];
    const isFirst = claimSingleInstance(first, { focusWindow: () => focusWindow(window), openFiles: (files) => opened.push(files) });
    assert.equal(isFirst, true);
    assert.equal(first.quitCalls, 0);

    const second = new FakeApp();
    const isSecond = claimSingleInstance(second, {
      focusWindow: () => assert.fail('the second instance must not show a window'),
      openFiles: () => assert.fail('the second instance must not import'),
    });
    assert.equal(isSecond, false);
    assert.equal(second.quitCalls, 1, 'the second instance asks to quit');

    const template = path.join(tmp, 'Invoice.docloom');
    fs.writeFileSync(template, '{}');
    fs.writeFileSync(path.join(tmp, 'notes.txt'), 'x');
    first.secondInstanceStarted(['/opt/docloom/docloom', '--no-sandbox', 'Invoice.docloom', 'notes.txt', 'missing.docx'], tmp);
    assert.deepEqual(
      { minimized: window.minimized, visible: window.visible, focused: window.focused },
      { minimized: false, visible: true, focused: true },
      'restored, shown and focused',
    );
    assert.deepEqual(opened, [[template]], 'only existing template files, resolved against the second instance\'s folder');
  });

  it('a second launch without files only focuses the window', () => {
    FakeApp.lockHolder = null;
    const first = new FakeApp();
    let focused = 0;
    const opened: string[][] = [];
    claimSingleInstance(first, { focusWindow: () => void (focused += 1), openFiles: (files) => opened.push(files) });
    first.secondInstanceStarted(['/usr/bin/docloom'], tmp);
    assert.equal(focused, 1);
    assert.deepEqual(opened, []);
  });

  it('focusWindow reports when there is no window to focus (so one can be made)', () => {
    assert.equal(focusWindow(null), false);
    const closed = Object.assign(new FakeWindow(), { destroyed: true });
    assert.equal(focusWindow(closed), false);
    assert.equal(closed.focused, false);
  });
});
