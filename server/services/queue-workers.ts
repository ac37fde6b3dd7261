/**
 * This instance's takers of the team server's render queue (store/queue.ts): up to `slots` claimed jobs at once,
 * each rendered through DocumentService.renderClaimed on this instance's render pool. They claim when woken (a job
 * enqueued on any instance, or the queue's periodic look for leases that ran out) and after each job, until the
 * queue is empty. close() stops claiming and waits for the jobs in hand.
 */
import { MAX_ATTEMPTS, type ClaimedJob, type JobQueue } from '../store/queue.js';
import { nowIso } from './datetime.js';
import type { DocumentService } from './documents.js';

export interface QueueWorkers {
  /** Jobs this instance renders now (claimed ones and those it renders where they were accepted). */
  busy(): number;
  /**
   * A place for a job rendered where it was accepted (a synchronous create, DocumentService): given only while a
   * render worker has nothing in hand (fewer jobs than `workers`), so the document does not wait behind another.
   * It counts against the takers' slots until released; undefined when no worker is free (the job is queued).
   */
  reserve(): (() => void) | undefined;
  close(): Promise<void>;
}

export function startQueueWorkers(
  queue: JobQueue,
  documents: DocumentService,
  slots: number,
  log: (line: string) => void,
  info: (line: string) => void = log,
  /** The render pool's workers: a reservation needs one of them idle. */
  workers = Math.max(1, Math.floor(slots / 2)),
): QueueWorkers {
  const inHand = new Set<Promise<void>>();
  let claiming = false;
  let again = false;
  let stopped = false;
  let failing = false;

  const run = async (job: ClaimedJob): Promise<void> => {
    try {
      if (job.lease.attempt > MAX_ATTEMPTS) {
        // Every earlier claim ended with its instance gone: this job takes instances down, so it is not tried again.
        await job.lease.finish({
          status: 'failed',
          error: { code: 'render_crashed', message: 'The document could not be rendered.' },
          updated_at: nowIso(),
        });
        log(`document ${job.record.id}: claimed ${MAX_ATTEMPTS} times without finishing; marked failed`);
        return;
      }
      if (job.lease.attempt > 1) info(`queue: took over document ${job.record.id} (claim ${job.lease.attempt}: the last one's lease ran out)`);
      await documents.renderClaimed(job);
    } catch (err) {
      // The lease is released below: if nothing was written, another claim takes the job once it runs out.
      log(`document ${job.record.id}: queued render: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    } finally {
      job.lease.release();
    }
  };

  /** Claims while there are free slots and jobs; a wake-up meanwhile makes it look once more. */
  const fill = async (): Promise<void> => {
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    try {
      do {
        again = false;
        while (!stopped && inHand.size < slots) {
          const job = await queue.claim().then(
            (claimed) => {
              if (failing) info('queue: claiming again');
              failing = false;
              return claimed;
            },
            (err: unknown) => {
              // Said once per outage (the database gone, say), not at every look of the poll.
              if (!failing) log(`queue: claim failed: ${(err as Error).message}; trying again every second`);
              failing = true;
              return undefined;
            },
          );
          if (!job) break;
          const work = run(job).finally(() => {
            inHand.delete(work);
            void fill();
          });
          inHand.add(work);
        }
      } while (again && !stopped);
    } finally {
      claiming = false;
    }
  };

  queue.onWork(() => void fill());
  void fill();
  return {
    busy: () => inHand.size,
    reserve() {
      if (stopped || inHand.size >= workers) return undefined;
      let release!: () => void;
      const local: Promise<void> = new Promise<void>((resolve) => {
        release = resolve;
      }).then(() => {
        inHand.delete(local);
        void fill();
      });
      inHand.add(local);
      return release;
    },
    async close() {
      stopped = true;
      while (inHand.size > 0) await Promise.allSettled([...inHand]);
    },
  };
}
