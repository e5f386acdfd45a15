/**
 * The in-session benchmark's pure parts: the replayed climb crosses each threshold on one call,
 * Claude Code's debug lines (captured from 2.1.328) give the hook durations, and a refresh is
 * attributed to the tool call whose result carried it.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import {
  benchCalls,
  benchSteps,
  callsAnsweredEarly,
  crossingCalls,
  hookTimings,
  percentile,
  READINGS,
  refreshesDelivered,
} from "./in_session.ts";
import { backedSteps, MAX_BACKED_TOKENS } from "../scripts/loopback/backed_steps.ts";
import type { RecordedRequest } from "../scripts/loopback/api_stub.ts";
import { ROOT } from "../scripts/project.ts";
import { entries } from "../tests/_helpers.ts";

Deno.test("the replayed climb runs from 15 % to 82 % and crosses 30, 52 and 70 once each", () => {
  assertEquals([READINGS[0], READINGS.at(-1), READINGS.length], [29_842, 164_096, 37]);
  assertEquals(crossingCalls(), [3, 18, 25]);
  for (const call of crossingCalls()) {
    // One threshold per crossing response: the one before it is below the same threshold.
    const before = (READINGS[call - 1]! / 200_000) * 100;
    const at = (READINGS[call]! / 200_000) * 100;
    assertEquals([30, 52, 70].filter((t) => before < t && at >= t).length, 1);
  }
});

Deno.test("every step prints what carries the next reading; the largest takes two calls", () => {
  const steps = benchSteps();
  // 103,277 → 125,946: 22,669 tokens, more than one Bash result passes inline.
  assertEquals(steps.filter((s) => Array.isArray(s.id)).map((s) => s.id), [[
    "toolu_bench18a",
    "toolu_bench18b",
  ]]);
  // backedSteps throws when one call would print more than Claude Code passes inline.
  const script = backedSteps(steps, READINGS.at(-1)! + 500);
  assertEquals(script.length, READINGS.length + 1);
  const { ids, crossing } = benchCalls();
  assertEquals(ids.length, 38);
  assertEquals([...crossing], [
    ["toolu_bench04", "30"],
    ["toolu_bench19", "52"],
    ["toolu_bench26", "70"],
  ]);
  assertEquals(READINGS.slice(1).every((t, i) => t - READINGS[i]! <= 2 * MAX_BACKED_TOKENS), true);
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

Deno.test("callsAnsweredEarly() names the calls whose ceiling rules every crossing out", () => {
  // Built from real 2.1.328 lines: readings 20k, 30k, 50k, 62k of a 200k window.
  const lines = [["a", 20_000], ["b", 30_000], ["c", 50_000], ["d", 62_000]].flatMap((
    [id, tokens],
  ) => [entries.assistant(tokens as number, [id as string]), entries.toolResult(id as string)]);
  const transcript = new TextEncoder().encode(
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  // a: no reading before it; b and c: far below 30 %; d: 50,000 + margin reaches 30 %.
  assertEquals(callsAnsweredEarly(transcript, ["a", "b", "c", "d"]), ["b", "c"]);
});
