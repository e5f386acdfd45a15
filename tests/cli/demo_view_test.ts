/** The demo's presentation: rows in, lines out, within 100 columns, colour only when asked. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import {
  DEMO_WIDTH,
  demoLines,
  type DemoView,
  listPercents,
  useColor,
  wrap,
} from "../../src/cli/demo_view.ts";

Deno.test("useColor() colours a terminal unless NO_COLOR asks for none", () => {
  assertEquals(useColor(true, false), true);
  assertEquals(useColor(true, true), false);
  assertEquals(useColor(false, false), false);
  assertEquals(useColor(false, true), false);
});

Deno.test("listPercents() writes a list of percentages in words", () => {
  assertEquals(listPercents([]), "");
  assertEquals(listPercents([30]), "30%");
  assertEquals(listPercents([30, 52]), "30% and 52%");
  assertEquals(listPercents([30, 52, 70]), "30%, 52% and 70%");
});

Deno.test("wrap() breaks at spaces and cuts a word longer than the width", () => {
  assertEquals(wrap("short", 10), ["short"]);
  assertEquals(wrap("aaa bbb ccc", 7), ["aaa bbb", "ccc"]);
  assertEquals(wrap("x".repeat(12), 5), ["xxxxx", "xxxxx", "xx"]);
  assertEquals(wrap("ab " + "y".repeat(7), 5), ["ab", "yyyyy", "yy"]);
  // Widths count characters, not UTF-16 units or bytes.
  assertEquals(wrap("→→→ →→", 3), ["→→→", "→→"]);
});

const LONG = "word ".repeat(60).trim();
const view: DemoView = {
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

Deno.test("demoLines() keeps long reasons, tool names and injected lines within 100 columns", () => {
  for (const full of [false, true]) {
    for (const color of [false, true]) {
      const lines = demoLines(view, { full, color });
      // deno-lint-ignore no-control-regex
      const visible = lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""));
      assertEquals(visible.filter((l) => [...l].length > DEMO_WIDTH), [], `full ${full}`);
      assertEquals(lines.some((l) => l.includes("\x1b[")), color);
    }
  }
});

Deno.test("demoLines() names what a refresh crossed and how much went in", () => {
  const text = demoLines(view, { full: false, color: false }).join("\n");
  assert(text.includes("refresh: 71% crossed 30%, 52% and 70%, so "), text);
  assert(text.includes("1 refresh over 2 tool calls, at 71%"), text);
  assert(text.includes("quiet: word word"), text);
  assert(text.includes("... 2 more lines (--full shows them)"), text);
  assert(!demoLines(view, { full: true, color: false }).join("\n").includes("more lines"));
});
