/**
 * Where the benchmarks put the services' data folders, and what creating a file there costs.
 *
 * This machine's disk is ext4 without a journal, and ext4 without a journal does not reuse an inode freed in the last
 * 60 s (300 s while its inode-table block is dirty): each file created walks past every such inode of its block group,
 * one buffer-cache lookup each (fs/ext4/ialloc.c, `recently_deleted`; docs/benchmarks.md, session 18). A new folder
 * goes into its parent's block group, so every benchmark run's data folder landed in the group where the last run had
 * just removed its thousands of files (and where the test suite's temp folders come and go, in /tmp): on 2026-11-30
 * creating a file cost 590–750 µs of CPU there against 20–30 µs in a folder of its own group. docloom makes one file
 * per document, so the walk was part of every figure — the benchmark's own clean-up, not the service, and not what a
 * user's data folder sees (a journaled file system has no walk at all).
 *
 * So the data folders are made in a parent flagged as a top of a directory tree (ext4's TOPDIR, `chattr +T`): ext4
 * then spreads the folders made in it over the block groups as it does folders made at the file system's root, and
 * one run's removed files no longer tax the next run's creates. Best effort: where `chattr` or the flag is missing
 * (another file system, another OS), the folders are made there all the same.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let parent: string | undefined;

/** The folder the benchmarks' data folders go in: `<tmpdir>/docloom-bench-data`, flagged TOPDIR where ext4 allows. */
export function benchDataParent(): string {
  if (parent) return parent;
  const dir = path.join(os.tmpdir(), 'docloom-bench-data');
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync('chattr', ['+T', dir], { stdio: 'ignore' });
  } catch {
    // not ext4, no chattr, not permitted: the folders are made without the spread
  }
  parent = dir;
  return dir;
}

/** A new, empty data folder for one service (or one benchmark's store), named `<prefix>…`. */
export function benchDataDir(prefix: string): string {
  return fs.mkdtempSync(path.join(benchDataParent(), prefix));
}

/** CPU µs one empty file's creation costs in a new folder beside the data folders (the median of 5 × 100), for the report. */
export function fileCreateCostUs(): number {
  const dir = benchDataDir('probe-');
  try {
    const costs: number[] = [];
    for (let round = 0, n = 0; round < 5; round++) {
      const start = process.cpuUsage();
      for (let i = 0; i < 100; i++) fs.closeSync(fs.openSync(path.join(dir, `f${n++}`), 'wx'));
      const used = process.cpuUsage(start);
      costs.push((used.user + used.system) / 100);
    }
    return costs.sort((a, b) => a - b)[2];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One line for a benchmark's header: where the data folders are and what a file's creation costs there. */
export function dataDirLine(): string {
  let flagged = false;
  try {
    flagged = /^\S*T/.test(execFileSync('lsattr', ['-d', benchDataParent()], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    // no lsattr (another OS or file system)
  }
  return `data folders in ${benchDataParent()}${flagged ? ' (ext4 TOPDIR: spread over block groups)' : ''}; creating a file there: ${fileCreateCostUs().toFixed(0)} µs CPU`;
}
