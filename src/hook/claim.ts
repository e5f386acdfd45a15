/**
 * Step 5: the decision, made once, on the freshest state. Parallel tool calls each run a hook
 * process, and a reset may land meanwhile, so the hook takes the context's lock, loads the state,
 * decides, renders the refresh at most once and saves. A dry run does the same without the lock
 * and without saving.
 */
import type { Decision } from "../core/decide.ts";
import type { RefreshCause } from "../core/header.ts";
import { EMPTY_STATE } from "../schemas/guards.ts";
import type { State } from "../schemas/state.ts";
import {
  loadState,
  preparePrivateDir,
  saveState,
  type StatePaths,
  withLock,
} from "../io/state_store.ts";
import type { BuiltRefresh } from "./refresh.ts";

/** What the claim came to. */
export type Claimed =
  | {
    kind: "decided";
    decision: Decision;
    refresh: BuiltRefresh | undefined;
    stateFile: "found" | "missing" | "corrupt";
    before: State;
  }
  /** A reset landed after the reading was taken: it belongs to the context that ended. */
  | { kind: "raced" }
  | { kind: "failed"; reason: string };

export interface ClaimInput {
  paths: StatePaths;
  stateDir: string;
  /** Without the lock and without saving. */
  dry: boolean;
  /** The epoch the reading was taken in, for a tool call. */
  epoch?: number | undefined;
  decide: (state: State, found: boolean) => Decision;
  /** Renders the refresh a decision fires (undefined: not rendered here). */
  render?: ((cause: RefreshCause) => Promise<BuiltRefresh>) | undefined;
}

/** Decides on the freshest state and, unless dry, saves what follows. */
export async function claim(input: ClaimInput): Promise<Claimed> {
  async function step(): Promise<Claimed> {
    const loaded = loadState(input.paths.state);
    const before = loaded.kind === "found" ? loaded.state : EMPTY_STATE;
    if (input.epoch !== undefined && (before.epoch ?? 0) !== input.epoch) return { kind: "raced" };
    const decision = input.decide(before, loaded.kind === "found");
    const refresh = decision.cause && input.render ? await input.render(decision.cause) : undefined;
    // A refresh that cannot be rendered is not recorded as given.
    const changed = loaded.kind !== "found" || !sameState(decision.state, before);
    if (!input.dry && refresh?.kind !== "error" && changed) {
      saveState(input.paths.state, decision.state);
    }
    return { kind: "decided", decision, refresh, stateFile: loaded.kind, before };
  }
  if (input.dry) return await step();
  const problem = preparePrivateDir(input.stateDir);
  if (problem) return { kind: "failed", reason: problem };
  return await withLock(input.paths.lock, step);
}

/** The same state, whatever the order of its keys. */
function sameState(a: State, b: State): boolean {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : typeof value === "object" && value !== null
      ? Object.fromEntries(
        Object.entries(value).sort(([x], [y]) => (x < y ? -1 : 1)).map((
          [k, v],
        ) => [k, canonical(v)]),
      )
      : value;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
