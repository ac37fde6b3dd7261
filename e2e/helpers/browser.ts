/**
 * Headless Chromium (Debian's /usr/bin/chromium through playwright-core) pointed at a real docloom service.
 * Every page records what could betray a broken GUI: requests that left the machine, console errors, uncaught
 * exceptions and Content-Security-Policy violations. Screenshots go to test-results/gui/ (gitignored).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { PageDocument, PageWindow } from './page-dom.js';

// The init script below runs in the browser (see page-dom.ts).
declare const document: PageDocument;
declare const window: PageWindow;

export const CHROMIUM_PATH = process.env.DOCLOOM_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const SCREENSHOT_DIR = path.resolve('test-results', 'gui');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface GuiServer {
  url: string;
  createSignInCode(): string;
}

export interface GuiPage {
  context: BrowserContext;
  page: Page;
  /** Every URL the page (and its workers) requested. */
  requests: string[];
  /** Console errors, uncaught exceptions and CSP violations, in order. */
  problems: string[];
  screenshot(name: string): Promise<string>;
  /** URLs that went anywhere but the local service (data: and blob: URLs stay in the page). */
  foreignRequests(): string[];
  close(): Promise<void>;
}

export interface OpenOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** Open this hash after signing in (default: the templates page). */
  hash?: string;
}

/** Fails at once, with the fix, when the service has no GUI build to serve (instead of timing out later). */
let checkedBuild = false;
async function assertGuiBuilt(url: string): Promise<void> {
  if (checkedBuild) return;
  const html = await (await fetch(`${url}/`)).text();
  if (!html.includes('./assets/')) throw new Error('The GUI is not built: run `npm run build:renderer` (dist/renderer/) before the GUI tests.');
  checkedBuild = true;
}

/** Opens the GUI through a fresh one-time sign-in link, as a person following `docloom serve`'s link would. */
export async function openGui(browser: Browser, server: GuiServer, options: OpenOptions = {}): Promise<GuiPage> {
  await assertGuiBuilt(server.url);
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    acceptDownloads: true,
  });
  const requests: string[] = [];
  const problems: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  // Injected by Playwright before any page script, so it is not itself subject to the page's CSP.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || '(inline)'}`);
    });
  });
  // The service renders in milliseconds: a state not reached within seconds will not be reached at all.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));

  await page.goto(`${server.url}/#/signin?code=${server.createSignInCode()}`);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  if (options.hash) await page.goto(`${server.url}/${options.hash}`);

  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const origin = new URL(server.url).origin;
  return {
    context,
    page,
    requests,
    problems,
    async screenshot(name) {
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      // From the top, so the sticky header sits where a person sees it.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    foreignRequests() {
      return requests.filter((url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url));
    },
    close: () => context.close(),
  };
}
