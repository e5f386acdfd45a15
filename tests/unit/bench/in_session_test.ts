/**
 * The in-session benchmark's pure parts: the scripted climb crosses each threshold on one call,
 * Claude Code's debug lines (captured from 2.1.328) give the hook durations, and a refresh is
 * attributed to the tool call whose result carried it.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import {
  crossingCalls,
  hookTimings,
  percentile,
  refreshesDelivered,
  tokensAt,
} from "../../../bench/in_session.ts";
import type { RecordedRequest } from "../../../scripts/loopback/api_stub.ts";
import { ROOT } from "../../_helpers.ts";

Deno.test("the scripted climb runs from 10 % to 77 % and crosses 30, 52 and 70 on calls 7, 13, 19", () => {
  assertEquals([tokensAt(0), tokensAt(19)], [20_000, 154_000]);
  assertEquals(crossingCalls(), [6, 12, 18]);
  for (const call of crossingCalls()) {
    // One threshold per crossing call: the call before it is below the same threshold.
    const before = (tokensAt(call - 1) / 200_000) * 100;
    const at = (tokensAt(call) / 200_000) * 100;
    assertEquals([30, 52, 70].filter((t) => before < t && at >= t).length, 1);
  }
});

Deno.test("hookTimings() reads Claude Code's own hook durations from --debug-file", () => {
  const log = Deno.readTextFileSync(
    join(ROOT, "tests", "fixtures", "debug-logs", "hooks-2.1.328.log"),
  );
  assertEquals(hookTimings(log), [{ event: "PostToolUse:Bash", status: 0, ms: 104 }]);
  assertEquals(hookTimings(log, "SessionStart:startup"), [
    { event: "SessionStart:startup", status: 0, ms: 18 },
  ]);
});

Deno.test("refreshesDelivered() attributes a refresh to the call whose result carried it", () => {
  const request = (messages: unknown[]): RecordedRequest => ({
    path: "/v1/messages",
    route: "main",
    at: 0,
    body: { messages },
  });
  const result = (id: string, extra: unknown[] = []) => ({
    role: "user",
    content: [{ type: "tool_result", tool_use_id: id, content: "ok" }, ...extra],
  });
  const reminder = {
    type: "text",
    text:
      "<system-reminder>PostToolUse:Bash hook additional context: [lessons-reinject refresh 30 ref=ab12]",
  };
  const delivered = refreshesDelivered([
    request([{ role: "user", content: "go" }, { role: "assistant", content: [] }, result("a")]),
    request([
      { role: "user", content: "go" },
      { role: "assistant", content: [] },
      result("a"),
      { role: "assistant", content: [] },
      result("b", [reminder]),
    ]),
  ]);
  assertEquals([...delivered], [["a", ""], ["b", "30"]]);
});

Deno.test("percentile() is the nearest rank", () => {
  assertEquals(percentile([5, 1, 4, 2, 3], 90), 5);
  assertEquals(percentile([5, 1, 4, 2, 3], 50), 3);
  assertEquals(Number.isNaN(percentile([], 50)), true);
});
