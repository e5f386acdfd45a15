/** The config file's two quiet cases: an empty file, and the value used instead of a bad one. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { failed } from "../../../src/core/result.ts";
import { parseConfigText } from "../../../src/settings/config_file.ts";
import { resolveSettings } from "../../../src/settings/resolve.ts";
import { envOf } from "./_settings.ts";

Deno.test("a config file of blanks and comments is empty, not invalid", async (t) => {
  for (const text of ["", " \n\t\n", "// nothing yet\n", "/* a\n b */\n// c"]) {
    await t.step(JSON.stringify(text), async () => {
      assertEquals(await parseConfigText(text, "c.jsonc"), {
        settings: {},
        problems: [],
        empty: true,
      });
    });
  }
  // Not empty: a stray comma, an unterminated comment, an empty object (which is just valid).
  assertEquals(failed(await parseConfigText(",", "c.jsonc")), true);
  assertEquals(failed(await parseConfigText("/* open", "c.jsonc")), true);
  assertEquals(await parseConfigText("{}", "c.jsonc"), {
    settings: {},
    problems: [],
  });
});

Deno.test("a bad config value names the value used instead, as the environment's do", async (t) => {
  const cases: [string, Record<string, string>, string, unknown][] = [
    ['{ "maxChars": 20000 }', {}, "; using the default, 9500", 9500],
    ['{ "debug": "maybe" }', {}, "; using the default, false", false],
    ['{ "thresholds": [30, 250] }', {}, "; using the default, 30,52,70", [30, 52, 70]],
    ['{ "contextWindow": 5 }', {}, "; using the window the evidence gives", undefined],
    ['{ "rearmDedupAt": "x" }', {}, "; using off", []],
    ['{ "rulesFiles": [3] }', {}, "; using none", []],
    // The environment's valid value is what applies, and the message says so.
    [
      '{ "maxChars": 20000 }',
      { LESSONS_REINJECT_MAX_CHARS: "8000" },
      "; using 8000 from LESSONS_REINJECT_MAX_CHARS",
      8000,
    ],
    // An invalid environment value does not stand in: the default does.
    [
      '{ "maxChars": 20000 }',
      { LESSONS_REINJECT_MAX_CHARS: "lots" },
      "; using the default, 9500",
      9500,
    ],
  ];
  for (const [text, vars, ending, value] of cases) {
    await t.step(`${text} ${JSON.stringify(vars)}`, async () => {
      const parsed = await parseConfigText(text, "c.jsonc", envOf(vars));
      if (failed(parsed)) throw new Error(JSON.stringify(parsed));
      assertEquals(parsed.problems.length, 1);
      assertEquals(parsed.problems[0]?.endsWith(ending), true, parsed.problems[0]);
      // What the message says is used is what the settings resolve to.
      const file = { path: "c.jsonc", via: "LESSONS_CONFIG" as const, ...parsed };
      const settings = resolveSettings(envOf(vars), file);
      const key = Object.keys(JSON.parse(text))[0];
      const resolved = key === "contextWindow"
        ? settings.windowOverride
        : (settings as unknown as Record<string, unknown>)[key ?? ""];
      assertEquals(resolved, value);
    });
  }
});
