/**
 * What a tool call's claim came to (src/hook.ts step 4): the decision, and the refresh given,
 * refused, or not needed, as the call's part of the trace and its answer.
 */
import { hookAnswer } from "../core/claude_code.ts";
import { isReading, type NoReading, type Reading } from "../core/reading.ts";
import type { HookPayload } from "../schemas/payload.ts";
import type { Claimed } from "./claim.ts";
import { failed } from "../core/result.ts";
import { describeReading, type Part, silent } from "./trace.ts";

/** What a tool call's claim came to: the decision, and the refresh given, refused or not needed. */
export function toolCallOutcome(
  claimed: Claimed,
  payload: HookPayload,
  reading: Reading | NoReading,
): Part {
  if (failed(claimed)) return silent(claimed.error);
  if (claimed.kind === "raced") return silent("a reset arrived meanwhile");
  const { decision, refresh } = claimed;
  const reason = isReading(reading)
    ? `${describeReading(reading)} → ${decision.reason}`
    : decision.reason;
  const { cause } = decision;
  if (!cause) return { result: "silent", reason, decision };
  if (refresh?.kind === "error") {
    // Nothing is sent, and nothing is recorded as sent.
    const refused = refresh.error;
    return { result: "silent", reason: `${reason}, but ${refused}`, decision, refused };
  }
  if (refresh?.kind === "reloaded") {
    // Settled and recorded: the next call does not try again.
    const reloaded = refresh.why;
    const said = `${reason}; nothing restated: ${reloaded}`;
    return { result: "silent", reason: said, decision, reloaded };
  }
  if (!refresh) return { result: "fired", reason, decision };
  const { account } = refresh;
  const answer = hookAnswer(payload.hook_event_name, account.text);
  return { result: "fired", reason, decision, refresh: account, answer };
}
