/**
 * Step 4: the decision, made once, on the freshest state: parallel tool calls and resets race, so
 * under the context's lock it loads, decides (and renders, at most once) and saves (a dry run:
 * neither). What the decision and its refresh are is src/hook.ts's; this step only keeps them.
 */
import type { Decision } from "../core/decide.ts";
import type { State } from "../schemas/state.ts";
import {
  loadState,
  preparePrivateDir,
  type StatePaths,
  withLock,
  writeJsonAtomically,
} from "../io/state_store.ts";
import type { BuiltRefresh } from "./refresh.ts";
import type { Result } from "../core/result.ts";

/** The decision kept, or a reset that raced it, or why the state folder cannot be used. */
export type Claimed = Result<
  | { kind: "decided"; decision: Decision; refresh: BuiltRefresh | undefined }
  | { kind: "raced" } // a reset landed after the reading: it belongs to the context that ended
>;

type Decided = { decision: Decision; refresh?: BuiltRefresh | undefined };

interface ClaimInput {
  paths: StatePaths;
  stateDir: string;
  dry: boolean;
  /** The state file was there: its folder was proven private then, so no probe file now. */
  known?: boolean;
  epoch?: number; // a tool call's reading's
  /** The state as the call loaded it before the lock (a tool call's), decided on first. */
  seen?: State;
  /** The decision on the state as loaded, and the refresh it renders (src/hook.ts). */
  decide: (state: State, found: boolean) => Promise<Decided> | Decided;
}

export async function claim(input: ClaimInput): Promise<Claimed> {
  let early: Decided | undefined;
  // A declaration, not an async arrow: the bundle compiles it eagerly (scripts/eager_functions.ts).
  async function step(): Promise<Claimed> {
    const { kind, state } = loadState(input.paths.state);
    if (input.epoch !== undefined && (state.epoch ?? 0) !== input.epoch) return { kind: "raced" };
    const same = early && kind === "found" && canonical(state) === canonical(input.seen!);
    const { decision, refresh } = same ? early! : await input.decide(state, kind === "found");
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
  if (!input.dry && input.known && input.seen) {
    early = await input.decide(input.seen, true);
    const { decision } = early;
    if (!decision.cause && canonical(decision.state) === canonical(input.seen)) {
      return { kind: "decided", decision, refresh: undefined };
    }
  }
  if (input.dry) return await step();
  const problem = input.known ? undefined : preparePrivateDir(input.stateDir);
  if (problem) return problem;
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
