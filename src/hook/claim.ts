/**
 * Step 4: the decision, made once, on the freshest state: parallel tool calls and resets race, so
 * under the context's lock it loads, decides, renders at most once and saves (a dry run: neither).
 */
import type { Decision } from "../core/decide.ts";
import type { RefreshCause } from "../core/header.ts";
import type { State } from "../schemas/state.ts";
import { nothingSentAfterCompaction } from "../core/receipts.ts";
import {
  loadState,
  preparePrivateDir,
  type StatePaths,
  withLock,
  writeJsonAtomically,
} from "../io/state_store.ts";
import type { BuiltRefresh } from "./refresh.ts";

export type Claimed =
  | { kind: "decided"; decision: Decision; refresh: BuiltRefresh | undefined }
  | { kind: "raced" } // a reset landed after the reading: it belongs to the context that ended
  | { kind: "failed"; reason: string };

interface ClaimInput {
  paths: StatePaths;
  stateDir: string;
  dry: boolean;
  /** The state file was there: its folder was proven private then, so no probe file now. */
  known?: boolean;
  epoch?: number; // a tool call's reading's
  /** The state as the call loaded it before the lock (a tool call's), decided on first. */
  seen?: State;
  decide: (state: State, found: boolean) => Decision;
  render?: ((cause: RefreshCause) => Promise<BuiltRefresh>) | undefined;
}

export async function claim(input: ClaimInput): Promise<Claimed> {
  // A declaration, not an async arrow: the bundle compiles it eagerly (scripts/eager_functions.ts).
  async function step(): Promise<Claimed> {
    const { kind, state } = loadState(input.paths.state);
    if (input.epoch !== undefined && (state.epoch ?? 0) !== input.epoch) return { kind: "raced" };
    const same = early && kind === "found" && canonical(state) === canonical(input.seen!);
    const decided = same ? early : input.decide(state, kind === "found");
    const refresh = decided.cause && input.render ? await input.render(decided.cause) : undefined;
    const decision = refresh?.kind === "reloaded"
      ? { ...decided, state: nothingSentAfterCompaction(state, decided.state) }
      : decided;
    // A refresh that cannot be rendered is not recorded as given.
    const changed = kind !== "found" || canonical(decision.state) !== canonical(state);
    if (!input.dry && refresh?.kind !== "error" && changed) {
      writeJsonAtomically(input.paths.state, decision.state);
    }
    return { kind: "decided", decision, refresh };
  }
  // Most calls change nothing: decided on the state read already, they need no lock and no second
  // read (a write that lands meanwhile is the next call's to see, as one just after would be);
  // under the lock, that decision stands while the state is still the one it was made on.
  const early = !input.dry && input.known && input.seen
    ? input.decide(input.seen, true)
    : undefined;
  if (early && !early.cause && canonical(early.state) === canonical(input.seen!)) {
    return { kind: "decided", decision: early, refresh: undefined };
  }
  if (input.dry) return await step();
  const problem = input.known ? undefined : preparePrivateDir(input.stateDir);
  if (problem) return { kind: "failed", reason: problem.error };
  return await withLock(input.paths.lock, step);
}

/** `state` as JSON with its keys sorted, so that key order does not matter. */
function canonical(state: State): string {
  return JSON.stringify(
    state,
    (_, value) =>
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
        : value,
  );
}
