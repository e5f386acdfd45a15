/**
 * Step 7: the decision made final under the context's lock. Another hook process (parallel tool
 * calls each run one) or a reset may have changed the state since it was read: the decision is
 * made again on the freshest state, and only what is still undelivered is claimed and written.
 */
import { applyFacts } from "../core/context_facts.ts";
import { afterCompaction, compactionFound } from "../core/compaction_refresh.ts";
import { settleDeliveries, withReceipts } from "../core/receipts.ts";
import { decide, type Decision } from "../core/decide.ts";
import { loadState, preparePrivateDir, saveState, stateOf, withLock } from "../io/state_store.ts";
import type { LoadedState } from "../io/state_store.ts";
import type { State } from "../schemas/state.ts";
import type { Settings } from "../settings/resolve.ts";
import type { Plan } from "./plan.ts";

/** What the lock holder decided, or why it could not. */
export type Claim =
  | { kind: "decided"; decision: Decision; state: State; receipts: string[] }
  | { kind: "raced" }
  | { kind: "failed"; reason: string };

function epochOf(loaded: LoadedState): number {
  return loaded.kind === "found" ? loaded.state.epoch ?? 0 : 0;
}

/** Re-decides `plan` on the freshest state under the lock and writes the state that follows. */
export async function claim(
  plan: Plan,
  settings: Pick<
    Settings,
    "stateDir" | "thresholds" | "toolCountInterval" | "refreshAfterCompact"
  >,
): Promise<Claim> {
  const problem = await preparePrivateDir(settings.stateDir);
  if (problem) return { kind: "failed", reason: problem };
  const { paths } = plan.files;
  return await withLock(paths.lock, async (): Promise<Claim> => {
    const fresh = loadState(paths.state);
    // A reset since the plan was made: its reading belongs to the context that just ended.
    if (epochOf(fresh) !== epochOf(plan.loaded)) return { kind: "raced" };
    const base = stateOf(fresh);
    // Receipts are judged again on the fresh state: a re-send another process already claimed
    // names another call, which this call's evidence does not settle.
    const receipts = settleDeliveries(
      compactionFound(
        base,
        applyFacts(base, plan.facts, fresh.kind === "found"),
        settings.refreshAfterCompact,
      ),
      plan.receipts,
    );
    const state = receipts.state;
    const decision = withReceipts(
      afterCompaction(
        decide({
          reading: plan.reading,
          thresholds: settings.thresholds,
          state,
          toolCountInterval: settings.toolCountInterval,
          transcriptSize: plan.size,
        }),
        state,
        plan.reading,
      ),
      receipts,
      plan.reading,
      { call: plan.payload.tool_use_id, at: plan.size },
    );
    const next = decision.next ?? state;
    if (fresh.kind !== "found" || JSON.stringify(next) !== JSON.stringify(base)) {
      await saveState(paths.state, next);
    }
    return { kind: "decided", decision, state: next, receipts: receipts.notes };
  });
}
