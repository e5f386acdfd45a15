/** `LESSONS_REINJECT_REARM_DEDUP` / `rearmDedupAt`: off by default, among the thresholds, scaled. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { resolveSettings } from "../../../src/settings/resolve.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("rearmDedupAt is off unless asked for, and takes the thresholds' own rules", async (t) => {
  const cases: [Record<string, string>, number[], string[]][] = [
    [{}, [], []],
    [{ LESSONS_REINJECT_REARM_DEDUP: "" }, [], []],
    [{ LESSONS_REINJECT_REARM_DEDUP: "off" }, [], []],
    [{ LESSONS_REINJECT_REARM_DEDUP: "70,52" }, [52, 70], []],
    [{ LESSONS_REINJECT_REARM_DEDUP: "52,x" }, [], [
      'LESSONS_REINJECT_REARM_DEDUP="52,x": expected a list of percentages from 1 to 99, e.g. ' +
      "52,70, or off (an empty list); using off",
    ]],
    [{ LESSONS_REINJECT_REARM_DEDUP: "50,70" }, [70], [
      "LESSONS_REINJECT_REARM_DEDUP: 50 is not among the thresholds (30,52,70); ignored",
    ]],
    // Scaled with the thresholds when auto-compaction comes early: 30,52,70 become 21,37,50.
    [
      { LESSONS_REINJECT_REARM_DEDUP: "52,70", CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "53" },
      [37, 50],
      [],
    ],
  ];
  for (const [vars, expected, problems] of cases) {
    await t.step(JSON.stringify(vars), () => {
      const settings = resolveSettings(envOf(vars));
      assertEquals(settings.rearmDedupAt, expected);
      assertEquals(settings.problems, problems);
      if (vars.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE) assertEquals(settings.thresholds, [21, 37, 50]);
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
  assertEquals(resolveSettings(envOf({})).noColor, false);
  assertEquals(resolveSettings(envOf({ NO_COLOR: "" })).noColor, false);
  assertEquals(resolveSettings(envOf({ NO_COLOR: "1" })).noColor, true);
  assertEquals(resolveSettings(envOf({ NO_COLOR: "0" })).noColor, true);
});
