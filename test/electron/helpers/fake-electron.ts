/**
 * A stand-in for the 'electron' module, for running electron/main.ts under Node (main-wiring.test.ts): the
 * Electron binary cannot be installed here. It implements just the calls main.ts makes and records them.
 * utilityProcess.fork starts a REAL process (Node's child_process.fork with tsx), so the service is real.
 */
import { fork as forkChild, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';

export const calls: string[] = [];

interface QuitEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}

class FakeApp extends EventEmitter {
  isPackaged = false;
  readonly paths = new Map<string, string>();
  appPath = '';
  ready = false;
  /** True once a quit went through (no listener held it). */
  quitCompleted = false;
  private resolveReady!: () => void;
  private readonly readyPromise = new Promise<void>((resolve) => (this.resolveReady = resolve));

  enableSandbox(): void {
    calls.push(`app.enableSandbox${this.ready ? ' (after ready!)' : ''}`);
  }
  requestSingleInstanceLock(): boolean {
    calls.push('app.requestSingleInstanceLock');
    return true;
  }
  whenReady(): Promise<void> {
    return this.readyPromise;
  }
  isReady(): boolean {
    return this.ready;
  }
  /** What Electron does once Chromium is up. */
  fireReady(): void {
    calls.push('ready');
    this.ready = true;
    this.emit('ready');
    this.resolveReady();
  }
  quit(): void {
    calls.push('app.quit');
    const event: QuitEvent = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.quitCompleted = true;
  }
  getAppPath(): string {
    return this.appPath;
  }
  getPath(name: string): string {
    const value = this.paths.get(name);
    if (!value) throw new Error(`fake app: no path for ${name}`);
    return value;
  }
  setPath(name: string, value: string): void {
    calls.push(`app.setPath ${name}`);
    this.paths.set(name, value);
  }
  getVersion(): string {
    return '0.1.0';
  }
  getName(): string {
    return 'docloom';
  }
}

export const app = new FakeApp();

export const protocol = {
  schemes: [] as unknown[],
  handlers: new Map<string, (request: Request) => Promise<Response> | Response>(),
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    calls.push(`protocol.registerSchemesAsPrivileged${app.ready ? ' (after ready!)' : ''}`);
    this.schemes.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response> | Response): void {
    calls.push(`protocol.handle ${scheme}`);
    this.handlers.set(scheme, handler);
  },
};

type PermissionRequestHandler = (contents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string }) => void;
type PermissionCheckHandler = (contents: unknown, permission: string, origin: string, details: { requestingUrl?: string }) => boolean;

export const session = {
  defaultSession: {
    requestHandler: null as PermissionRequestHandler | null,
    checkHandler: null as PermissionCheckHandler | null,
    setPermissionRequestHandler(handler: PermissionRequestHandler): void {
      this.requestHandler = handler;
    },
    setPermissionCheckHandler(handler: PermissionCheckHandler): void {
      this.checkHandler = handler;
    },
  },
};

export class FakeWebContents extends EventEmitter {
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  readonly mainFrame = { url: 'docloom://app/index.html', parent: null };
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
}

export class BrowserWindow extends EventEmitter {
  static readonly instances: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.instances.filter((window) => !window.destroyed);
  }
  readonly webContents = new FakeWebContents();
  loadedUrl = '';
  destroyed = false;
  shown = false;
  focused = false;
  constructor(readonly options: { webPreferences?: Record<string, unknown> }) {
    super();
    BrowserWindow.instances.push(this);
    calls.push('new BrowserWindow');
    // Electron emits web-contents-created for every new WebContents.
    app.emit('web-contents-created', {}, this.webContents);
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    this.emit('ready-to-show');
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  show(): void {
    this.shown = true;
  }
  focus(): void {
    this.focused = true;
  }
}

export const ipcMain = {
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  listeners: new Map<string, (event: unknown, ...args: unknown[]) => void>(),
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    this.handlers.set(channel, handler);
  },
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void {
    this.listeners.set(channel, listener);
  },
};

export const Menu = {
  applicationMenu: null as unknown,
  buildFromTemplate(template: unknown[]): { template: unknown[] } {
    return { template };
  },
  setApplicationMenu(menu: unknown): void {
    this.applicationMenu = menu;
  },
};

export const shell = {
  opened: [] as string[],
  async openExternal(url: string): Promise<void> {
    this.opened.push(`external ${url}`);
  },
  async openPath(target: string): Promise<string> {
    this.opened.push(`path ${target}`);
    return '';
  },
  showItemInFolder(target: string): void {
    this.opened.push(`folder ${target}`);
  },
};

export const clipboard = {
  text: '',
  writeText(text: string): void {
    this.text = text;
  },
};

export const dialog = {
  errors: [] as string[],
  async showOpenDialog(): Promise<{ canceled: boolean; filePaths: string[] }> {
    return { canceled: true, filePaths: [] };
  },
  async showSaveDialog(): Promise<{ canceled: boolean }> {
    return { canceled: true };
  },
  showErrorBox(title: string, message: string): void {
    this.errors.push(`${title}: ${message}`);
  },
};

export const utilityProcess = {
  children: [] as ChildProcess[],
  options: [] as unknown[],
  /** Like Electron's: a separate process whose messages arrive as values. Runs the .ts source under tsx. */
  fork(modulePath: string, args: string[], options: { env?: Record<string, string> }) {
    const entry = fs.existsSync(modulePath) ? modulePath : modulePath.replace(/\.js$/, '.ts');
    utilityProcess.options.push(options);
    const child = forkChild(entry, args, { env: options.env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    utilityProcess.children.push(child);
    return {
      get pid() {
        return child.pid;
      },
      postMessage: (message: unknown) => void child.send(message as object),
      on(event: 'message' | 'exit', listener: (value: unknown) => void) {
        child.on(event, (value: unknown) => listener(value));
        return this;
      },
      kill: () => child.kill('SIGKILL'),
    };
  },
};
