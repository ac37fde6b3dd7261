/** Where the app looks for things (electron/app-paths.ts) and how it configures the service (service/environment.ts). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { DEFAULT_PORT } from '../../server/config.js';
import { resolveAppPaths } from '../../electron/app-paths.js';
import { serviceEnvironment } from '../../electron/service/environment.js';

describe('app paths', () => {
  const userDataDir = path.resolve('/home/u/.config/docloom');

  it('from source: everything under the project folder', () => {
    const paths = resolveAppPaths({
      appPath: path.resolve('/src/docloom'),
      resourcesPath: path.resolve('/usr/lib/electron/resources'),
      isPackaged: false,
      userDataDir,
      electronDir: path.resolve('/src/docloom/dist/electron'),
    });
    assert.equal(paths.rendererDir, path.resolve('/src/docloom/dist/renderer'));
    assert.equal(paths.preload, path.resolve('/src/docloom/dist/electron/preload.cjs'));
    assert.equal(paths.serviceEntry, path.resolve('/src/docloom/dist/electron/service-entry.js'));
    assert.equal(paths.resourcesDir, path.resolve('/src/docloom/resources'));
    assert.equal(paths.dataDir, path.join(userDataDir, 'data'));
    assert.equal(paths.discoveryFile, path.join(userDataDir, 'docloom.json'));
  });

  it('packaged: code and GUI in app.asar, fonts/templates/docs beside it', () => {
    const resourcesPath = path.resolve('/opt/docloom/resources');
    const appPath = path.join(resourcesPath, 'app.asar');
    const paths = resolveAppPaths({ appPath, resourcesPath, isPackaged: true, userDataDir, electronDir: path.join(appPath, 'dist', 'electron') });
    assert.equal(paths.rendererDir, path.join(appPath, 'dist', 'renderer'));
    assert.equal(paths.resourcesDir, path.join(resourcesPath, 'resources'));
    assert.equal(paths.docsDir, path.join(resourcesPath, 'docs'));
    assert.equal(paths.windowIcon, path.join(appPath, 'resources', 'icons', '512x512.png'));
    assert.equal(paths.dataDir, path.join(userDataDir, 'data'));
  });
});

describe('service environment', () => {
  const options = { dataDir: '/data', resourcesDir: '/res', appOrigin: 'docloom://app' };

  it('sets the data folder, resources, the fixed default port and the GUI origin', () => {
    const env = serviceEnvironment({ PATH: '/bin' }, options);
    assert.equal(env.PATH, '/bin');
    assert.equal(env.DOCLOOM_DATA_DIR, '/data');
    assert.equal(env.DOCLOOM_RESOURCES_DIR, '/res');
    assert.equal(env.DOCLOOM_PORT, String(DEFAULT_PORT));
    assert.equal(env.DOCLOOM_CORS_ORIGINS, 'docloom://app');
  });

  it('keeps what the user chose, except the data folder, which belongs to the app', () => {
    const env = serviceEnvironment(
      { DOCLOOM_PORT: '8000', DOCLOOM_CORS_ORIGINS: 'http://localhost:5173, docloom://app', DOCLOOM_DATA_DIR: '/elsewhere', DOCLOOM_RESOURCES_DIR: '/mine' },
      options,
    );
    assert.equal(env.DOCLOOM_PORT, '8000');
    assert.equal(env.DOCLOOM_CORS_ORIGINS, 'http://localhost:5173,docloom://app');
    assert.equal(env.DOCLOOM_DATA_DIR, '/data');
    assert.equal(env.DOCLOOM_RESOURCES_DIR, '/mine');
  });
});
