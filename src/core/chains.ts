/**
 * Two Claude Code processes can append to one session file (resumed in a second terminal): same
 * session id, same transcript, but each writes its own chain of entries (`parentUuid`) and its model
 * sees only the refreshes delivered on it. So a threshold counts as fired on the chain that got it:
 * the state keeps each chain's tip (its newest tool call's entry) and what fired on it.
 */
import type { Chain, State } from "../schemas/state.ts";

/** A call's entry (and response id), and the first tip its walk back met (io/chain_walk.ts). */
export interface ChainFacts {
  entry: string;
  message?: string | undefined;
  met?: string | undefined;
  /** A user's turn lies between the tip and the call: another process may resume from the tip. */
  turned?: boolean;
  /** The walk reached its chain's first entry and met no tip: a chain beside the others. */
  started?: boolean;
}

export const CHAINS_KEPT = 16;

/** What a call's walk stops at: each tip, and its response's id (a response spans entries). */
export function chainTips(state: State): string[] {
  return (state.chains ?? []).flatMap((c) => [c.tip, ...(c.message ? [c.message] : [])]);
}

/** The chain of the tip met; first, one tipped by this call's own response (a parallel call's). */
function metChain(state: State, facts: ChainFacts | undefined): Chain | undefined {
  const { message, met } = facts ?? {};
  const chains = state.chains ?? [];
  return chains.find((c) => message !== undefined && c.message === message) ??
    chains.find((c) => met !== undefined && (c.tip === met || c.message === met));
}

/** The thresholds fired on this call's chain: none on a new one; chain unknown, the session's. */
export function firedOnChain(state: State, facts: ChainFacts | undefined): number[] {
  const chain = metChain(state, facts);
  if (!chain && facts?.started) return [];
  return chain ? state.fired.filter((t) => chain.fired.includes(t)) : state.fired;
}

/**
 * `next`, decided with `firedOnChain` as `fired` (undefined: no change), keeping what fired on
 * other chains, this call's entry its chain's tip. One chain's state is `next` and a tip; a call
 * whose entry is unknown adds what it fired to every chain.
 */
export function advanceChains(next: State | undefined, state: State, facts?: ChainFacts) {
  const own = firedOnChain(state, facts);
  const decided = next ?? { ...state, fired: own };
  const others = state.fired.filter((t) => !own.includes(t));
  const merged: State = others.length === 0 ? decided : {
    ...decided,
    fired: [...new Set([...decided.fired, ...others])].sort((a, b) => a - b),
    ...(state.firedWindow && { firedWindow: { ...state.firedWindow, ...decided.firedWindow } }),
  };
  const newly = decided.fired.filter((t) => !own.includes(t));
  if (facts === undefined) {
    if (newly.length === 0 || !state.chains?.length) return next && merged;
    const chains = state.chains.map((c) => ({ ...c, fired: [...new Set([...c.fired, ...newly])] }));
    return { ...merged, chains };
  }
  if (decided.fired.length === 0 && !state.chains?.length) return next;
  const met = metChain(state, facts);
  const { entry: tip, message } = facts;
  // A tip where a refresh was made stays, so that a branch from after it (a rewind) meets it.
  const kept = (c: Chain) => c !== met || facts.turned || c.anchor;
  const rest = (state.chains ?? []).filter((c) => c.tip !== tip && kept(c));
  const anchor = decided.fired.some((t) => !own.includes(t));
  const chain: Chain = { tip, ...(message !== undefined && { message }), fired: decided.fired };
  if (anchor) chain.anchor = true;
  // One chain's calls each meet the tip the one before left: another, or none, means two interleave.
  const forked = state.forked || facts.started || (met !== undefined && met !== state.chains?.[0]);
  return { ...merged, chains: [chain, ...rest].slice(0, CHAINS_KEPT), ...(forked && { forked }) };
}
