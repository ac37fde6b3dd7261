/**
 * Drafts: the data being edited for each template, kept in this window's own storage (IndexedDB, per origin),
 * never sent to the service. Written on each change — at most one write per 300 ms, and at once when the page
 * is hidden or closed — so a reload, a template switch or a crashed browser loses nothing typed.
 *
 * The data is stored as its JSON text: it is what the editor holds (plain JSON), and serialising reads through
 * Vue's reactive proxies, which IndexedDB's structured clone cannot copy.
 */

export interface Draft {
  /** The data, as JSON text. */
  json: string;
  test: boolean;
  savedAt: number;
}

const DB_NAME = 'docloom-drafts';
const STORE = 'drafts';
export const DRAFT_INTERVAL_MS = 300;

let opening: Promise<IDBDatabase> | null = null;
/** The open database, once there is one: a write can then start synchronously (in a `pagehide` handler). */
let openDbHandle: IDBDatabase | null = null;

function openDb(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('This window has no IndexedDB.'));
      return;
    }
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => {
      openDbHandle = request.result;
      resolve(request.result);
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened.'));
    request.onblocked = () => reject(new Error('IndexedDB is blocked by another window.'));
  }).catch((err: unknown) => {
    opening = null; // try again next time (storage may come back)
    throw err;
  });
  return opening;
}

function done(request: IDBRequest | IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    if (request instanceof IDBTransaction) {
      request.oncomplete = () => resolve();
      request.onerror = () => reject(request.error ?? new Error('The draft could not be saved.'));
      request.onabort = () => reject(request.error ?? new Error('The draft could not be saved.'));
    } else {
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error ?? new Error('The draft could not be read.'));
    }
  });
}

export async function loadDraft(templateUuid: string): Promise<Draft | null> {
  const db = await openDb();
  const request = db.transaction(STORE, 'readonly').objectStore(STORE).get(templateUuid);
  await done(request);
  const value = request.result as Partial<Draft> | undefined;
  return value && typeof value.json === 'string' ? { json: value.json, test: Boolean(value.test), savedAt: Number(value.savedAt) || 0 } : null;
}

/**
 * Writes a draft. With the database already open the transaction starts before this returns — no await first —
 * so a write begun while the page is being hidden or unloaded is issued before the page goes. Transactions on
 * one store run in the order they were created, so writes need no queue of their own.
 */
export function saveDraft(templateUuid: string, draft: Draft): Promise<void> {
  const put = (db: IDBDatabase): Promise<void> => {
    // 'strict' durability: the write reaches the disk before `complete`, so a browser killed just after keeps it.
    const tx = db.transaction(STORE, 'readwrite', { durability: 'strict' });
    tx.objectStore(STORE).put(draft, templateUuid);
    const finished = done(tx);
    // Commit now rather than at the end of this task: a page being unloaded may have no later task.
    tx.commit();
    return finished;
  };
  if (openDbHandle) {
    try {
      return put(openDbHandle);
    } catch (err) {
      openDbHandle = null; // closed under us (storage cleared): open it again
      opening = null;
      if (!(err instanceof DOMException)) throw err;
    }
  }
  return openDb().then(put);
}

export async function deleteDraft(templateUuid: string): Promise<void> {
  const db = await openDb();
  const tx = db.transaction(STORE, 'readwrite');
  tx.objectStore(STORE).delete(templateUuid);
  await done(tx);
}

/**
 * Throttled writer: `schedule` remembers how to build the latest draft; it is written at once when the last
 * write was ≥ 300 ms ago, else when that interval ends. `flush` writes what is pending now (page hidden,
 * template switched). Failures (storage unavailable, quota full) go to `onError`; success to `onSaved`.
 */
export function createDraftWriter(handlers: { onError(err: unknown): void; onSaved(): void }) {
  let pending: { uuid: string; build: () => Draft } | null = null;
  let timer = 0;
  let lastWrite = 0;

  function write(): Promise<void> {
    window.clearTimeout(timer);
    timer = 0;
    const job = pending;
    pending = null;
    if (!job) return Promise.resolve();
    lastWrite = Date.now();
    return saveDraft(job.uuid, job.build()).then(handlers.onSaved, handlers.onError);
  }

  return {
    schedule(uuid: string, build: () => Draft): void {
      if (pending && pending.uuid !== uuid) void write(); // another template's change: its draft first
      pending = { uuid, build };
      if (timer) return;
      const wait = lastWrite + DRAFT_INTERVAL_MS - Date.now();
      if (wait <= 0) void write();
      else timer = window.setTimeout(() => void write(), wait);
    },
    flush: write,
  };
}
