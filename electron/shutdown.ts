/**
 * Quitting cleanly: the first quit request is held (event.preventDefault) until the service has stopped and
 * the discovery file is gone, then the app quits for real. Whatever fails on the way is logged, never allowed
 * to keep the app from quitting.
 */

export interface ShutdownSteps {
  stopService(): Promise<void>;
  removeDiscoveryFile(): void;
  /** Ends the app once the steps are done (app.quit() again; the handler then lets it through). */
  quit(): void;
  log?: (message: string, error: unknown) => void;
}

export interface QuitEvent {
  preventDefault(): void;
}

/** Returns the 'before-quit' listener. */
export function createShutdown(steps: ShutdownSteps): { onBeforeQuit(event: QuitEvent): void; done: () => Promise<void> } {
  const log = steps.log ?? ((message, error) => console.error(message, error));
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  let finished: Promise<void> = Promise.resolve();

  const run = async (): Promise<void> => {
    try {
      await steps.stopService();
    } catch (error) {
      log('docloom: the local service did not stop cleanly:', error);
    }
    try {
      steps.removeDiscoveryFile();
    } catch (error) {
      log('docloom: could not remove the discovery file:', error);
    }
    state = 'stopped';
    steps.quit();
  };

  return {
    onBeforeQuit(event) {
      if (state === 'stopped') return; // our own quit() after cleaning up: let it through
      event.preventDefault();
      if (state === 'stopping') return; // a second Cmd+Q while stopping
      state = 'stopping';
      finished = run();
    },
    done: () => finished,
  };
}
