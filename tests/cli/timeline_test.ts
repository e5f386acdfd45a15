/**
 * `status --timeline` on whole sessions, as a subprocess: every mark comes from the hook's own
 * replayed decisions. Three sessions: three compactions (a real 2.1.185 skeleton), a window proven
 * 1M part-way, a refresh Claude Code did not deliver and the hook sent again (a real 2.1.328
 * recording). The SVG, parsed as XML, carries the same events as `--json`.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { entries, RECORDINGS, skeletonTranscript, writeTranscript } from "../_helpers.ts";
import { cliOk, home } from "./_cli.ts";
import { eventOf, parse } from "../unit/cli/timeline/_svg.ts";

/** `status --timeline --json` of `transcript` (with `more` arguments), parsed. */
async function timeline(transcript: string, env: Record<string, string>, more: string[] = []) {
  const args = ["status", "--timeline", "--json", "--transcript", transcript, ...more];
  const run = await cliOk(args, env);
  return JSON.parse(run.stdout) as {
    calls: { call: number; tokens: number | null; window: number | null; large: boolean }[];
    events: Record<string, unknown>[];
    subagents: number;
    thresholds: number[];
    cadence: number[];
  };
}

Deno.test("status --timeline: three compactions, each refresh and each restatement on its call; --svg marks the same", async () => {
  const box = home();
  const path = skeletonTranscript("v2.1.185-three-compact-boundaries.jsonl");
  const svgPath = join(box.dir, "chart.svg");
  const t = await timeline(path, box.env, ["--svg", svgPath]);
  const compactions = t.events.filter((e) => e.kind === "compaction");
  assertEquals(compactions.map((e) => [e.trigger, e.preTokens]), [
    ["auto", 169_486],
    ["auto", 167_345],
    ["auto", 167_720],
  ]);
  // Before each compaction 30, 52 and 70 fired; after it, SessionStart restated the rules.
  const refreshed = t.events.filter((e) => e.kind === "refresh").map((e) => e.thresholds);
  assertEquals(refreshed.slice(0, 3), [[30], [52], [70]]);
  assertEquals(t.events.filter((e) => e.kind === "restatement").length >= 3, true);
  // Every call has the window the hook measured it against.
  ok(t.calls.every((c) => c.tokens === null || c.window === 200_000));
  // The SVG parses as XML and marks the same events as --json.
  const marks = parse(Deno.readTextFileSync(svgPath)).filter((e) => e.hasAttribute("data-kind"));
  assertEquals(marks.map(eventOf), t.events);
  // --svg alone is the timeline's: it implies --timeline, and writes the same chart.
  const alone = join(box.dir, "alone.svg");
  await cliOk(["status", "--transcript", path, "--svg", alone], box.env);
  assertEquals(Deno.readTextFileSync(alone), Deno.readTextFileSync(svgPath));
});

Deno.test("status --timeline: a window proven 1M part-way is drawn as the hook decided it", async () => {
  const { transcript, ...box } = home();
  writeTranscript(
    transcript,
    [70_000, 150_000, 250_000, 310_000].map((tokens, i) =>
      entries.assistant(tokens, [`toolu_w${i}`], { model: "claude-sonnet-4-6" })
    ),
  );
  const t = await timeline(transcript, box.env);
  assertEquals(t.calls.map((c) => c.window), [200_000, 200_000, 1_000_000, 1_000_000]);
  const window = t.events.find((e) => e.kind === "window");
  assertEquals([window?.call, window?.from, window?.to], [3, 200_000, 1_000_000]);
  // 30, 52 and 70 land at 60k, 104k and 140k on either window; past them, every 40k on 1M.
  const refreshed = t.events.filter((e) => e.kind === "refresh").map((e) => [e.call, e.thresholds]);
  assertEquals(refreshed, [[1, [30]], [2, [52, 70]], [3, [180_000, 220_000]], [4, [
    260_000,
    300_000,
  ]]]);
  // Each of them is a threshold line, the cadence's drawn only from the call that proved 1M.
  assertEquals(t.thresholds.slice(0, 3), [30, 52, 70]);
  assertEquals(t.cadence.slice(0, 3), [180_000, 220_000, 260_000]);
  assertEquals(t.calls.map((c) => c.large), [false, false, true, true]);
});

Deno.test("status --timeline: a refresh Claude Code did not deliver, and its re-send", async () => {
  const box = home();
  const path = join(RECORDINGS, "recorded-2.1.328-hook-cancelled.jsonl");
  const t = await timeline(path, box.env);
  const marks = t.events.map((e) => [e.kind, e.call, e.delivery]);
  assertEquals(marks, [["refresh", 2, "missed"], ["resend", 3, "delivered"]]);
});
