/**
 * A pause of the hook's only thread while it waits for Claude Code to write the transcript.
 * Atomics.wait, not a timer: a process's first timer costs more than the pause itself (a first
 * `setTimeout(5)` took 17-27 ms on the 2-core test machine, `Atomics.wait` 5.1-5.9 ms).
 */

const cell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` milliseconds; nothing else runs meanwhile, and nothing need. */
export function pauseSync(ms: number): void {
  if (ms > 0) Atomics.wait(cell, 0, 0, ms);
}
