import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { crossed } from "./_inputs.ts";
import {
  formatTokens,
  parseRefreshHeader,
  refreshHeader,
  refreshLabelOf,
} from "../../../src/core/header.ts";

const token = "0a1b2c3d";
type Cause = Parameters<typeof refreshHeader>[0];
Deno.test("refreshHeader() names what fired and the reading; parseRefreshHeader() and refreshLabelOf() read it back with the session token only", async (t) => {
  const cases: [string, Cause, string][] = [
    [
      "thresholds, percent and window",
      crossed([30, 52], { percent: 53.9, window: 200_000 }),
      "[lessons-reinject refresh 30,52 ref=0a1b2c3d] Context refresh at 53% of the 200k-token",
    ],
    [
      "tool-count refreshes name no threshold",
      { kind: "toolCount", calls: 40 },
      "[lessons-reinject refresh calls:40 ref=0a1b2c3d] Periodic refresh after 40 tool calls",
    ],
    [
      "a compaction has its own header",
      { kind: "compaction", thresholds: [] },
      "[lessons-reinject refresh compact ref=0a1b2c3d] The context was just compacted",
    ],
    [
      "a token count on a 200k window: the tokens first",
      crossed([60_000], { percent: 30.5, window: 200_000, tokens: 61_000 }),
      "[lessons-reinject refresh 60k ref=0a1b2c3d] Context refresh at 61,000 tokens (30% of the " +
      "200k-token context window)",
    ],
    [
      "a percentage and a token count together",
      crossed([30, 60_000], { percent: 30.5, window: 200_000, tokens: 61_000 }),
      "[lessons-reinject refresh 30,60k ref=0a1b2c3d] Context refresh at 61,000 tokens (30% of",
    ],
    [
      "percentages of the span before an early compaction",
      crossed([30], { percent: 12.5, window: 1e6, span: 400_000, tokens: 125_000 }),
      "[lessons-reinject refresh 30 ref=0a1b2c3d] Context refresh at 31% of the 400k tokens " +
      "measured before auto-compaction (125,000 tokens of the 1M-token context window)",
    ],
  ];
  for (const [name, cause, starts] of cases) {
    await t.step(name, () => {
      const header = refreshHeader(cause, token);
      ok(header.startsWith(starts), header);
      // A compaction's header is no threshold's: no threshold parser believes it.
      const names = cause.kind === "thresholds"
        ? [...cause.thresholds]
        : cause.kind === "toolCount"
        ? []
        : undefined;
      // refreshLabelOf() reads back the label the header starts with, whatever the cause.
      const label = /refresh (\S+) ref=/.exec(starts)![1];
      const read = (text: string, by: string) => [
        parseRefreshHeader(text, by),
        refreshLabelOf(text, by),
      ];
      assertEquals(read(header + "\n\nbody", token), [names, label]);
      assertEquals(read(header, "ffffffff"), [undefined, undefined], "another token is not ours");
      assertEquals(
        read(`see ${header}`, token),
        [undefined, undefined],
        "quoted: not at the start",
      );
    });
  }
  await t.step("a whole percentage crossed is never stated as less than its name", () => {
    for (let tokens = 59_000; tokens <= 61_000; tokens += 7) {
      const percent = (tokens * 100) / 200_000;
      if (percent < 30) continue;
      const header = refreshHeader(crossed([30], { percent, window: 200_000 }), token);
      ok(/at 30% of/.test(header), header);
    }
  });
});

Deno.test("formatTokens() is short", () => {
  assertEquals([200_000, 1_000_000, 123_456, 900].map(formatTokens), ["200k", "1M", "123k", "900"]);
});

Deno.test("refreshHeader() names what it restates, for every cause", async (t) => {
  const causes: Cause[] = [
    crossed([30], { percent: 31, window: 200_000 }),
    { kind: "toolCount", calls: 20 },
    { kind: "compaction", thresholds: [] },
  ];
  const cases: [string, { lessons: unknown[]; blocks: unknown[] }, string][] = [
    ["lessons only", { lessons: [1], blocks: [] }, ": your standing directives and protocols from"],
    ["own rules only", { lessons: [], blocks: [1] }, ": your own standing rules, restated"],
    [
      "both",
      { lessons: [1], blocks: [1] },
      "directives and protocols from session start, and your own standing rules, restated",
    ],
  ];
  for (const [name, contents, says] of cases) {
    await t.step(name, () => {
      for (const cause of causes) {
        const header = refreshHeader(cause, token, contents);
        ok(header.includes(says), header);
        if (contents.lessons.length === 0) ok(!header.includes("directives"), header);
      }
    });
  }
});
