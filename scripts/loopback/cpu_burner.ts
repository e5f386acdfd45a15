/**
 * A bounded CPU burner for measurements and runs under load: one busy loop per core, each ended
 * by `timeout` at the latest, and stopped early by {@link CpuBurner.stop}. Needs `timeout` and
 * `sh` (Linux; GNU coreutils elsewhere).
 */

/** Busy loops that keep the machine's cores occupied until stopped. */
export interface CpuBurner {
  /** The process ids of the `timeout` processes, each the parent of one loop. */
  readonly pids: readonly number[];
  /** Ends every loop (SIGTERM, which `timeout` passes on) and waits for them to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `loops` busy loops (one per core by default), each ending by itself after `seconds`.
 *
 * @example
 * ```ts
 * const burner = startBurner(600);
 * try { await run(); } finally { await burner.stop(); }
 * ```
 */
export function startBurner(seconds: number, loops = navigator.hardwareConcurrency): CpuBurner {
  const children = Array.from({ length: Math.max(1, loops) }, () =>
    new Deno.Command("timeout", {
      args: [String(seconds), "sh", "-c", "while :; do :; done"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn());
  return {
    pids: children.map((child) => child.pid),
    async stop() {
      for (const child of children) {
        try {
          child.kill("SIGTERM");
        } catch {
          // Already ended at its timeout.
        }
      }
      await Promise.all(children.map((child) => child.status));
    },
  };
}
