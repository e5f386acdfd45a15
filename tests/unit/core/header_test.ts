import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  formatTokens,
  parseRefreshHeader,
  refreshHeader,
  refreshLabelOf,
} from "../../../src/core/header.ts";

Deno.test("refreshHeader() and parseRefreshHeader() round-trip with the session token only", async (t) => {
  const token = "0a1b2c3d";
  const header = refreshHeader({
    kind: "thresholds",
    thresholds: [30, 52],
    percent: 53.9,
    window: 200_000,
  }, token);
  await t.step("names thresholds, percent and window", () => {
    ok(
      header.startsWith(
        "[lessons-reinject refresh 30,52 ref=0a1b2c3d] Context refresh at 53% of the 200k-token",
      ),
    );
  });
  await t.step(
    "parses back",
    () => assertEquals(parseRefreshHeader(header + "\n\nbody", token), [30, 52]),
  );
  await t.step(
    "another token is not ours",
    () => assertEquals(parseRefreshHeader(header, "ffffffff"), undefined),
  );
  await t.step(
    "a quoted header is not at the start",
    () => assertEquals(parseRefreshHeader(`see ${header}`, token), undefined),
  );
  await t.step("tool-count refreshes name no threshold", () => {
    const counted = refreshHeader({ kind: "toolCount", calls: 40 }, token);
    ok(
      counted.startsWith(
        "[lessons-reinject refresh calls:40 ref=0a1b2c3d] Periodic refresh after 40 tool calls",
      ),
    );
    assertEquals(parseRefreshHeader(counted, token), []);
  });
});

Deno.test("formatTokens() is short", () => {
  assertEquals([
    formatTokens(200_000),
    formatTokens(1_000_000),
    formatTokens(123_456),
    formatTokens(900),
  ], [
    "200k",
    "1M",
    "123k",
    "900",
  ]);
});

Deno.test("refreshLabelOf() names what any of this session's refreshes answers", () => {
  const token = "0a1b2c3d";
  const cases: [Parameters<typeof refreshHeader>[0], string][] = [
    [{ kind: "thresholds", thresholds: [30, 52], percent: 53 }, "30,52"],
    [{ kind: "toolCount", calls: 20 }, "calls:20"],
    [{ kind: "compaction", thresholds: [30] }, "compact"],
  ];
  for (const [cause, label] of cases) {
    assertEquals(refreshLabelOf(refreshHeader(cause, token), token), label);
    assertEquals(refreshLabelOf(refreshHeader(cause, token), "ffffffff"), undefined);
  }
  assertEquals(refreshLabelOf(`quoted: ${refreshHeader(cases[0]![0], token)}`, token), undefined);
});
