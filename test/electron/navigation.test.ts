/** Navigation, new windows and permission requests (electron/security/navigation.ts, permissions.ts). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyNavigationPolicy,
  decideNavigation,
  type GuardedContents,
  type NavigationEvent,
} from '../../electron/security/navigation.js';
import { applyPermissionPolicy, isPermissionAllowed, type PermissionSession } from '../../electron/security/permissions.js';

describe('decideNavigation', () => {
  const cases: Array<[string, ReturnType<typeof decideNavigation>]> = [
    ['docloom://app/index.html', 'allow'],
    ['docloom://app/index.html#/documents/3', 'allow'],
    ['https://docs.example.org/page', 'open-in-browser'],
    ['http://127.0.0.1:7463/api/document/1/download?signature=x', 'open-in-browser'],
    ['file:///etc/passwd', 'block'],
    ['javascript:alert(1)', 'block'],
    ['data:text/html,<script>alert(1)</script>', 'block'],
    ['docloom://other/index.html', 'block'],
    ['smb://server/share', 'block'],
    ['ms-msdt:/id PCWDiagnostic', 'block'],
    ['mailto:someone@example.org', 'block'],
    ['http://', 'block'],
    ['', 'block'],
  ];
  for (const [url, expected] of cases) {
    it(`${url || '(empty)'} → ${expected}`, () => assert.equal(decideNavigation(url), expected));
  }
});

class FakeContents implements GuardedContents {
  listeners = new Map<string, (event: NavigationEvent) => void>();
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  on(event: string, listener: (event: NavigationEvent) => void): this {
    this.listeners.set(event, listener);
    return this;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  /** Fires an event like Electron; returns whether the page was stopped. */
  fire(name: string, url: string): boolean {
    let prevented = false;
    this.listeners.get(name)!({ url, preventDefault: () => void (prevented = true) });
    return prevented;
  }
}

describe('applyNavigationPolicy', () => {
  function setup(): { contents: FakeContents; opened: string[] } {
    const contents = new FakeContents();
    const opened: string[] = [];
    applyNavigationPolicy(contents, async (url) => void opened.push(url));
    return { contents, opened };
  }

  it('lets the app move between its own pages', () => {
    const { contents, opened } = setup();
    assert.equal(contents.fire('will-navigate', 'docloom://app/index.html'), false);
    assert.deepEqual(opened, []);
  });

  it('stops navigation away from the app; web links go to the OS browser, other schemes nowhere', () => {
    const { contents, opened } = setup();
    assert.equal(contents.fire('will-navigate', 'https://example.org/'), true);
    assert.equal(contents.fire('will-redirect', 'https://example.org/redirected'), true);
    assert.equal(contents.fire('will-navigate', 'file:///etc/passwd'), true);
    assert.equal(contents.fire('will-navigate', 'javascript:alert(1)'), true);
    assert.deepEqual(opened, ['https://example.org/', 'https://example.org/redirected']);
  });

  it('never opens a new window; http(s) targets go to the browser', () => {
    const { contents, opened } = setup();
    assert.deepEqual(contents.openHandler!({ url: 'https://example.org/help' }), { action: 'deny' });
    assert.deepEqual(contents.openHandler!({ url: 'docloom://app/index.html' }), { action: 'deny' });
    assert.deepEqual(contents.openHandler!({ url: 'file:///C:/Windows/System32/calc.exe' }), { action: 'deny' });
    assert.deepEqual(opened, ['https://example.org/help']);
  });

  it('refuses <webview> attachment', () => {
    const { contents } = setup();
    assert.equal(contents.fire('will-attach-webview', 'about:blank'), true);
  });
});

describe('permission requests', () => {
  it('allows only clipboard writes from the app\'s pages', () => {
    assert.equal(isPermissionAllowed('clipboard-sanitized-write', 'docloom://app/index.html'), true);
    assert.equal(isPermissionAllowed('clipboard-sanitized-write', 'https://evil.example/'), false);
    assert.equal(isPermissionAllowed('clipboard-sanitized-write', undefined), false);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen', 'hid', 'serial', 'usb']) {
      assert.equal(isPermissionAllowed(permission, 'docloom://app/index.html'), false, permission);
    }
  });

  it('installs both the request and the check handler on the session', () => {
    let request: Parameters<PermissionSession['setPermissionRequestHandler']>[0] | null = null;
    let check: Parameters<PermissionSession['setPermissionCheckHandler']>[0] | null = null;
    applyPermissionPolicy({
      setPermissionRequestHandler: (handler) => void (request = handler),
      setPermissionCheckHandler: (handler) => void (check = handler),
    });
    const answers: boolean[] = [];
    request!({}, 'media', (granted) => answers.push(granted), { requestingUrl: 'docloom://app/index.html' });
    request!({}, 'clipboard-sanitized-write', (granted) => answers.push(granted), { requestingUrl: 'docloom://app/index.html' });
    assert.deepEqual(answers, [false, true]);
    assert.equal(check!({}, 'geolocation', 'docloom://app', { requestingUrl: 'docloom://app/index.html' }), false);
  });
});
