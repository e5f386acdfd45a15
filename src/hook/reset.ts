/**
 * A context ends (SessionStart `clear` or `compact`, PostCompact): its state starts afresh under
 * the lock, with a new epoch so a hook still deciding on the old context does not act after it.
 */
import { resetState } from "../core/decide.ts";
import { loadState, preparePrivateDir, saveState, stateOf, withLock } from "../io/state_store.ts";
import type { StatePaths } from "../io/state_store.ts";

/** Resets the context whose files are `paths`; returns what was done, for the trace. */
export async function resetContext(stateDir: string, paths: StatePaths): Promise<string> {
  const problem = await preparePrivateDir(stateDir);
  if (problem) return `cannot reset: ${problem}`;
  await withLock(paths.lock, async () => {
    await saveState(paths.state, resetState(stateOf(loadState(paths.state))));
  });
  return "forgot fired thresholds and tool count";
}
