import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  type CliSettings,
  resolveCliSettings,
  resolveSettings,
} from "../../../src/settings/resolve.ts";
import { SETTINGS } from "../../../src/settings/table.ts";
import { failed } from "../../../src/core/result.ts";
import { envOf, withFile } from "./_settings.ts";

const SEP = Deno.build.os === "windows" ? ";" : ":";
const EVERY_SOURCE: CliSettings["sources"] = ["manifest", "claude-md", "rules-file"];

/** One resolution: its name, the environment, the fields named; the problems; a config file. */
type Row = [
  string,
  Record<string, string>,
  Partial<CliSettings>,
  string[]?,
  Record<string, unknown>?,
];

const FILE = { thresholds: [40, 60], toolCountInterval: 5, maxChars: 4000, debug: true };
const DEFAULTS: Partial<CliSettings> = {
  thresholds: [30, 52, 70],
  toolCountInterval: 20,
  maxChars: 9500,
  debug: false,
  waitMs: 250,
  scaleForAutocompact: true,
  compactEnv: {},
  sources: EVERY_SOURCE,
  rulesFiles: [],
  refreshAfterCompact: true,
  rearmDedupAt: [],
  noColor: false,
};

const ROWS: Row[] = [
  ["defaults", {}, DEFAULTS],
  ["the file beats the defaults", {}, FILE, [], FILE],
  [
    "the environment beats the file",
    { LESSONS_REINJECT_THRESHOLDS: "25", LESSONS_REINJECT_TOOL_COUNT: "7", LESSONS_DEBUG: "0" },
    { thresholds: [25], toolCountInterval: 7, maxChars: 4000, debug: false },
    [],
    FILE,
  ],
  // An invalid value is named once and the next source used.
  ["tool count not a number", { LESSONS_REINJECT_TOOL_COUNT: "many" }, { toolCountInterval: 20 }, [
    'LESSONS_REINJECT_TOOL_COUNT="many": expected a whole number of tool calls from 1 to ' +
    '1,000,000 ("many": not a number); using the default, 20',
  ]],
  ["max chars over the inline limit", { LESSONS_REINJECT_MAX_CHARS: "20000" }, { maxChars: 9500 }, [
    'LESSONS_REINJECT_MAX_CHARS="20000": expected a whole number of characters from 1 to ' +
    `10000 (Claude Code's inline limit) ("20000": above 10,000); using the default, 9500`,
  ]],
  // Thresholds with a bad entry (20,abc,150): tests/integration/hook_test.ts "invalid
  // thresholds: one stderr line naming the problem and the values used", the same whole message.
  ["a negative window", { LESSONS_CONTEXT_WINDOW: "-5" }, { windowOverride: undefined }, [
    'LESSONS_CONTEXT_WINDOW="-5": expected a whole number of tokens from 1,000 to ' +
    '100,000,000 (200000, 200k or 1M) ("-5": a sign is not allowed); using the window the ' +
    "evidence gives",
  ]],
  ["a window of one token", { LESSONS_CONTEXT_WINDOW: "1" }, { windowOverride: undefined }, [
    'LESSONS_CONTEXT_WINDOW="1": expected a whole number of tokens from 1,000 to ' +
    '100,000,000 (200000, 200k or 1M) ("1": below 1,000); using the window the evidence gives',
  ]],
  ["a 23-digit window", { LESSONS_CONTEXT_WINDOW: "12345678901234567890123" }, {
    windowOverride: undefined,
  }, [
    'LESSONS_CONTEXT_WINDOW="12345678901234567890123": expected a whole number of tokens from ' +
    '1,000 to 100,000,000 (200000, 200k or 1M) ("12345678901234567890123": above ' +
    "100,000,000); using the window the evidence gives",
  ]],
  ["debug neither on nor off", { LESSONS_DEBUG: "maybe" }, { debug: false }, [
    'LESSONS_DEBUG="maybe": expected true or false (or 1/true/yes/on, 0/false/no/off); using ' +
    "the default, false",
  ]],
  // Claude Code's auto-compaction variables, read as Claude Code reads them; the thresholds stay
  // as configured: each reading measures them against its own span.
  [
    "auto-compaction variables",
    {
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: " 400k ",
      CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50",
      DISABLE_AUTO_COMPACT: "1",
    },
    {
      compactEnv: {
        window: { tokens: 400_000, raw: "400k" },
        pct: 50,
        off: "DISABLE_AUTO_COMPACT",
      },
      thresholds: [30, 52, 70],
    },
  ],
  // DISABLE_COMPACT is checked first; an unusable window is Claude Code's to ignore, not ours.
  [
    "DISABLE_COMPACT first, an unusable window ignored",
    { DISABLE_COMPACT: "true", DISABLE_AUTO_COMPACT: "1", CLAUDE_CODE_AUTO_COMPACT_WINDOW: "x" },
    { compactEnv: { off: "DISABLE_COMPACT" } },
  ],
  // The home and Claude's folder, found one way; an empty HOME is no home, as everywhere else.
  ["USERPROFILE without HOME", { USERPROFILE: "/u" }, { home: "/u", claudeDir: "/u/.claude" }],
  ["CLAUDE_CONFIG_DIR", { HOME: "/h", CLAUDE_CONFIG_DIR: "/cc" }, { claudeDir: "/cc" }],
  ["an empty HOME", { HOME: "", USERPROFILE: "/u" }, { home: "/u" }],
  ["~ in the state folder", { HOME: "/h", LESSONS_STATE_DIR: "~/st" }, { stateDir: "/h/st" }],
  // The rule-source settings.
  [
    "the environment names sources and files and turns the compaction refresh off",
    {
      LESSONS_REINJECT_SOURCES: " claude-md , rules-file ",
      LESSONS_REINJECT_RULES_FILES: `a.md${SEP}/b.md`,
      LESSONS_REINJECT_AFTER_COMPACT: "off",
    },
    {
      sources: ["claude-md", "rules-file"],
      rulesFiles: ["a.md", "/b.md"],
      refreshAfterCompact: false,
    },
  ],
  [
    "the file's rule-source values when the environment is silent",
    {},
    { sources: ["manifest"], rulesFiles: ["/x.md"], refreshAfterCompact: false },
    [],
    { sources: ["manifest"], rulesFiles: ["/x.md"], refreshAfterCompact: false },
  ],
  [
    "the environment's rule-source values win over the file",
    { LESSONS_REINJECT_SOURCES: "claude-md", LESSONS_REINJECT_AFTER_COMPACT: "yes" },
    { sources: ["claude-md"], rulesFiles: [], refreshAfterCompact: true },
    [],
    { sources: ["manifest"], refreshAfterCompact: false },
  ],
  [
    "an unknown source name makes the value invalid: named, and the default used",
    { LESSONS_REINJECT_SOURCES: "claude-md,agents-md" },
    { sources: EVERY_SOURCE },
    [
      'LESSONS_REINJECT_SOURCES="claude-md,agents-md": expected a list of rule sources from ' +
      'manifest, claude-md, rules-file, e.g. manifest,claude-md ("agents-md" is not); using the ' +
      "default, manifest,claude-md,rules-file",
    ],
  ],
  ["~/ in a rules file", { HOME: "/h", LESSONS_REINJECT_RULES_FILES: "~/r.md" }, {
    rulesFiles: ["/h/r.md"],
  }],
  // LESSONS_REINJECT_REARM_DEDUP / rearmDedupAt: off unless asked for, among the thresholds.
  ["rearm: empty", { LESSONS_REINJECT_REARM_DEDUP: "" }, { rearmDedupAt: [] }],
  ["rearm: off", { LESSONS_REINJECT_REARM_DEDUP: "off" }, { rearmDedupAt: [] }],
  ["rearm: sorted", { LESSONS_REINJECT_REARM_DEDUP: "70,52" }, { rearmDedupAt: [52, 70] }],
  ["rearm: a bad entry", { LESSONS_REINJECT_REARM_DEDUP: "52,x" }, { rearmDedupAt: [] }, [
    'LESSONS_REINJECT_REARM_DEDUP="52,x": expected a list of thresholds from the thresholds ' +
    'setting, e.g. 52,70, or off (an empty list) ("x": not a number); using off',
  ]],
  ["rearm: not among the thresholds", { LESSONS_REINJECT_REARM_DEDUP: "50,70" }, {
    rearmDedupAt: [70],
  }, ["LESSONS_REINJECT_REARM_DEDUP: 50 is not among the thresholds (30,52,70); ignored"]],
  // Named as configured, whatever span they are measured against.
  [
    "rearm: under an auto-compaction override",
    { LESSONS_REINJECT_REARM_DEDUP: "52,70", CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "53" },
    { rearmDedupAt: [52, 70] },
  ],
  [
    "rearm: a token threshold",
    { LESSONS_REINJECT_THRESHOLDS: "30,60k", LESSONS_REINJECT_REARM_DEDUP: "60k" },
    { rearmDedupAt: [60_000] },
  ],
  ["rearm: from the file", {}, { rearmDedupAt: [70] }, [], { rearmDedupAt: [70] }],
  ["rearm: off in the file", {}, { rearmDedupAt: [] }, [], { rearmDedupAt: [] }],
  // The folder Node's os.tmpdir() gives lessons-learned.
  ["lessonsLearnedTmp", { TMPDIR: "/var/t/", TEMP: "C:\\T\\" }, {
    lessonsLearnedTmp: Deno.build.os !== "windows" ? "/var/t" : "C:\\T",
  }],
  // NO_COLOR set and not empty (no-color.org).
  ["NO_COLOR empty", { NO_COLOR: "" }, { noColor: false }],
  ["NO_COLOR=1", { NO_COLOR: "1" }, { noColor: true }],
  ["NO_COLOR=0", { NO_COLOR: "0" }, { noColor: true }],
];

Deno.test("resolveSettings(): the environment over the file over the defaults", async (t) => {
  for (const [name, env, expect, problems = [], file] of ROWS) {
    await t.step(name, () => {
      const s = resolveCliSettings(envOf(env), file ? withFile(file) : undefined);
      const named = Object.fromEntries(
        Object.keys(expect).map((k) => [k, s[k as keyof CliSettings]]),
      );
      assertEquals(named, expect);
      assertEquals(s.problems, problems);
    });
  }
});

Deno.test("resolveSettings() finds the state folder under the temp folder, named per user", () => {
  const s = resolveSettings(envOf({ USERPROFILE: "/u", TMPDIR: "/t", USER: "me" }));
  ok(s.stateDir.startsWith("/t/lessons-reinject-"), s.stateDir);
  // The name a release gave must not change in the next: a new name loses every session's state.
  const named = (USER: string) => resolveSettings(envOf({ TMPDIR: "/t", USER, HOME: "/home/me" }));
  assertEquals([named("me").stateDir, named("you").stateDir], [
    "/t/lessons-reinject-c69b4b90",
    "/t/lessons-reinject-76a76b11",
  ]);
});

Deno.test("a hook call resolves none of the commands' own settings", () => {
  const s = resolveSettings(envOf({ NO_COLOR: "1", COLUMNS: "80", PATH: "/bin" }));
  for (const key of ["tmpDir", "noColor", "columns", "searchPath", "denoNpmCache"]) {
    assertEquals(key in s, false, key);
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
      const row = SETTINGS[key as keyof typeof SETTINGS];
      assertEquals(!failed(row.parse(fileValue)), valid);
      // An empty environment value means "not set", not invalid.
      if (envValue !== "") assertEquals(!failed(row.parse(envValue)), valid);
    });
  }
});

Deno.test("the thresholds setting parses, sorts, dedupes, and refuses a list with a bad entry", async (t) => {
  const cases: [string, unknown, number[] | undefined][] = [
    ["custom list", "20,40", [20, 40]],
    ["sorted and deduplicated", "70, 30,30 ,52", [30, 52, 70]],
    ["percent signs", "30%,52%", [30, 52]],
    ["token counts, mixed with percentages", "60k,30,120000,20K", [30, 20_000, 60_000, 120_000]],
    ["a JSON array of both", [30, "60k", 120_000], [30, 60_000, 120_000]],
    // An entry's own refusals (a fraction, hex, an exponent, 0) are rows of thresholdOf()'s
    // table (tests/unit/core/numbers_test.ts); one bad entry refuses the list.
    ["not a number", "abc", undefined],
    ["ambiguous", "30,150", undefined],
    ["empty entry", "30,,70", undefined],
    ["empty list", [], undefined],
  ];
  for (const [name, raw, values] of cases) {
    await t.step(name, () => {
      const parsed = SETTINGS.thresholds.parse(raw);
      assertEquals(!failed(parsed) ? parsed : undefined, values);
      if (failed(parsed)) ok(!parsed.error.includes("\n"), "one line");
    });
  }
});

Deno.test("one message for a bad threshold, in the environment and the file alike", () => {
  const fromEnv = SETTINGS.thresholds.parse("30,250");
  const fromFile = SETTINGS.thresholds.parse([30, 250]);
  ok(failed(fromEnv) && failed(fromFile));
  // The same words; only the value is shown as it was written (a string, or a JSON number).
  assertEquals(fromEnv.error.replace('"250"', "250"), fromFile.error);
  ok(fromFile.error.includes("250: ambiguous: as a percentage it is over 99, as tokens under"));
});
