/** cli/help.ts `wrap`: a word wider than the line breaks after a `/`, else stays whole. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { wrap } from "../../../src/cli/help.ts";

Deno.test("wrap: a path breaks after a / or not at all, never inside a name", () => {
  const name = "rollout-2026-12-07T10-00-00-019af3c2-7d41-7b52-9e8f-0c5e2d1a4b6f.jsonl";
  const cases: [string, number, string[]][] = [
    [`at /home/u/.codex/sessions/${name} ok`, 40, ["at", "/home/u/.codex/sessions/", name, "ok"]],
    [`${name} x`, 20, [name, "x"]],
    ["a b c", 3, ["a b", "c"]],
  ];
  for (const [text, width, lines] of cases) assertEquals(wrap(text, width), lines, text);
});
