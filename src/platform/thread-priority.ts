import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the scheduling priority (nice) of the calling worker thread only (a Linux thread's nice value is its own),
 * so that when the cores are busy the main thread (the API, the checks) comes first and the thread's work takes
 * longer instead. Elsewhere, on the main thread, or if refused, nothing changes.
 */
export function lowerThreadPriority(nice: number): void {
  try {
    const [pid, task, tid] = readlinkSync('/proc/thread-self').split('/');
    if (Number(pid) === process.pid && task === 'task' && Number(tid) > 0 && Number(tid) !== process.pid) {
      setPriority(Number(tid), nice);
    }
  } catch {
    // not Linux, or not allowed: the same priority as the main thread
  }
}
