import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { flag, resolveConfig } from "../../../src/core/config.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("resolveConfig() defaults", () => {
  const { config, warnings } = resolveConfig(envOf({}));
  assertEquals(
    [config.thresholds, config.toolCountInterval, config.maxChars, config.debug, config.waitMs],
    [[30, 52, 70], 20, 9500, false, 250],
  );
  assertEquals(warnings, []);
});

Deno.test("resolveConfig() environment beats file beats defaults", () => {
  const file = { thresholds: [40, 60], toolCountInterval: 5, maxChars: 4000, debug: true };
  const fromFile = resolveConfig(envOf({}), file).config;
  assertEquals(
    [fromFile.thresholds, fromFile.toolCountInterval, fromFile.maxChars, fromFile.debug],
    [
      [40, 60],
      5,
      4000,
      true,
    ],
  );
  const fromEnv = resolveConfig(
    envOf({
      LESSONS_REINJECT_THRESHOLDS: "25",
      LESSONS_REINJECT_TOOL_COUNT: "7",
      LESSONS_DEBUG: "0",
    }),
    file,
  ).config;
  assertEquals([fromEnv.thresholds, fromEnv.toolCountInterval, fromEnv.debug], [[25], 7, false]);
});

Deno.test("resolveConfig() names invalid values and uses the next source", async (t) => {
  const cases: [string, Record<string, string>, RegExp][] = [
    [
      "tool count not a number",
      { LESSONS_REINJECT_TOOL_COUNT: "many" },
      /LESSONS_REINJECT_TOOL_COUNT="many" .* using 20/,
    ],
    ["tool count zero", { LESSONS_REINJECT_TOOL_COUNT: "0" }, /using 20/],
    [
      "max chars over the inline limit",
      { LESSONS_REINJECT_MAX_CHARS: "20000" },
      /would not be delivered inline .* using 10000/,
    ],
    ["bad thresholds", { LESSONS_REINJECT_THRESHOLDS: "x" }, /"x" is not a number/],
    ["bad window", { LESSONS_CONTEXT_WINDOW: "-5" }, /LESSONS_CONTEXT_WINDOW="-5"/],
  ];
  for (const [name, vars, pattern] of cases) {
    await t.step(name, () => {
      const { warnings } = resolveConfig(envOf(vars));
      assertEquals(warnings.length, 1);
      ok(pattern.test(warnings[0]!), warnings[0]);
    });
  }
  assertEquals(
    resolveConfig(envOf({ LESSONS_REINJECT_MAX_CHARS: "20000" })).config.maxChars,
    10_000,
  );
  assertEquals(
    resolveConfig(envOf({ LESSONS_CONTEXT_WINDOW: "-5" })).config.windowOverride,
    undefined,
  );
});

Deno.test("resolveConfig() scales thresholds for an early auto-compaction unless told not to", () => {
  const early = resolveConfig(envOf({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50" })).config;
  assertEquals([early.thresholds, early.configuredThresholds], [[20, 34, 47], [30, 52, 70]]);
  const off = resolveConfig(
    envOf({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50", LESSONS_SCALE_FOR_AUTOCOMPACT: "0" }),
  );
  assertEquals(off.config.thresholds, [30, 52, 70]);
  assertEquals(resolveConfig(envOf({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "90" })).config.thresholds, [
    30,
    52,
    70,
  ]);
});

Deno.test("flag() reads the usual spellings", () => {
  assertEquals(["1", "true", "YES", "on", "0", "false", "", "maybe"].map(flag), [
    true,
    true,
    true,
    true,
    false,
    false,
    false,
    undefined,
  ]);
});
