/**
 * A context ends (SessionStart `clear` or `compact`, PostCompact): its state starts afresh under
 * the lock, with a new epoch so a hook still deciding on the old context does not act after it.
 * A compaction also records whether the rules were restated (core/compaction_refresh.ts).
 */
import { compactionEvent } from "../core/compaction_refresh.ts";
import { resetState } from "../core/decide.ts";
import { loadState, preparePrivateDir, saveState, stateOf, withLock } from "../io/state_store.ts";
import type { StatePaths } from "../io/state_store.ts";

/** A compaction's event, as the reset needs it. */
export interface CompactionReset {
  event: "SessionStart" | "PostCompact";
  promptId: string | undefined;
  /** The refresh after compaction is on, and (for SessionStart) its text could be built. */
  restate: boolean;
  /** Transcript size when SessionStart answers, so its receipt can be looked for later. */
  answerAt?: number | undefined;
}

/** What the reset did, and whether this event's answer should restate the rules. */
export interface ResetOutcome {
  reason: string;
  restateNow: boolean;
}

/** Resets the context whose files are `paths`; returns what was done, for the trace. */
export async function resetContext(
  stateDir: string,
  paths: StatePaths,
  compaction?: CompactionReset,
): Promise<ResetOutcome> {
  const problem = await preparePrivateDir(stateDir);
  if (problem) return { reason: `cannot reset: ${problem}`, restateNow: false };
  return await withLock(paths.lock, async (): Promise<ResetOutcome> => {
    const current = stateOf(loadState(paths.state));
    const reset = resetState(current);
    if (!compaction) {
      await saveState(paths.state, reset);
      return { reason: "forgot fired thresholds and tool count", restateNow: false };
    }
    const step = compactionEvent(
      compaction.event,
      current,
      reset,
      compaction.promptId,
      compaction.restate,
      compaction.answerAt,
    );
    if (step.next) await saveState(paths.state, step.next);
    return { reason: step.reason, restateNow: step.restateNow };
  });
}
