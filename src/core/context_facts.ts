/**
 * What the transcript says about the context a state file describes, applied to that state:
 * a compaction that ended it, a stretch checked free of compactions, refreshes recovered after
 * the state file was lost. Pure, so it can be re-applied to a fresher state under the lock.
 */
import type { State } from "../schemas/state.ts";
import { markerEndsContext, resetState } from "./decide.ts";
import type { WindowProof } from "./window.ts";

export interface ContextFacts {
  /** Offset of the newest compaction marker seen, if any. */
  marker?: number;
  /** The transcript holds no compaction marker after the last fire, up to this offset. */
  checkedTo?: number;
  /** Thresholds this hook's own refreshes in the transcript show as fired (state file lost). */
  recovered?: number[];
  /**
   * A fork subagent's first call: thresholds its parent's refreshes named in the context the fork
   * started with (the parent's transcript up to the fork point, since its last compaction).
   */
  inherited?: number[];
  /** A window the transcript proved (a reading or a compaction too large for 200k, ...). */
  proven?: WindowProof;
  /** Where this subagent's transcript was found by searching. */
  agentTranscript?: string;
  /** `preTokens` of the newest auto-compaction seen: where Claude Code really compacts. */
  compactedAt?: number;
  /** Claude Code's auto-compaction settings, read for this context (kept until a reset). */
  claudeSettings?: string;
}

/** The window `state` keeps as proven, with the model and version it was proven for. */
export function proofOf(state: State): WindowProof | undefined {
  if (state.provenWindow === undefined) return undefined;
  return { window: state.provenWindow, model: state.provenModel, version: state.provenVersion };
}

/** `state` keeping `proof` as its proven window (model and version replaced, not merged). */
function withProof(state: State, proof: WindowProof): State {
  const { provenModel: _model, provenVersion: _version, ...rest } = state;
  return {
    ...rest,
    provenWindow: proof.window,
    ...(proof.model !== undefined ? { provenModel: proof.model } : {}),
    ...(proof.version !== undefined ? { provenVersion: proof.version } : {}),
  };
}

/**
 * `base` updated with `facts`. `recovered` and `inherited` only apply when `stateFound` is false:
 * a state file that exists is the record, the transcript only a backup.
 */
export function applyFacts(base: State, facts: ContextFacts, stateFound: boolean): State {
  let state = base;
  const found = [...(facts.recovered ?? []), ...(facts.inherited ?? [])];
  if (!stateFound && found.length > 0) {
    // The recovered refreshes were found after the marker (the scan stops there), so they belong
    // to this context: place them after it. Inherited ones count under any window, like
    // recovered ones: the parent measured them against the same model.
    state = {
      ...state,
      fired: [...new Set([...state.fired, ...found])].sort((a, b) => a - b),
      firedAt: Math.max(state.firedAt ?? 0, (facts.marker ?? -1) + 1),
    };
  }
  if (facts.agentTranscript !== undefined && facts.agentTranscript !== state.agentTranscript) {
    state = { ...state, agentTranscript: facts.agentTranscript };
  }
  if (facts.proven !== undefined) state = withProof(state, facts.proven);
  if (facts.compactedAt !== undefined && facts.compactedAt !== state.compactedAt) {
    state = { ...state, compactedAt: facts.compactedAt };
  }
  if (facts.marker !== undefined && markerEndsContext(state, facts.marker)) {
    state = resetState(state, facts.marker);
  } else if (facts.checkedTo !== undefined && facts.checkedTo > (state.checkedTo ?? 0)) {
    state = { ...state, checkedTo: facts.checkedTo };
  }
  // After a reset the settings just read still describe the new context: keep them.
  if (facts.claudeSettings !== undefined && facts.claudeSettings !== state.claudeSettings) {
    state = { ...state, claudeSettings: facts.claudeSettings };
  }
  return state;
}
