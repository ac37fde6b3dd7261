/**
 * Where things are, in development (`npm start`: everything under the project folder) and in a packaged app
 * (code and GUI inside app.asar; fonts, sample templates and docs beside it in the resources folder, copied
 * there by electron-builder's extraResources), and where the user's data goes (the OS's per-user app data
 * folder: ~/.config/docloom, ~/Library/Application Support/docloom, %APPDATA%\docloom).
 */
import path from 'node:path';
import { discoveryFilePath } from './discovery.js';

export interface AppLocations {
  /** app.getAppPath(): the project folder, or …/resources/app.asar when packaged. */
  appPath: string;
  /** process.resourcesPath: the packaged app's resources folder. */
  resourcesPath: string;
  isPackaged: boolean;
  /** app.getPath('userData'). */
  userDataDir: string;
  /** The folder of the compiled main.js (dist/electron). */
  electronDir: string;
}

export interface AppPaths {
  rendererDir: string;
  preload: string;
  serviceEntry: string;
  /** fonts/ and templates/ for the service (DOCLOOM_RESOURCES_DIR). */
  resourcesDir: string;
  docsDir: string;
  windowIcon: string;
  /** The service's store and files. Kept apart from Chromium's own caches in userData. */
  dataDir: string;
  discoveryFile: string;
}

export function resolveAppPaths(locations: AppLocations): AppPaths {
  const { appPath, resourcesPath, isPackaged, userDataDir, electronDir } = locations;
  const outside = isPackaged ? resourcesPath : appPath;
  return {
    rendererDir: path.join(appPath, 'dist', 'renderer'),
    preload: path.join(electronDir, 'preload.cjs'),
    serviceEntry: path.join(electronDir, 'service-entry.js'),
    resourcesDir: path.join(outside, 'resources'),
    docsDir: path.join(outside, 'docs'),
    windowIcon: path.join(appPath, 'resources', 'icons', '512x512.png'),
    dataDir: path.join(userDataDir, 'data'),
    discoveryFile: discoveryFilePath(userDataDir),
  };
}
