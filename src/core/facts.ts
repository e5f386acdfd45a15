/** What the transcript taught about a context, applied to its state. */
import type { State } from "../schemas/state.ts";
import type { ChainFacts } from "./chains.ts";
import type { WindowProof } from "./window.ts";

export interface ContextFacts {
  /** Offset of the newest compaction marker seen. */
  marker?: number;
  /** No compaction marker after the last fire, up to this offset. */
  checkedTo?: number;
  /** Thresholds this hook's refreshes in the transcript show as fired (state file lost). */
  recovered?: number[];
  /** A fork subagent's first call: thresholds its parent's refreshes named before the fork. */
  inherited?: number[];
  proven?: WindowProof;
  /** Where this subagent's transcript was found by searching. */
  agentTranscript?: string;
  /** The tightest point this session was seen to auto-compact at. */
  compactedAt?: number;
  /** Claude Code's auto-compaction settings, and their files' signature. */
  claudeSettings?: string | undefined;
  /** This tool call's entry and the chain it is on (core/chains.ts). */
  chain?: ChainFacts;
  /** This tool call's result: `[tool_use_id, bytes]`. */
  result?: [string, number] | undefined;
}

/** Result sizes kept: enough for one response's parallel calls. */
const RESULTS_KEPT = 16;

/** Unchecked bytes worth a state write to record as checked; below it, re-reading is cheaper. */
export const CHECKPOINT_BYTES = 256 * 1024;

/** Where to look for a compaction marker: from a reset not yet marked, else after the last fire. */
export function markersFrom(state: State): number | undefined {
  if (state.compactedFrom !== undefined) return state.compactedFrom;
  if (state.fired.length === 0) return undefined;
  return Math.max(state.firedAt ?? 0, state.checkedTo ?? 0);
}

export function proofOf(state: State): WindowProof | undefined {
  if (state.provenWindow === undefined) return undefined;
  return { window: state.provenWindow, model: state.provenModel, version: state.provenVersion };
}

/** `base` updated with `facts`; `recovered` and `inherited` only without a state file. */
export function applyFacts(base: State, facts: ContextFacts, stateFound: boolean): State {
  let state = base;
  if (!stateFound && (facts.recovered?.length || facts.inherited?.length)) {
    // Found after the marker (the walk stops there): they belong to this context.
    const found = [...state.fired, ...(facts.recovered ?? []), ...(facts.inherited ?? [])];
    const fired = [...new Set(found)].sort((a, b) => a - b);
    state = { ...state, fired, firedAt: Math.max(state.firedAt ?? 0, (facts.marker ?? -1) + 1) };
  }
  const { agentTranscript, compactedAt, claudeSettings, result } = facts;
  if (agentTranscript !== undefined) state = { ...state, agentTranscript };
  if (facts.proven !== undefined) {
    const { provenModel: _m, provenVersion: _v, ...rest } = state;
    const proof = facts.proven;
    state = {
      ...rest,
      provenWindow: proof.window,
      ...(proof.model !== undefined ? { provenModel: proof.model } : {}),
      ...(proof.version !== undefined ? { provenVersion: proof.version } : {}),
    };
  }
  if (compactedAt !== undefined) state = { ...state, compactedAt };
  // The marker a reset looked for is found (or the look went far enough): it is read.
  if (state.compactedFrom !== undefined && (facts.marker !== undefined || facts.checkedTo)) {
    const { compactedFrom: _read, ...rest } = state;
    state = rest;
  }
  if (facts.checkedTo !== undefined && facts.checkedTo > (state.checkedTo ?? 0)) {
    state = { ...state, checkedTo: facts.checkedTo };
  }
  if (claudeSettings !== undefined) state = { ...state, claudeSettings };
  if (result !== undefined) {
    const kept = Object.entries(state.results ?? {}).slice(1 - RESULTS_KEPT);
    state = { ...state, results: Object.fromEntries([...kept, result]) };
  }
  return state;
}
