import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  autoCompactLimitOf,
  DEFAULT_COMPACT_SHARE,
  isRolloutPath,
} from "../../../src/core/codex.ts";
import { compactionPoint } from "../../../src/core/compaction_point.ts";

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

Deno.test("a host's own compaction rule sets the point: a limit, or a share of the stated window", () => {
  const host = { share: DEFAULT_COMPACT_SHARE, source: "Codex's default", evidence: "e" };
  const point = compactionPoint({ window: 190_000, env: { host } });
  assertEquals(point.kind === "point" && [point.tokens, point.source], [
    180_000,
    "Codex's default",
  ]);
  const set = compactionPoint({
    window: 190_000,
    env: { host: { tokens: 100_000, source: "s", evidence: "e" } },
  });
  assertEquals(set.kind === "point" && set.tokens, 100_000);
  // Without it, Claude Code's rule, unchanged: 13,000 below the window less 20,000.
  const claude = compactionPoint({ window: 190_000, env: {} });
  assertEquals(claude.kind === "point" && claude.tokens, 157_000);
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
