/**
 * The environment the service process starts with. The service reads its settings only from DOCLOOM_*
 * variables (server/config.ts), so the desktop shell configures it the same way a user configures
 * `docloom serve`: data in the per-user app data folder, the bundled resources, the fixed default port, and the
 * GUI's origin allowed by CORS (the window's pages come from docloom://app, the API from http://127.0.0.1).
 * A variable the user set explicitly (say DOCLOOM_PORT) wins, except the data folder, which belongs to the app.
 */
import { DEFAULT_PORT } from '../../server/config.js';

export interface ServiceEnvironmentOptions {
  dataDir: string;
  resourcesDir: string;
  /** Origin of the GUI's pages (docloom://app). */
  appOrigin: string;
}

export function serviceEnvironment(base: NodeJS.ProcessEnv, options: ServiceEnvironmentOptions): NodeJS.ProcessEnv {
  const origins = (base.DOCLOOM_CORS_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!origins.includes(options.appOrigin)) origins.push(options.appOrigin);
  return {
    ...base,
    DOCLOOM_DATA_DIR: options.dataDir,
    DOCLOOM_RESOURCES_DIR: base.DOCLOOM_RESOURCES_DIR || options.resourcesDir,
    DOCLOOM_PORT: base.DOCLOOM_PORT || String(DEFAULT_PORT),
    DOCLOOM_CORS_ORIGINS: origins.join(','),
  };
}
