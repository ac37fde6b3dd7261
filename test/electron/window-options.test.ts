/** The window's web preferences and the pages' CSP (electron/security/window-options.ts, csp.ts). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mainWindowOptions } from '../../electron/security/window-options.js';
import { assertLoopbackOrigin, buildContentSecurityPolicy } from '../../electron/security/csp.js';

const base = {
  preloadPath: '/app/dist/electron/preload.cjs',
  iconPath: '/app/resources/icons/512x512.png',
  apiBaseUrl: 'http://127.0.0.1:7463',
  appVersion: '0.1.0',
  isDevelopment: false,
};

describe('main window options', () => {
  it('turn on every isolation the checklist asks for', () => {
    const prefs = mainWindowOptions(base).webPreferences!;
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.nodeIntegrationInWorker, false);
    assert.equal(prefs.nodeIntegrationInSubFrames, false);
    assert.equal(prefs.webSecurity, true);
    assert.equal(prefs.allowRunningInsecureContent, false);
    assert.equal(prefs.experimentalFeatures, false);
    assert.equal(prefs.webviewTag, false);
    assert.equal(prefs.navigateOnDragDrop, false);
    assert.equal(prefs.devTools, false);
    assert.equal(prefs.preload, base.preloadPath);
  });

  it('hand the preload the API address and version as switches, and never the token', () => {
    const options = mainWindowOptions(base);
    assert.deepEqual(options.webPreferences!.additionalArguments, [
      '--docloom-api-base-url=http://127.0.0.1:7463',
      '--docloom-app-version=0.1.0',
    ]);
    assert.doesNotMatch(JSON.stringify(options), /token|\|/i);
    assert.equal(options.show, false, 'shown once ready, never blank');
  });

  it('allow DevTools only when running from source', () => {
    assert.equal(mainWindowOptions({ ...base, isDevelopment: true }).webPreferences!.devTools, true);
  });

  it('refuse an API address that is not a loopback http origin', () => {
    for (const bad of ['http://example.org:7463', 'http://127.0.0.1:7463/api', "http://127.0.0.1:1; script-src 'unsafe-inline'", 'file:///x']) {
      assert.throws(() => mainWindowOptions({ ...base, apiBaseUrl: bad }), /not a loopback http origin/, bad);
    }
  });
});

describe('content security policy', () => {
  const policy = buildContentSecurityPolicy('http://127.0.0.1:7463');
  const directives = new Map(policy.split('; ').map((part) => [part.split(' ')[0]!, part.split(' ').slice(1)]));

  it('denies by default and allows scripts only from the bundle (no eval, no inline script)', () => {
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('script-src'), ["'self'"]);
    assert.ok(!policy.includes('eval'));
    assert.deepEqual(directives.get('style-src'), ["'self'", "'unsafe-inline'"], 'inline styles only (pdf.js font rules)');
    assert.deepEqual(directives.get('object-src'), ["'none'"]);
    assert.deepEqual(directives.get('base-uri'), ["'none'"]);
    assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
    assert.deepEqual(directives.get('form-action'), ["'none'"]);
  });

  it('lets the page reach the local API and nothing else remote', () => {
    assert.deepEqual(directives.get('connect-src'), ["'self'", 'http://127.0.0.1:7463']);
    for (const [name, sources] of directives) {
      for (const source of sources) {
        assert.ok(!/^https?:\/\/(?!127\.0\.0\.1:7463$)/.test(source) && source !== '*' && source !== 'https:', `${name} ${source}`);
      }
    }
  });

  it('only takes loopback origins', () => {
    assert.doesNotThrow(() => assertLoopbackOrigin('http://localhost:1'));
    assert.doesNotThrow(() => assertLoopbackOrigin('http://[::1]:65535'));
    assert.throws(() => buildContentSecurityPolicy('https://127.0.0.1:7463'));
  });
});
