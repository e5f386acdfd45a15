/** The config file: an empty one, the value used instead of a bad one, the rule sources, syntax. */
import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { loadSettings } from "../../../src/settings/load.ts";
import { failed } from "../../../src/core/result.ts";
import { parseConfigText } from "../../../src/settings/config_file.ts";
import { resolveSettings } from "../../../src/settings/resolve.ts";
import { sandbox } from "../../_helpers.ts";
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

Deno.test("the config file takes the rule-source settings; wrong ones are named and left out", async () => {
  const good = await parseConfigText(
    '{ "sources": ["claude-md"], "rulesFiles": ["/t/team.md"], "refreshAfterCompact": false }',
    "/t/c.jsonc",
  );
  ok(!failed(good));
  assertEquals(good.settings, {
    sources: ["claude-md"],
    rulesFiles: ["/t/team.md"],
    refreshAfterCompact: false,
  });
  const bad = await parseConfigText('{ "sources": ["agents-md"], "rulesFiles": [3] }', "c.jsonc");
  ok(!failed(bad));
  assertEquals(bad.settings, {});
  equal(bad.problems.length, 2, bad.problems.join("\n"));
  ok(bad.problems[0]!.includes("sources: expected a list of rule sources"), bad.problems[0]);
});

Deno.test("a config syntax error names the file once: path:line:column, then why", async () => {
  const path = join(sandbox().dir, "c.jsonc");
  const cases = [
    ['{ "thresholds": [30,\n  "x" }\n', `config ${path}:2:7: expected ',' (not valid JSONC)`],
    ["[30, 52]", `config ${path}:1:1: expected an object of settings ({ ... })`],
  ] as const;
  for (const [text, expected] of cases) {
    Deno.writeTextFileSync(path, text);
    const { problems } = await loadSettings((name) => ({ LESSONS_CONFIG: path })[name]);
    assertEquals(problems, [`${expected}; using the defaults`]);
  }
});
