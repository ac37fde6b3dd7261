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
/** Whether `chattr +T` took on the parent (the folders are spread over the block groups). */
let spread = false;

/** The folder the benchmarks' data folders go in: `<tmpdir>/docloom-bench-data`, flagged TOPDIR where ext4 allows. */
export function benchDataParent(): string {
  if (parent) return parent;
  const dir = path.join(os.tmpdir(), 'docloom-bench-data');
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync('chattr', ['+T', dir], { stdio: 'ignore' });
    spread = true;
  } catch {
    // not ext4, no chattr, not permitted: the folders are made without the spread
  }
  parent = dir;
  return dir;
}

/** A file's creation costing more CPU than this (µs) in a new data folder means its block group is littered. */
const LITTERED_US = 60;
/** Folders tried before one is taken anyway. */
const TRIES = 5;

/**
 * A new, empty data folder for one service (or one benchmark's store), named `<prefix>…`. The spread is random, so a
 * folder can still land in a group littered minutes ago (one in four of a run's services did once, 0.65 against 0.20
 * ms of thread-pool CPU per document): a folder where 20 files cost more than LITTERED_US each to create is left
 * for another, at most TRIES times. (The 20 files, removed at once, are ~1 µs more per later create in that group.)
 */
export function benchDataDir(prefix: string): string {
  for (let attempt = 1; ; attempt++) {
    const dir = fs.mkdtempSync(path.join(benchDataParent(), prefix));
    if (attempt >= TRIES || createCostUs(path.join(dir, 'probe'), 20) <= LITTERED_US) return dir;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU µs per empty file created in a new folder `dir` (made and removed here): the mean over `count` files. */
function createCostUs(dir: string, count: number): number {
  fs.mkdirSync(dir);
  try {
    const start = process.cpuUsage();
    for (let i = 0; i < count; i++) fs.closeSync(fs.openSync(path.join(dir, `f${i}`), 'wx'));
    const used = process.cpuUsage(start);
    return (used.user + used.system) / count;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU µs one empty file's creation costs in a data folder picked as the services' are (the median of 5 × 100), for the report. */
export function fileCreateCostUs(): number {
  const dir = benchDataDir('probe-');
  try {
    const costs: number[] = [];
    for (let round = 0; round < 5; round++) costs.push(createCostUs(path.join(dir, String(round)), 100));
    return costs.sort((a, b) => a - b)[2];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One line for a benchmark's header: where the data folders are and what a file's creation costs there. */
export function dataDirLine(): string {
  const where = benchDataParent();
  return `data folders in ${where}${spread ? ' (ext4 TOPDIR: spread over block groups)' : ''}; creating a file in one: ${fileCreateCostUs().toFixed(0)} µs CPU (a folder where it costs over ${LITTERED_US} µs is left for another)`;
}
