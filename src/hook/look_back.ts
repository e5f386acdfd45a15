/**
 * Step 4: what only the transcript's history can tell, read only when a decision depends on it:
 * a compaction no event reported (a fired threshold holds a dropped reading back), and, when
 * the state file is gone, the refreshes this hook already made in this context.
 */
import { type ContextFacts, proofOf } from "../core/context_facts.ts";
import { compactionCheckFrom, fillOf, type Reading } from "../core/decide.ts";
import { type CompactEnv, compactsEarly, type CompactSettings } from "../core/compaction_point.ts";
import { crossedThresholds } from "../core/thresholds.ts";
import { newProof, resolveWindow } from "../core/window.ts";
import { type HistoryScan, scanHistory, withTranscript } from "../io/transcript.ts";
import { parentTranscriptOf, readForkReference } from "../io/fork_reference.ts";
import { refreshToken } from "../io/state_store.ts";
import type { State } from "../schemas/state.ts";
import { learnedCompaction } from "./measure.ts";

/** What looking back needs to know about the call. */
export interface LookBackInput {
  state: State;
  reading: Reading;
  /** A state file exists for this context (else earlier refreshes are recovered). */
  stateFound: boolean;
  transcriptPath: string;
  /** The token of this context's refresh headers. */
  token: string;
  thresholds: readonly number[];
  /** `CLAUDE_CODE_DISABLE_1M_CONTEXT`: a compaction's size then proves nothing larger. */
  disable1m?: boolean;
  /**
   * Claude Code's auto-compaction variables and settings: with an early point set, a compaction
   * below 200k proves no window.
   */
  compactEnv?: CompactEnv;
  compactFiles?: CompactSettings | undefined;
  /**
   * Set when the transcript is a subagent's own file: the session's main transcript, where a
   * fork's parent is (see {@link inheritedFromParent}).
   */
  subagent?: { mainPath: string | undefined };
}

/** Unchecked bytes worth recording as checked (a state write); below it, re-reading is cheaper. */
const CHECKPOINT_BYTES = 256 * 1024;

/** Reads back through the transcript as far as this call's decision needs. Never throws. */
export async function lookBack(input: LookBackInput): Promise<ContextFacts> {
  const { state, reading, transcriptPath: path } = input;
  const facts: ContextFacts = {};
  const from = compactionCheckFrom(state, reading);
  if (from !== undefined) {
    const scan = await withTranscript(
      path,
      (source, size) => scanHistory(source, size, { stopBelow: from }),
    );
    if (!("error" in scan)) {
      if (scan.marker !== undefined) facts.marker = scan.marker;
      else if (!scan.truncated) {
        // Looked at on every call a fired threshold holds back: the checked span is recorded only
        // once it is large, so such a call reads a bounded tail and does not write its state.
        const size = sizeOf(path) ?? from;
        if (size - from >= CHECKPOINT_BYTES) facts.checkedTo = size;
      }
      Object.assign(
        facts,
        compactionFacts(
          scan.compaction,
          state,
          input.disable1m,
          scan.compaction !== undefined &&
            compactsEarly(input.compactEnv ?? {}, input.compactFiles),
        ),
      );
    }
  }
  const recovering = !input.stateFound &&
    crossedThresholds(fillOf(reading), input.thresholds, state.fired).length > 0;
  if (recovering) {
    let scanned = 0;
    const scan = await withTranscript(path, (source, size) => {
      scanned = size;
      return scanHistory(source, size, { token: input.token });
    });
    if (!("error" in scan)) {
      facts.recovered = scan.refreshed;
      if (scan.marker !== undefined && facts.marker === undefined) facts.marker = scan.marker;
      // A fork's context starts with its parent's, unless the fork has been compacted since.
      const whole = scan.marker === undefined && !scan.truncated;
      if (input.subagent && whole) {
        const inherited = await inheritedFromParent(path, input.subagent.mainPath);
        if (inherited.length > 0) {
          facts.inherited = inherited;
          // Just read to its start without a marker: later calls look for one only past here.
          facts.checkedTo = scanned;
        }
      }
    }
  }
  return facts;
}

/**
 * The thresholds a fork subagent's context already holds refreshes for: the ones its parent's
 * refreshes (headers carrying the parent's token) named since the parent's last compaction, up to
 * the entry the fork was started after. Empty for any other subagent, and when the parent's
 * transcript or that entry cannot be found (then the fork refreshes on its own: never miss).
 */
export async function inheritedFromParent(
  agentPath: string,
  mainPath: string | undefined,
): Promise<number[]> {
  const fork = readForkReference(agentPath);
  if (fork === undefined) return [];
  const parent = parentTranscriptOf(agentPath, mainPath, fork.parentSessionId);
  if (parent === undefined) return [];
  const token = await refreshToken(fork.parentSessionId);
  const scan = await withTranscript(
    parent,
    (source, size) => scanHistory(source, size, { token, upToUuid: fork.parentLastUuid }),
  );
  return "error" in scan ? [] : scan.refreshed;
}

/**
 * What a compaction's recorded size proves about the window (auto-compaction near 167k: 200k;
 * above 200k: 1M) and, for an auto-compaction, where this session compacts, as facts the state
 * keeps across the compaction.
 */
export function compactionFacts(
  compaction: HistoryScan["compaction"],
  state: State,
  disable1m = false,
  compactsEarly = false,
): ContextFacts {
  if (compaction === undefined) return {};
  const proven = proofOf(state);
  // Measured as the compacted context's own model would be: a proof for another model does not
  // hide what this compaction proves.
  const choice = resolveWindow({
    compaction,
    disable1m,
    proven,
    model: compaction.model,
    version: compaction.version,
    compactsEarly,
  });
  const proof = newProof(choice, proven);
  return {
    ...(proof === undefined ? {} : { proven: proof }),
    ...learnedCompaction(compaction, state.compactedAt),
  };
}

function sizeOf(path: string): number | undefined {
  try {
    return Deno.statSync(path).size;
  } catch {
    return undefined;
  }
}
