/**
 * The Electron main process: wiring only. Each decision lives in a plain module beside this file (tested under
 * Node in test/electron/); this file hands them Electron's objects. In order:
 * (pre-ready.ts) app data folder, privileged docloom:// scheme → single-instance lock → (ready) permission and
 * navigation policies → the local service in a utility process → discovery file → IPC bridge → menu → the
 * window → template files from the OS.
 * Quitting stops the service and removes the discovery file first (shutdown.ts).
 */
// First: its side effects must happen before 'ready' (see pre-ready.ts).
import { filesFromOs } from './pre-ready.js';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, protocol, session, shell, utilityProcess } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importTemplateFile, importTemplateInteractively, saveDocumentInteractively, type Dialogs } from './actions.js';
import { resolveAppPaths } from './app-paths.js';
import { createAppProtocolHandler } from './app-protocol.js';
import { APP_ENTRY_URL, APP_HOST, APP_SCHEME, IPC, type DocloomBridge, type ImportedTemplate } from './bridge-api.js';
import { removeDiscoveryFile, writeDiscoveryFile } from './discovery.js';
import { registerBridgeHandlers } from './ipc/register.js';
import { buildMenuTemplate } from './menu.js';
import { templateFilesFromArgv } from './open-files.js';
// Type-only: checks that the preload exposes what the GUI is promised, and brings preload.cts into the build
// (tsconfig.json's include lists *.ts; this import makes tsc emit dist/electron/preload.cjs as well).
import type { ExposedBridge } from './preload.cjs';
import { buildContentSecurityPolicy } from './security/csp.js';
import { applyNavigationPolicy } from './security/navigation.js';
import { applyPermissionPolicy } from './security/permissions.js';
import { mainWindowOptions } from './security/window-options.js';
import { serviceEnvironment } from './service/environment.js';
import { ServiceClient } from './service/client.js';
import { describeExit, startService, type RunningService, type ServiceProcess } from './service/supervisor.js';
import { createShutdown } from './shutdown.js';
import { claimSingleInstance, focusWindow } from './single-instance.js';

const preloadImplementsBridge: ExposedBridge extends DocloomBridge ? true : false = true;
void preloadImplementsBridge;

const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

const paths = resolveAppPaths({
  appPath: app.getAppPath(),
  resourcesPath: process.resourcesPath,
  isPackaged: app.isPackaged,
  userDataDir: app.getPath('userData'),
  electronDir: path.dirname(fileURLToPath(import.meta.url)),
});
const isDevelopment = !app.isPackaged;

let mainWindow: BrowserWindow | null = null;
let service: RunningService | null = null;
let client: ServiceClient | null = null;
const savedPaths = new Set<string>();

const shutdown = createShutdown({
  stopService: async () => {
    await service?.stop();
  },
  removeDiscoveryFile: () => void removeDiscoveryFile(paths.discoveryFile, process.pid),
  quit: () => app.quit(),
});

if (
  claimSingleInstance(app, {
    focusWindow: () => {
      if (!focusWindow(mainWindow) && service) createWindow(service);
    },
    openFiles: (files) => files.forEach((file) => filesFromOs.add(file)),
  })
) {
  for (const file of templateFilesFromArgv(process.argv, process.cwd())) filesFromOs.add(file);
  app.on('before-quit', (event) => shutdown.onBeforeQuit(event));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0 && service) createWindow(service);
  });
  // Ctrl+C in the terminal of `npm start`: quit through the same clean path.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  app.whenReady().then(startApp).catch((error: unknown) => {
    dialog.showErrorBox('docloom could not start', error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
    app.quit();
  });
}

async function startApp(): Promise<void> {
  applyPermissionPolicy(session.defaultSession);
  app.on('web-contents-created', (_event, contents) => {
    applyNavigationPolicy(contents, (url) => shell.openExternal(url));
  });

  if (!fs.existsSync(path.join(paths.rendererDir, 'index.html'))) {
    throw new Error(`The interface is missing (${paths.rendererDir}). Run \`npm run build\` first.`);
  }

  service = await startService({
    fork: forkUtilityProcess,
    entryPath: paths.serviceEntry,
    env: serviceEnvironment(process.env, { dataDir: paths.dataDir, resourcesDir: paths.resourcesDir, appOrigin: APP_ORIGIN }),
  });
  const running = service;
  if (running.fellBack) console.warn(`docloom: the default port was taken; the API is at ${running.url}`);
  running.onUnexpectedExit((code) => {
    dialog.showErrorBox('docloom', `The local service ${describeExit(code)}. docloom will close; start it again to continue.`);
    app.quit();
  });
  client = new ServiceClient(running.url, running.token);

  const contentSecurityPolicy = buildContentSecurityPolicy(running.url);
  protocol.handle(APP_SCHEME, createAppProtocolHandler({ rootDir: paths.rendererDir, contentSecurityPolicy: () => contentSecurityPolicy }));

  writeDiscoveryFile(paths.discoveryFile, {
    baseUrl: running.url,
    pid: process.pid,
    version: app.getVersion(),
    startedAt: new Date().toISOString(),
  });

  registerBridgeHandlers(ipcMain, {
    isTrustedContents: (contents) => mainWindow !== null && !mainWindow.isDestroyed() && contents === mainWindow.webContents,
    apiBaseUrl: () => running.url,
    token: () => running.token,
    importTemplate: () => importTemplateInteractively(requireClient(), dialogs()),
    saveDocument: async (request) => {
      const saved = await saveDocumentInteractively(requireClient(), dialogs(), {
        ...request,
        defaultFolder: app.getPath('downloads'),
      });
      if (saved) savedPaths.add(path.normalize(saved.path));
      return saved;
    },
    showInFolder: (filePath) => shell.showItemInFolder(filePath),
    savedPaths,
  });

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({
        appName: app.getName(),
        isMac: process.platform === 'darwin',
        isDevelopment,
        apiBaseUrl: running.url,
        actions: {
          importTemplate: () => {
            void importTemplateInteractively(requireClient(), dialogs()).then((template) => template && announceImport(template));
          },
          openDataFolder: () => {
            fs.mkdirSync(paths.dataDir, { recursive: true });
            void openPathOrComplain(paths.dataDir);
          },
          copyApiBaseUrl: () => clipboard.writeText(running.url),
          openDocumentation: () => void openPathOrComplain(documentationPath()),
        },
      }),
    ),
  );

  createWindow(running);
  filesFromOs.drainTo((filePath) => {
    void importTemplateFile(requireClient(), dialogs(), filePath).then((template) => template && announceImport(template));
  });
}

function createWindow(running: RunningService): void {
  const window = new BrowserWindow(
    mainWindowOptions({
      preloadPath: paths.preload,
      iconPath: paths.windowIcon,
      apiBaseUrl: running.url,
      appVersion: app.getVersion(),
      isDevelopment,
    }),
  );
  mainWindow = window;
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  window.webContents.on('render-process-gone', (_event, details) => {
    console.error(`docloom: the window's renderer ended (${details.reason}, exit code ${details.exitCode})`);
  });
  void window.loadURL(APP_ENTRY_URL);
}

function forkUtilityProcess(entryPath: string, env: NodeJS.ProcessEnv): ServiceProcess {
  const definedEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) definedEnv[name] = value;
  const child = utilityProcess.fork(entryPath, [], { env: definedEnv, serviceName: 'docloom service', stdio: 'inherit' });
  return {
    get pid() {
      return child.pid;
    },
    postMessage: (message) => child.postMessage(message),
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void child.on('exit', listener),
    kill: () => void child.kill(),
  };
}

function requireClient(): ServiceClient {
  if (!client) throw new Error('the local service is not running');
  return client;
}

/** Native dialogs, attached to the window when there is one. */
function dialogs(): Dialogs {
  const parent = mainWindow && !mainWindow.isDestroyed() ? mainWindow : null;
  return {
    showOpenDialog: (options) => (parent ? dialog.showOpenDialog(parent, options) : dialog.showOpenDialog(options)),
    showSaveDialog: (options) => (parent ? dialog.showSaveDialog(parent, options) : dialog.showSaveDialog(options)),
    showError: (title, message) => dialog.showErrorBox(title, message),
  };
}

/** Tells the GUI about a template imported outside it (menu, file association), and brings the window forward. */
function announceImport(template: ImportedTemplate): void {
  if (!mainWindow || mainWindow.isDestroyed()) return;
  mainWindow.webContents.send(IPC.templateImported, template);
  focusWindow(mainWindow);
}

function documentationPath(): string {
  const readme = path.join(paths.docsDir, 'README.md');
  return fs.existsSync(readme) ? readme : paths.docsDir;
}

async function openPathOrComplain(target: string): Promise<void> {
  const problem = await shell.openPath(target);
  if (problem) dialog.showErrorBox('docloom', `Could not open ${target}: ${problem}`);
}
