/** The demo's presentation: rows in, lines out, within the width given, colour only when asked. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { widthOf, wrap } from "../../src/cli/common.ts";
import { demoLines, type DemoView } from "../../src/cli/demo_view.ts";

type Replay = Pick<DemoView, "model" | "window" | "thresholds" | "rows">;
type DemoViewOptions = Omit<DemoView, keyof Replay>;
const show = (replay: Replay, options: DemoViewOptions) => demoLines({ ...replay, ...options });

Deno.test("wrap() breaks at spaces and cuts a word longer than the width", () => {
  assertEquals(wrap("short", 10), ["short"]);
  assertEquals(wrap("aaa bbb ccc", 7), ["aaa bbb", "ccc"]);
  assertEquals(wrap("x".repeat(12), 5), ["xxxxx", "xxxxx", "xx"]);
  assertEquals(wrap("ab " + "y".repeat(7), 5), ["ab", "yyyyy", "yy"]);
  // Widths count characters, not UTF-16 units or bytes.
  assertEquals(wrap("→→→ →→", 3), ["→→→", "→→"]);
  // A path longer than the width breaks after a slash where it can.
  assertEquals(wrap("see /home/me/.claude/projects/x.jsonl", 16), [
    "see",
    "/home/me/",
    ".claude/",
    "projects/x.jsonl",
  ]);
});

const LONG = "word ".repeat(60).trim();
const view: Replay = {
  model: "claude-sonnet-4-6",
  window: 200_000,
  thresholds: [30, 52, 70],
  rows: [
    {
      step: 1,
      event: "PostToolUse",
      tool: "Bash",
      tokens: 24_000,
      percent: 12,
      reason: LONG,
      crossed: [],
      text: null,
    },
    {
      step: 2,
      event: "PostToolUseFailure",
      tool: "mcp__a_very_long_server_name__and_tool",
      tokens: 142_000,
      percent: 71.2,
      reason: "",
      crossed: [30, 52, 70],
      text: `[header] ${LONG}\n\n${"z".repeat(300)}\nline 4\nline 5\nline 6\nline 7\nline 8`,
    },
  ],
};

/** Options for a checkout at `width` columns. */
const at = (width: number, more: Partial<DemoViewOptions> = {}): DemoViewOptions => ({
  full: false,
  color: false,
  width,
  program: "deno task hook",
  anywhere: "/home/me/lessons-reinject/hooks/run",
  readme: "README.md",
  ...more,
});
// deno-lint-ignore no-control-regex
const visible = (lines: string[]) => lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""));
const WIDTHS = [60, 80, 100, 140];

Deno.test("widthOf() takes the terminal's, then COLUMNS, then 100; never under 60", () => {
  assertEquals(widthOf(80, "132"), 80);
  assertEquals(widthOf(undefined, "132"), 132);
  assertEquals(widthOf(undefined, " 90 "), 90);
  assertEquals(widthOf(undefined, undefined), 100);
  assertEquals(widthOf(undefined, "wide"), 100);
  assertEquals(widthOf(undefined, "0"), 100);
  assertEquals(widthOf(0, undefined), 100, "a terminal that reports 0 columns");
  assertEquals(widthOf(40, undefined), 60);
  assertEquals(widthOf(undefined, "20"), 60);
});

Deno.test("demoLines() keeps long reasons, tool names and injected lines within the width, each gauge whole on one line", () => {
  for (const width of WIDTHS) {
    for (const full of [false, true]) {
      for (const color of [false, true]) {
        const what = `width ${width}, full ${full}, color ${color}`;
        const lines = show(view, at(width, { full, color }));
        const wide = visible(lines).filter((l) => [...l].length > width);
        assertEquals(wide, [], what);
        assertEquals(lines.some((l) => l.includes("\x1b[")), color);
        const bars = visible(lines).filter((l) => l.includes("[") && /[#.]{3}/.test(l));
        assertEquals(bars.length, view.rows.length, `${what}: one gauge per call`);
        for (const line of bars) {
          assert(/\[[#.|]+\] \d+%$/.test(line), `${what}: a broken gauge: ${line}`);
        }
      }
    }
  }
  // Room beside the figures: the gauge stays on the call's line; at 60 it gets a line of its own.
  const oneCall: Replay = { ...view, rows: [view.rows[0]!] };
  assert(/tokens {2}\[/.test(show(oneCall, at(80)).join("\n")));
  assert(!/tokens {2}\[/.test(show(oneCall, at(60)).join("\n")));
});

Deno.test("demoLines() ends with commands that work from where the user is, whole", () => {
  for (const width of WIDTHS) {
    const next = show(view, at(width)).join("\n").split("\nNext\n")[1] ?? "";
    // doctor is for the user's project: a command that runs from any folder.
    assert(next.includes("/home/me/lessons-reinject/hooks/run doctor"), next);
    assert(next.includes("deno task hook --help"), next);
    assert(next.includes("README.md"), next);
    assert(next.includes("/plugin marketplace add lessons-reinject/lessons-reinject\n"), next);
    assert(next.includes("/plugin install lessons-reinject@lessons-reinject\n"), next);
    assert(!next.includes("lessons-reinject --help"), "no such command on a checkout's PATH");
  }
  // An installed binary's path may be longer than the terminal: it stays whole, to be pasted.
  const binary = "/home/someone/.claude/plugins/cache/lessons-reinject/lessons-reinject/0.1.0/" +
    "dist/lessons-reinject-x86_64-unknown-linux-gnu";
  const lines = show(view, at(80, { program: binary, anywhere: binary, readme: undefined }));
  assert(lines.includes(`  ${binary} --help`), lines.slice(-8).join("\n"));
  assert(!lines.includes("README.md"));
});

Deno.test("demoLines() names what a refresh crossed and how much went in", () => {
  const text = show(view, at(100)).join("\n");
  // Lists of percentages in words: three, one, two.
  assert(text.includes("refresh: 71% crossed 30%, 52% and 70%, so "), text);
  assert(text.includes("1 refresh over 2 tool calls, at 71%"), text);
  const two = show({ ...view, thresholds: [30, 52] }, at(100)).join(" ");
  assert(two.includes("climbs past the thresholds, 30% and 52%."), two);
  assert(text.includes("quiet: word word"), text);
  assert(text.includes("... 2 more lines (--full shows them)"), text);
  assert(!show(view, at(100, { full: true })).join("\n").includes("more lines"));
});
