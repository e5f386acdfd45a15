/**
 * What the transcript says about the context a state file describes, applied to that state:
 * a compaction that ended it, a stretch checked free of compactions, refreshes recovered after
 * the state file was lost. Pure, so it can be re-applied to a fresher state under the lock.
 */
import type { State } from "../schemas/state.ts";
import { markerEndsContext, resetState } from "./decide.ts";

export interface ContextFacts {
  /** Offset of the newest compaction marker seen, if any. */
  marker?: number;
  /** The transcript holds no compaction marker after the last fire, up to this offset. */
  checkedTo?: number;
  /** Thresholds this hook's own refreshes in the transcript show as fired (state file lost). */
  recovered?: number[];
  /** A window the transcript proved (a reading or a compaction too large for 200k, ...). */
  provenWindow?: number;
  /** Where this subagent's transcript was found by searching. */
  agentTranscript?: string;
  /** `preTokens` of the newest auto-compaction seen: where Claude Code really compacts. */
  compactedAt?: number;
  /** Claude Code's auto-compaction settings, read for this context (kept until a reset). */
  claudeSettings?: string;
}

/**
 * `base` updated with `facts`. `recovered` only applies when `stateFound` is false: a state file
 * that exists is the record, the transcript only a backup.
 */
export function applyFacts(base: State, facts: ContextFacts, stateFound: boolean): State {
  let state = base;
  if (!stateFound && facts.recovered && facts.recovered.length > 0) {
    // The recovered refreshes were found after the marker (the scan stops there), so they belong
    // to this context: place them after it.
    state = {
      ...state,
      fired: [...new Set([...state.fired, ...facts.recovered])].sort((a, b) => a - b),
      firedAt: Math.max(state.firedAt ?? 0, (facts.marker ?? -1) + 1),
    };
  }
  if (facts.agentTranscript !== undefined && facts.agentTranscript !== state.agentTranscript) {
    state = { ...state, agentTranscript: facts.agentTranscript };
  }
  if (facts.provenWindow !== undefined && facts.provenWindow !== state.provenWindow) {
    state = { ...state, provenWindow: facts.provenWindow };
  }
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
