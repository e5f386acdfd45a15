/**
 * Step 4: the decision, made once, on the freshest state. Parallel tool calls each run a hook
 * process and a reset may land meanwhile, so the claim takes the context's lock, loads the state,
 * decides, renders the refresh at most once and saves. A dry run takes no lock and saves nothing.
 */
import type { Decision } from "../core/decide.ts";
import type { RefreshCause } from "../core/header.ts";
import type { State } from "../schemas/state.ts";
import {
  loadState,
  preparePrivateDir,
  type StatePaths,
  withLock,
  writeJsonAtomically,
} from "../io/state_store.ts";
import type { BuiltRefresh } from "./refresh.ts";

type Claimed =
  | { kind: "decided"; decision: Decision; refresh: BuiltRefresh | undefined }
  /** A reset landed after the reading was taken: the reading belongs to the context that ended. */
  | { kind: "raced" }
  | { kind: "failed"; reason: string };

interface ClaimInput {
  paths: StatePaths;
  stateDir: string;
  /** Without the lock and without saving. */
  dry: boolean;
  /**
   * The context's state file was there: its folder was made private and proven ours when it was
   * first saved, so the check that costs a probe file is skipped.
   */
  known?: boolean;
  /** The epoch the reading was taken in, for a tool call. */
  epoch?: number;
  decide: (state: State, found: boolean) => Decision;
  /** Renders the refresh a decision fires (undefined: not rendered here). */
  render?: ((cause: RefreshCause) => Promise<BuiltRefresh>) | undefined;
}

export async function claim(input: ClaimInput): Promise<Claimed> {
  // A declaration, not an async arrow: the bundle compiles it eagerly (scripts/eager_functions.ts).
  async function step(): Promise<Claimed> {
    const { kind, state } = loadState(input.paths.state);
    if (input.epoch !== undefined && (state.epoch ?? 0) !== input.epoch) return { kind: "raced" };
    const decision = input.decide(state, kind === "found");
    const refresh = decision.cause && input.render ? await input.render(decision.cause) : undefined;
    // A refresh that cannot be rendered is not recorded as given.
    const changed = kind !== "found" || canonical(decision.state) !== canonical(state);
    if (!input.dry && refresh?.kind !== "error" && changed) {
      writeJsonAtomically(input.paths.state, decision.state);
    }
    return { kind: "decided", decision, refresh };
  }
  if (input.dry) return await step();
  const problem = input.known ? undefined : preparePrivateDir(input.stateDir);
  if (problem) return { kind: "failed", reason: problem };
  return await withLock(input.paths.lock, step);
}

/** `state` as JSON with its keys sorted: equal states, whatever their key order, give one text. */
function canonical(state: State): string {
  return JSON.stringify(
    state,
    (_, value) =>
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
        : value,
  );
}
