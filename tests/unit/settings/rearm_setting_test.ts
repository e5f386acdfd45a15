/** `LESSONS_REINJECT_REARM_DEDUP` / `rearmDedupAt`: off by default, among the thresholds. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { resolveCliSettings, resolveSettings } from "../../../src/settings/resolve.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("rearmDedupAt is off unless asked for, and takes the thresholds' own rules", async (t) => {
  const cases: [Record<string, string>, number[], string[]][] = [
    [{}, [], []],
    [{ LESSONS_REINJECT_REARM_DEDUP: "" }, [], []],
    [{ LESSONS_REINJECT_REARM_DEDUP: "off" }, [], []],
    [{ LESSONS_REINJECT_REARM_DEDUP: "70,52" }, [52, 70], []],
    [{ LESSONS_REINJECT_REARM_DEDUP: "52,x" }, [], [
      'LESSONS_REINJECT_REARM_DEDUP="52,x": expected a list of thresholds from the thresholds ' +
      'setting, e.g. 52,70, or off (an empty list) ("x": not a number); using off',
    ]],
    [{ LESSONS_REINJECT_REARM_DEDUP: "50,70" }, [70], [
      "LESSONS_REINJECT_REARM_DEDUP: 50 is not among the thresholds (30,52,70); ignored",
    ]],
    // Named as configured, whatever span they are measured against.
    [
      { LESSONS_REINJECT_REARM_DEDUP: "52,70", CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "53" },
      [52, 70],
      [],
    ],
    [
      { LESSONS_REINJECT_THRESHOLDS: "30,60k", LESSONS_REINJECT_REARM_DEDUP: "60k" },
      [60_000],
      [],
    ],
  ];
  for (const [vars, expected, problems] of cases) {
    await t.step(JSON.stringify(vars), () => {
      const settings = resolveSettings(envOf(vars));
      assertEquals(settings.rearmDedupAt, expected);
      assertEquals(settings.problems, problems);
    });
  }
});

Deno.test("rearmDedupAt from the config file: a list, or an empty list for off", () => {
  const file = (settings: Record<string, unknown>) => ({
    path: "/c.jsonc",
    via: "LESSONS_CONFIG" as const,
    settings,
    problems: [],
  });
  assertEquals(resolveSettings(envOf({}), file({ rearmDedupAt: [70] })).rearmDedupAt, [70]);
  assertEquals(resolveSettings(envOf({}), file({ rearmDedupAt: [] })).rearmDedupAt, []);
});

Deno.test("lessonsLearnedTmp is the folder Node's os.tmpdir() gives lessons-learned", () => {
  const posix = Deno.build.os !== "windows";
  const settings = resolveSettings(envOf({ TMPDIR: "/var/t/", TEMP: "C:\\T\\" }));
  assertEquals(settings.lessonsLearnedTmp, posix ? "/var/t" : "C:\\T");
});

Deno.test("noColor follows NO_COLOR: set and not empty (no-color.org)", () => {
  assertEquals(resolveCliSettings(envOf({})).noColor, false);
  assertEquals(resolveCliSettings(envOf({ NO_COLOR: "" })).noColor, false);
  assertEquals(resolveCliSettings(envOf({ NO_COLOR: "1" })).noColor, true);
  assertEquals(resolveCliSettings(envOf({ NO_COLOR: "0" })).noColor, true);
});
