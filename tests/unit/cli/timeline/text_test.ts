/** The timeline as text (src/cli/timeline/text.ts): width, colour, the marks and the lines. */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { binTimeline } from "../../../../src/cli/timeline/bins.ts";
import type { Timeline, TimelineEvent } from "../../../../src/cli/timeline/model.ts";
import { renderTimeline } from "../../../../src/cli/timeline/text.ts";
import { call, longSession, threeCompactions, timeline } from "./_session.ts";

// deno-lint-ignore no-control-regex
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");
const columns = (line: string) => [...plain(line)].length;
/** The chart's lines by their label: the first plot row, the axis and the two rows of marks. */
function chartLines(text: string) {
  const lines = text.split("\n");
  const at = (start: string) => lines.findIndex((l) => l.startsWith(start));
  const axis = at("      0└");
  return {
    plot: lines.slice(axis - 12, axis),
    axis: lines[axis] ?? "",
    context: lines[axis + 1] ?? "",
    refresh: lines[axis + 2] ?? "",
    calls: lines[axis + 3] ?? "",
  };
}
/** The column (from 0) of each non-blank character of `line`, as [column, character]. */
const marksOf = (line: string) =>
  [...line].flatMap((ch, i) => i >= 8 && ch !== " " ? [[i, ch]] : []);

/** A 20M window with thresholds whose labels are long: `123456` tokens, 12.3M. */
const huge: Timeline = {
  ...longSession(200),
  thresholds: [1, 123_456, 12_345_678],
  calls: longSession(200).calls.map((c, i) => ({
    ...c,
    tokens: 5_000_000 + i,
    window: 20_000_000,
  })),
};

Deno.test("renderTimeline() fills the width, from 80 columns on, no line wider; colour only when asked, adding nothing else", async (t) => {
  const cases: [Timeline, number, number][] = [
    [threeCompactions(), 40, 80],
    [threeCompactions(), 80, 80],
    [threeCompactions(), 160, 160],
    [longSession(2_000), 80, 80],
    [longSession(2_000), 213, 213],
    [huge, 80, 80],
  ];
  for (const [timeline, width, want] of cases) {
    await t.step(`${timeline.calls.length} calls at ${width} columns`, () => {
      const [bare, painted] = [false, true].map((color) =>
        renderTimeline(timeline, { width, color })
      );
      for (const text of [bare!, painted!]) {
        const widest = Math.max(...text.split("\n").map(columns));
        ok(widest <= want, `${widest} columns`);
        // The plot takes the whole width but for the labels (8 left, 6 right).
        assertEquals(columns(chartLines(plain(text)).axis), want - 6);
      }
      // Colour only when asked, and colour adds nothing else.
      ok(!bare!.includes("\x1b"), "no escape codes without colour");
      assertEquals(plain(painted!), bare);
      ok(painted!.includes("\x1b[36m█"), "the context is coloured");
      if (timeline.events.some((e) => e.kind === "resend")) {
        ok(
          painted!.includes("\x1b[31m!") || painted!.includes("\x1b[33mS"),
          "the re-send is coloured",
        );
      }
    });
  }
});

Deno.test("renderTimeline() marks each event in the column of its call", () => {
  // 10 calls in 66 columns: six a call, the mark in the first; call n starts at 8 + 6 (n - 1).
  const events: TimelineEvent[] = [
    { kind: "refresh", call: 2, thresholds: [30], delivery: "delivered" },
    { kind: "refresh", call: 4, thresholds: [52], delivery: "missed" },
    { kind: "resend", call: 5, refreshes: ["52"], delivery: "delivered" },
    { kind: "refresh", call: 6, thresholds: [70], delivery: "missed" },
    { kind: "resend", call: 6, refreshes: ["70"], delivery: "delivered" },
    { kind: "compaction", beforeCall: 7, trigger: "manual", preTokens: 150_000, restated: true },
    { kind: "restatement", call: "SessionStart", delivery: "pending" },
    { kind: "compaction", beforeCall: 9, trigger: undefined, preTokens: undefined, restated: true },
    { kind: "restatement", call: 9, delivery: "unchecked" },
    { kind: "window", call: 10, from: 200_000, to: 400_000, evidence: "a reading over 200k" },
    { kind: "refresh", call: 10, thresholds: [30], delivery: "delivered" },
    { kind: "resend", call: 10, refreshes: ["30"], delivery: "missed" },
  ];
  const readings = [20, 50, 70, 110, 112, 145, 30, 60, 40, 250].map((k) => k * 1_000);
  const calls = readings.map((tokens, i) => call(i + 1, tokens, i < 9 ? 200_000 : 400_000));
  const lines = chartLines(
    renderTimeline(timeline(calls, { events }), { width: 80, color: false }),
  );
  const column = (n: number) => 8 + 6 * (n - 1);
  assertEquals(marksOf(lines.context), [[column(7), "M"], [column(9), "?"], [column(10), "W"]]);
  // Several in one bin: a re-send before a miss, a miss before a refresh.
  assertEquals(marksOf(lines.refresh), [
    [column(2), "R"],
    [column(4), "!"],
    [column(5), "S"],
    [column(6), "S"],
    [column(7), "c"],
    [column(9), "c"],
    [column(10), "!"],
  ]);
  // The compaction's point, crossed in its column; none for the one whose point is unknown.
  const crosses = lines.plot.flatMap((l) => marksOf(l).filter(([, ch]) => ch === "×"));
  assertEquals(crosses.map(([at]) => at), [column(7)]);
  // Call numbers under their columns: the first, each quarter's first call and the last.
  const numbers = [...lines.calls.matchAll(/\d+/g)].map((m) => [m.index, m[0]]);
  const want = [[column(1), "1"], [column(3), "3"], [column(6), "6"], [column(8), "8"]];
  assertEquals(numbers, [...want, [column(10) + 4, "10"]]);
});

Deno.test("renderTimeline() draws the window as decided, with its step where it was proven", () => {
  const timeline = threeCompactions();
  const lines = chartLines(renderTimeline(timeline, { width: 80, color: false }));
  const bins = binTimeline(timeline, 66);
  const proven = bins.findIndex((b) => b.window === 1_000_000);
  const top = [...(lines.plot[0] ?? "")];
  const windowRow = lines.plot.findIndex((l) => l.startsWith("   200k┤━"));
  ok(windowRow > 0, "the 200k window is labelled and drawn from the first column");
  assertEquals(top[8 + proven - 1], " ");
  assertEquals(top.slice(8 + proven, 8 + bins.length).join(""), "━".repeat(bins.length - proven));
  ok(top.join("").endsWith(" 1M"), "the last window labelled at the right");
});

Deno.test("renderTimeline() moves a percentage threshold with the span, never past the window", () => {
  // Linear, 200k: the 70 % line at 140k (row 8) while the span is 200k, at 70k (row 4) once 100k.
  const calls = Array.from(
    { length: 66 },
    (_, i) => call(i + 1, 60_000, 200_000, i < 33 ? 200_000 : 100_000),
  );
  const session = timeline(calls, { thresholds: [70, 300_000] });
  const plot = chartLines(renderTimeline(session, { width: 80, color: false })).plot;
  const rowOf = (cell: number) => 11 - plot.findIndex((l) => [...l][8 + cell] === "┄");
  assertEquals([rowOf(0), rowOf(32), rowOf(33), rowOf(65)], [8, 8, 4, 4]);
  ok(plot[11 - 4]?.endsWith(" 70%"));
  ok(plot.every((l) => !l.includes("300k")), "a token threshold past the window is not drawn");
});

Deno.test("renderTimeline() says what was left out, and copes with an empty session", () => {
  const text = renderTimeline(threeCompactions(), { width: 80, color: false });
  ok(text.replace(/\n/g, " ").includes("2 subagent transcripts left out of the chart"));
  ok(text.replace(/\n/g, " ").includes("square-root scale"));
  const empty = renderTimeline({ ...threeCompactions(), calls: [], events: [], subagents: 1 }, {
    width: 80,
    color: false,
  });
  ok(empty.includes("0 tool calls") && empty.includes("1 subagent transcript left out"));
  ok(empty.includes("No tool calls to chart.") && empty.includes("No refreshes, compactions"));
});

Deno.test("renderTimeline() lists each event with its call's time, tool and reading", () => {
  const lines = renderTimeline(threeCompactions(), { width: 120, color: false }).split("\n");
  const start = lines.findIndex((l) => l.startsWith("call  time"));
  const list = lines.slice(start + 1).filter((l) => l !== "");
  const want = [
    /^ {2}42 {2}09:13:40 {2}Edit +60,450 30% {2}refresh 30%, 60k: delivered$/,
    /^ +auto compaction at 167,000 tokens, before call 151$/,
    /^ {16}SessionStart +rules restated after the compaction \(at SessionStart\): delivered$/,
    /^ 243 {2}10:20:40 {2}Grep +104,094 52% {2}refresh 52%: missed$/,
    /^ 244 {2}10:21:00 {2}mcp__github__create… +104,899 52% {2}sent again \(52%\): delivered$/,
    /^ 320 {2}10:46:20 {2}Bash +210,000 21% {2}window 200k to 1M: a reading of 210,000 tokens is more than 200k$/,
    /^ 516 {2}11:51:40 {2}Read +61,212 6% {2}refresh 60k: not recorded yet$/,
  ];
  for (const pattern of want) {
    ok(list.some((l) => pattern.test(l)), `${pattern} in\n${list.join("\n")}`);
  }
  assertEquals(list.length, threeCompactions().events.length);
  // Every description starts in one column, a compaction's (no call, no reading) too.
  const column = list[0]?.indexOf("refresh");
  ok(list.every((l) => /^ *$/.test(l.slice(column! - 2, column)) && l[column!] !== " "));
});
