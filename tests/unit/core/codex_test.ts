import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { autoCompactLimitOf, isRolloutPath } from "../../../src/core/codex.ts";

Deno.test("autoCompactLimitOf() reads the top-level key of a config.toml, not a table's", () => {
  const cases: [string, number | undefined][] = [
    ['model = "gpt-5.5"\nmodel_auto_compact_token_limit = 100_000\n', 100_000],
    ["model_auto_compact_token_limit = 90000 # tokens\n[x]\n", 90_000],
    ["[profiles.a]\nmodel_auto_compact_token_limit = 5000\n", undefined],
    ['model_auto_compact_token_limit = "a lot"\n', undefined],
    ["", undefined],
  ];
  for (const [toml, limit] of cases) assertEquals(autoCompactLimitOf(toml), limit, toml);
});

Deno.test("a rollout is known by its file name", () => {
  const cases: [string | undefined, boolean][] = [
    ["/h/.codex/sessions/2026/12/04/rollout-2026-12-04T22-34-57-a.jsonl", true],
    ["C:\\u\\.codex\\sessions\\rollout-x.jsonl", true],
    ["/h/.claude/projects/p/rollout-notes/0b1c.jsonl", false],
    [undefined, false],
  ];
  for (const [path, rollout] of cases) assertEquals(isRolloutPath(path), rollout, path);
});
