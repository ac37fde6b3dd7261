/**
 * A process's resident memory as Linux reports it (/proc/<pid>/status), for the benchmarks that bound it
 * (big-table, hostile, http-docx): the current size (VmRSS) and the peak so far (VmHWM), in MB.
 */
import fs from 'node:fs';

/** VmRSS and VmHWM of a process in MB; null where /proc cannot be read (not Linux, the process gone). */
export function memoryOf(pid: number): { rssMb: number; hwmMb: number } | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

/** Resets a process's peak (VmHWM) to its current RSS (writing 5 to clear_refs); false where the kernel does not allow it. */
export function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
