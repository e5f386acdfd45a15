/** One step of a decision, the shape decide.ts, receipts.ts and compaction_refresh.ts pass on. */
import type { RefreshCause } from "./header.ts";
import type { State } from "../schemas/state.ts";

/** What to refresh for, the state to write (undefined: none), and why. */
export interface Step {
  cause: RefreshCause | undefined;
  next: State | undefined;
  reason: string;
}
