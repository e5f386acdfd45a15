import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { resolveSettings } from "../../../src/settings/resolve.ts";
import { SETTINGS } from "../../../src/settings/table.ts";

import { envOf, withFile } from "./_settings.ts";

Deno.test("resolveSettings() defaults", () => {
  const s = resolveSettings(envOf({}));
  assertEquals(
    [s.thresholds, s.toolCountInterval, s.maxChars, s.debug, s.waitMs, s.scaleForAutocompact],
    [[30, 52, 70], 20, 9500, false, 250, true],
  );
  assertEquals(s.problems, []);
});

Deno.test("resolveSettings() environment beats file beats defaults", () => {
  const file = withFile({
    thresholds: [40, 60],
    toolCountInterval: 5,
    maxChars: 4000,
    debug: true,
  });
  const fromFile = resolveSettings(envOf({}), file);
  assertEquals(
    [fromFile.thresholds, fromFile.toolCountInterval, fromFile.maxChars, fromFile.debug],
    [[40, 60], 5, 4000, true],
  );
  const fromEnv = resolveSettings(
    envOf({
      LESSONS_REINJECT_THRESHOLDS: "25",
      LESSONS_REINJECT_TOOL_COUNT: "7",
      LESSONS_DEBUG: "0",
    }),
    file,
  );
  assertEquals([fromEnv.thresholds, fromEnv.toolCountInterval, fromEnv.debug], [[25], 7, false]);
});

Deno.test("resolveSettings() names an invalid value once and uses the next source", async (t) => {
  const cases: [string, Record<string, string>, string, unknown][] = [
    [
      "tool count not a number",
      { LESSONS_REINJECT_TOOL_COUNT: "many" },
      'LESSONS_REINJECT_TOOL_COUNT="many": expected a whole number of tool calls from 1 to ' +
      '1,000,000 ("many": not a number); using the default, 20',
      20,
    ],
    [
      "max chars over the inline limit",
      { LESSONS_REINJECT_MAX_CHARS: "20000" },
      'LESSONS_REINJECT_MAX_CHARS="20000": expected a whole number of characters from 1 to ' +
      `10000 (Claude Code's inline limit) ("20000": above 10,000); using the default, 9500`,
      9500,
    ],
    [
      "thresholds with a bad entry",
      { LESSONS_REINJECT_THRESHOLDS: "20,abc,150" },
      'LESSONS_REINJECT_THRESHOLDS="20,abc,150": expected a non-empty list of thresholds, each ' +
      "a percentage from 1 to 99 (30 or 30%) or a token count from 1,000 to 100,000,000 (60k, " +
      '1.5M or 120000), e.g. 30,52,70 or 20k,60k,52 ("abc": not a number; "150": ambiguous: as ' +
      "a percentage it is over 99, as tokens under 1,000; write 99% or less, or 150k tokens); " +
      "using the default, 30,52,70",
      [30, 52, 70],
    ],
    [
      "a negative window",
      { LESSONS_CONTEXT_WINDOW: "-5" },
      'LESSONS_CONTEXT_WINDOW="-5": expected a whole number of tokens from 1,000 to ' +
      '100,000,000 (200000, 200k or 1M) ("-5": a sign is not allowed); using the window the ' +
      "evidence gives",
      undefined,
    ],
    [
      "a window of one token",
      { LESSONS_CONTEXT_WINDOW: "1" },
      'LESSONS_CONTEXT_WINDOW="1": expected a whole number of tokens from 1,000 to ' +
      '100,000,000 (200000, 200k or 1M) ("1": below 1,000); using the window the evidence gives',
      undefined,
    ],
    [
      "a 23-digit window",
      { LESSONS_CONTEXT_WINDOW: "12345678901234567890123" },
      'LESSONS_CONTEXT_WINDOW="12345678901234567890123": expected a whole number of tokens from ' +
      '1,000 to 100,000,000 (200000, 200k or 1M) ("12345678901234567890123": above ' +
      "100,000,000); using the window the evidence gives",
      undefined,
    ],
    [
      "debug neither on nor off",
      { LESSONS_DEBUG: "maybe" },
      'LESSONS_DEBUG="maybe": expected true or false (or 1/true/yes/on, 0/false/no/off); using ' +
      "the default, false",
      false,
    ],
  ];
  const valueOf = (s: ReturnType<typeof resolveSettings>, vars: Record<string, string>) => {
    const name = Object.keys(vars)[0];
    if (name === "LESSONS_REINJECT_TOOL_COUNT") return s.toolCountInterval;
    if (name === "LESSONS_REINJECT_MAX_CHARS") return s.maxChars;
    if (name === "LESSONS_REINJECT_THRESHOLDS") return s.thresholds;
    if (name === "LESSONS_CONTEXT_WINDOW") return s.windowOverride;
    return s.debug;
  };
  for (const [name, vars, message, value] of cases) {
    await t.step(name, () => {
      const s = resolveSettings(envOf(vars));
      assertEquals(s.problems, [message]);
      assertEquals(valueOf(s, vars), value);
    });
  }
});

Deno.test("every setting takes the same values from the environment and the file", async (t) => {
  // The environment's strings and the file's JSON values go through one rule per setting.
  const cases: [string, unknown, unknown, boolean][] = [
    ["debug", "yes", "yes", true],
    ["debug", true, "1", true],
    ["debug", "maybe", "maybe", false],
    ["thresholds", [30, 52], "30,52", true],
    ["thresholds", [30, 120], "30,120", false],
    ["maxChars", 20_000, "20000", false],
    ["maxChars", 8000, "8000", true],
    ["waitMs", 0, "0", false],
    ["contextWindow", 200_000, "200000", true],
    ["contextWindow", -5, "-5", false],
    ["toolCountInterval", 2.5, "2.5", false],
    ["stateDir", "", "", false],
  ];
  for (const [key, fileValue, envValue, valid] of cases) {
    await t.step(`${key}: ${JSON.stringify(fileValue)} / "${envValue}"`, () => {
      const row = Object.entries(SETTINGS).find(([k]) => k === key)?.[1];
      ok(row);
      assertEquals(row.parse(fileValue).kind === "valid", valid);
      // An empty environment value means "not set", not invalid.
      if (envValue !== "") assertEquals(row.parse(envValue).kind === "valid", valid);
    });
  }
});

Deno.test("resolveSettings() reads Claude Code's auto-compaction variables as Claude Code does", () => {
  const none = resolveSettings(envOf({}));
  assertEquals([none.compactEnv, none.scaleForAutocompact], [{}, true]);
  const set = resolveSettings(
    envOf({
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: " 400k ",
      CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50",
      DISABLE_AUTO_COMPACT: "1",
    }),
  );
  assertEquals(set.compactEnv, {
    window: { tokens: 400_000, raw: "400k" },
    pct: 50,
    off: "DISABLE_AUTO_COMPACT",
  });
  // DISABLE_COMPACT is checked first; an unusable window is Claude Code's to ignore, not ours.
  const both = resolveSettings(
    envOf({
      DISABLE_COMPACT: "true",
      DISABLE_AUTO_COMPACT: "1",
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: "x",
    }),
  );
  assertEquals(both.compactEnv, { off: "DISABLE_COMPACT" });
  assertEquals(both.problems, []);
  // The thresholds stay as configured: each reading measures them against its own span.
  assertEquals(resolveSettings(envOf({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50" })).thresholds, [
    30,
    52,
    70,
  ]);
});

Deno.test("resolveSettings() finds the home, Claude's folder and the state folder one way", () => {
  const windowsLike = resolveSettings(envOf({ USERPROFILE: "/u", TMPDIR: "/t", USER: "me" }));
  assertEquals(windowsLike.home, "/u");
  assertEquals(windowsLike.claudeDir, "/u/.claude");
  ok(windowsLike.stateDir.startsWith("/t/lessons-reinject-"), windowsLike.stateDir);
  const configured = resolveSettings(envOf({ HOME: "/h", CLAUDE_CONFIG_DIR: "/cc" }));
  assertEquals(configured.claudeDir, "/cc");
  // An empty HOME is no home: USERPROFILE is used, as everywhere else.
  assertEquals(resolveSettings(envOf({ HOME: "", USERPROFILE: "/u" })).home, "/u");
  assertEquals(resolveSettings(envOf({ HOME: "/h", LESSONS_STATE_DIR: "~/st" })).stateDir, "/h/st");
});

Deno.test("the thresholds setting parses, sorts, dedupes, and refuses a list with a bad entry", async (t) => {
  const cases: [string, unknown, number[] | undefined][] = [
    ["custom list", "20,40", [20, 40]],
    ["sorted and deduplicated", "70, 30,30 ,52", [30, 52, 70]],
    ["percent signs", "30%,52%", [30, 52]],
    ["token counts, mixed with percentages", "60k,30,120000,20K", [30, 20_000, 60_000, 120_000]],
    ["a JSON array of both", [30, "60k", 120_000], [30, 60_000, 120_000]],
    ["a fraction is refused", "33.5", undefined],
    ["not a number", "abc", undefined],
    ["out of range", "0,40", undefined],
    ["ambiguous", "30,150", undefined],
    ["hex", "0x10", undefined],
    ["an exponent", "1e2", undefined],
    ["empty entry", "30,,70", undefined],
    ["empty list", [], undefined],
  ];
  for (const [name, raw, values] of cases) {
    await t.step(name, () => {
      const parsed = SETTINGS.thresholds.parse(raw);
      assertEquals(parsed.kind === "valid" ? parsed.value : undefined, values);
      if (parsed.kind === "invalid") ok(!parsed.problem.includes("\n"), "one line");
    });
  }
});

Deno.test("one message for a bad threshold, in the environment and the file alike", () => {
  const fromEnv = SETTINGS.thresholds.parse("30,250");
  const fromFile = SETTINGS.thresholds.parse([30, 250]);
  ok(fromEnv.kind === "invalid" && fromFile.kind === "invalid");
  // The same words; only the value is shown as it was written (a string, or a JSON number).
  assertEquals(fromEnv.problem.replace('"250"', "250"), fromFile.problem);
  ok(fromFile.problem.includes("250: ambiguous: as a percentage it is over 99, as tokens under"));
});
