/**
 * The Codex reader on rollouts real Codex 0.171.0 wrote (tests/fixtures/codex/README.md), cut
 * where each hook found them: what the hook can see of the response that made its call.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { refreshHeader } from "../../../src/core/header.ts";
import {
  rolloutHistoryOf,
  rolloutReceiptsOf,
  rolloutViewOf,
} from "../../../src/io/codex_rollout.ts";
import { ROOT } from "../../_helpers.ts";
import { memory } from "./_io.ts";

const ROLLOUTS = join(ROOT, "tests", "fixtures", "codex", "rollouts");

/** The rollout's first `lines` lines, as the hook found the file. */
function rollout(name: string, lines?: number, release = "0.171.0") {
  const all = Deno.readTextFileSync(join(ROLLOUTS, `recorded-${release}-${name}.jsonl`));
  return memory(lines === undefined ? all : all.split("\n").slice(0, lines));
}

const view = (name: string, lines: number | undefined, call?: string, release = "0.171.0") => {
  const { source, size } = rollout(name, lines, release);
  return rolloutViewOf(source, size, { toolUseId: call, sidechainFile: false });
};

Deno.test("each hook sees the input tokens of the response that made its call, and the window", () => {
  const cases = [[13, "call_2", 50_000], [19, "call_4", 62_000], [25, "call_6", 110_000]] as const;
  for (const [lines, call, tokens] of cases) {
    const usage = view("basic", lines, call).usage;
    assertEquals([usage?.tokens, usage?.window, usage?.matched], [tokens, 190_000, true], call);
  }
});

Deno.test("a response completed after its command: the call is there, its usage not yet", () => {
  const first = view("late", 12, "call_2");
  // Nothing yet says this Codex records a response's usage before the hook: no wait.
  assertEquals([first.usage, first.callPresent, first.ownUsageDue], [undefined, false, undefined]);
  const second = view("late", 18, "call_4");
  // The previous response's count, not this call's: the hook waits for its own.
  assertEquals(
    [second.usage?.tokens, second.usage?.matched, second.ownUsageDue],
    [50_000, false, true],
  );
  // 1.5 s later its token_usage_record is written: the wait finds it.
  const later = view("late", 20, "call_4").usage;
  assertEquals([later?.tokens, later?.matched], [62_000, true]);
});

Deno.test("a compacted line newer than any usage: no reading yet; after it, the new context's", () => {
  // SessionStart(compact) ran when the file held 38 lines: the compacted line and a count of 0.
  const atReset = view("compact", 38);
  assert(atReset.markerAfterUsage !== undefined);
  assertEquals(atReset.usage, undefined);
  const { source, size } = rollout("compact");
  const whole = rolloutViewOf(source, size, { sidechainFile: false, markersFrom: 0 });
  assertEquals(whole.usage?.tokens, 35_000);
  assert(whole.markerSince !== undefined && whole.markerSince === atReset.markerAfterUsage);
});

/** The basic rollout with its first PostToolUse answer's text replaced by `text`. */
function withAnswer(text: string): string {
  const lines = Deno.readTextFileSync(join(ROLLOUTS, "recorded-0.171.0-basic.jsonl")).split("\n");
  const at = lines.findIndex((l, i) => i > 7 && l.includes("hooks.additional_context"));
  const entry = JSON.parse(lines[at]!);
  entry.payload.content[0].text = text;
  lines[at] = JSON.stringify(entry);
  return lines.join("\n");
}

Deno.test("Codex's record of an answer is the receipt of the call whose output follows it", () => {
  const token = "0a1b2c3d";
  const header = refreshHeader({ kind: "thresholds", thresholds: [30], percent: 31 }, token);
  const { source, size } = memory(withAnswer(`${header}\n- a rule`));
  const evidence = rolloutReceiptsOf(source, size, { from: 0, calls: ["call_2", "call_4"], token });
  assertEquals(Object.keys(evidence.answers), ["call_2"]);
  assert(evidence.results["call_2"]! > evidence.answers["call_2"]![0]!);
  assertEquals(evidence.records, true);
  const other = rolloutReceiptsOf(source, size, { from: 0, calls: ["call_2"], token: "ffffffff" });
  assertEquals(other.answers, {});
  assertEquals(rolloutHistoryOf(source, size, token).refreshed, [30]);
});

Deno.test("the history stops at the newest compaction", () => {
  const { source, size } = rollout("compact");
  const history = rolloutHistoryOf(source, size, "0a1b2c3d");
  assert(history.marker !== undefined);
  assertEquals(history.refreshed, []);
});

Deno.test("0.150.0 writes no token_usage_record: the hook reads the previous count, and waits for none", () => {
  // call_4's function call and its item_completed: its output and count come after the hook.
  const seen = view("basic", 14, "call_4", "0.150.0");
  assertEquals(
    [seen.usage?.tokens, seen.usage?.window, seen.usage?.matched, seen.ownUsageDue],
    [50_000, 190_000, false, undefined],
  );
});
