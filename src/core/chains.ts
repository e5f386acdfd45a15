/**
 * Two Claude Code processes can append to one session file (the session resumed in a second
 * terminal while the first runs on): every hook call carries the same session id and transcript,
 * but each process writes its own chain of entries (`parentUuid`), and its model sees only the
 * refreshes delivered on that chain. So a threshold counts as fired for the chain that received it.
 * The state keeps each chain's tip (the entry of its newest tool call known) and what fired on it;
 * a call finds its chain by walking back from its own entry to the nearest tip (io/chain_walk.ts).
 * With no tip in reach, the session's fired thresholds count: never twice on one chain.
 */
import type { Chain, State } from "../schemas/state.ts";

/** What the transcript shows of a call's chain: its entry, and the first tip the walk met. */
export interface ChainFacts {
  entry: string;
  /** The entry's `message.id`: the tip of a response split over entries is met by any of them. */
  message?: string | undefined;
  /** A chain's `tip` or `message`; undefined: no tip within reach. */
  met?: string | undefined;
  /** A user entry (a prompt, a command) lies between the tip and this call: a fork may start. */
  turned?: boolean;
}

/** Tips kept: the chains of the processes writing the file, and where they may have forked. */
export const CHAINS_KEPT = 8;

/** What a call's walk looks for: every tip and its response's id. */
export function chainTips(state: State): string[] {
  return (state.chains ?? []).flatMap((c) =>
    c.message === undefined ? [c.tip] : [c.tip, c.message]
  );
}

function metChain(state: State, facts: ChainFacts | undefined): Chain | undefined {
  const met = facts?.met;
  return met === undefined
    ? undefined
    : state.chains?.find((c) => c.tip === met || c.message === met);
}

/** The thresholds fired on this call's chain; the session's when its chain is unknown. */
export function firedOnChain(state: State, facts: ChainFacts | undefined): number[] {
  const chain = metChain(state, facts);
  return chain ? state.fired.filter((t) => chain.fired.includes(t)) : state.fired;
}

/**
 * `next` (decided with `firedOnChain` as `fired`; undefined: no change) with the other chains'
 * fired thresholds kept and this call's entry as its chain's tip. A single chain's state is
 * exactly `next`, its tip aside; a call whose entry is unknown counts what fired for every chain.
 */
export function advanceChains(
  next: State | undefined,
  state: State,
  facts: ChainFacts | undefined,
): State | undefined {
  const own = firedOnChain(state, facts);
  const decided = next ?? { ...state, fired: own };
  const others = state.fired.filter((t) => !own.includes(t));
  const fired = [...new Set([...decided.fired, ...others])].sort((a, b) => a - b);
  const kept = Object.fromEntries(
    Object.entries(state.firedWindow ?? {}).filter(([t]) => others.includes(Number(t))),
  );
  const window = decided.firedWindow ?? (others.length > 0 ? {} : undefined);
  const merged: State = others.length === 0
    ? decided
    : { ...decided, fired, ...(window && { firedWindow: { ...kept, ...window } }) };
  const newly = decided.fired.filter((t) => !own.includes(t));
  if (facts === undefined) {
    if (newly.length === 0 || !state.chains?.length) return next && merged;
    const chains = state.chains.map((c) => ({ ...c, fired: [...new Set([...c.fired, ...newly])] }));
    return { ...merged, chains };
  }
  if (decided.fired.length === 0 && !state.chains?.length) return next;
  const met = metChain(state, facts);
  const tip: Chain = {
    tip: facts.entry,
    ...(facts.message !== undefined && { message: facts.message }),
    fired: decided.fired,
  };
  const rest = (state.chains ?? []).filter((c) =>
    c.tip !== facts.entry && (c !== met || facts.turned === true)
  );
  return { ...merged, chains: [tip, ...rest].slice(0, CHAINS_KEPT) };
}
