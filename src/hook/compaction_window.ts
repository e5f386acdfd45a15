/**
 * After a compaction event: what the boundary Claude Code just wrote proves about the window
 * (`preTokens` near 167k on auto: 200k; above 200k: 1M), kept in the context's state so the next
 * context is measured against it (core/window.ts `proven`).
 */
import { loadState, saveState, stateOf, withLock } from "../io/state_store.ts";
import type { StatePaths } from "../io/state_store.ts";
import { scanHistory, withTranscript } from "../io/transcript.ts";
import { applyFacts, proofOf } from "../core/context_facts.ts";
import { compactionFacts } from "./look_back.ts";

/** How far back to look for the boundary just written. */
const SCAN_BYTES = 1024 * 1024;

/**
 * Records the window the newest compaction in `transcriptPath` proves, if any; returns a phrase
 * for the trace, or undefined when nothing was learned. Never throws.
 */
export async function recordCompactionWindow(
  paths: StatePaths,
  transcriptPath: string | undefined,
  disable1m: boolean,
): Promise<string | undefined> {
  if (transcriptPath === undefined) return undefined;
  const tail = await withTranscript(
    transcriptPath,
    (source, size) => scanHistory(source, size, { maxBytes: SCAN_BYTES }),
  );
  if ("error" in tail || tail.compaction === undefined) return undefined;
  const compaction = tail.compaction;
  try {
    return await withLock(paths.lock, async () => {
      const current = stateOf(loadState(paths.state));
      const facts = compactionFacts(compaction, proofOf(current), disable1m);
      if (facts.proven === undefined) return undefined;
      await saveState(paths.state, applyFacts(current, facts, true));
      const model = facts.proven.model === undefined ? "" : ` for ${facts.proven.model}`;
      return `the compaction at ${compaction.preTokens} tokens proves a ${facts.proven.window}-token window${model}`;
    });
  } catch {
    return undefined; // A busy lock or a full disk: the next compaction or reading tells again.
  }
}
