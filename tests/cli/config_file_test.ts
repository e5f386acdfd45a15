import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { DoctorJsonSchema, StatusJsonSchema } from "../../src/cli/schemas.ts";
import { failed } from "../../src/core/result.ts";
import { parseConfigText } from "../../src/settings/config_file.ts";
import { loadSettings } from "../../src/settings/load.ts";
import { runHook } from "../_helpers.ts";
import { assertIncludes, cliJson, sandbox, sonnetCall } from "./_cli.ts";

Deno.test("parseConfigText() accepts JSONC: comments and trailing commas", async () => {
  const text = `{
  // when to refresh
  "thresholds": [25, 50, 75,],
  "maxChars": 8000, /* budget */
  "debug": true,
}`;
  assertEquals(await parseConfigText(text, "c.jsonc"), {
    settings: { thresholds: [25, 50, 75], maxChars: 8000, debug: true },
    problems: [],
  });
});

Deno.test("parseConfigText() errors name line, column and what was expected", async (t) => {
  // A bad setting is named and left out, the valid ones kept; a syntax error makes the file
  // unusable and only its first error is named (the rest follow from it).
  const cases: [string, string, string, "ignored" | "unusable"][] = [
    ['{\n  "thresholds": [30, 120]\n}', "c.jsonc:2:17:", "a percentage from 1 to 99", "ignored"],
    ['{\n  "maxChars": 20000\n}', "c.jsonc:2:15:", "from 1 to 10000 (Claude Code's", "ignored"],
    ['{\n  "debug": "maybe"\n}', "c.jsonc:2:12:", "expected true or false", "ignored"],
    ['{\n  "toolCountInterval": 2.5\n}', "c.jsonc:2:24:", "whole number of tool calls", "ignored"],
    [
      '{\n  "treshold": [30]\n}',
      "c.jsonc:2:3:",
      'unknown setting "treshold" (expected one of: thresholds',
      "ignored",
    ],
    ['{\n  "thresholds": [30 52]\n}', "c.jsonc:2:21:", "expected ','", "unusable"],
    ['{\n  "debug": true\n', "c.jsonc:3:1:", "expected '}'", "unusable"],
    ["[30, 52]", "c.jsonc:1:1:", "expected an object of settings", "unusable"],
    [",", "c.jsonc:1:1:", "expected a value", "unusable"],
  ];
  for (const [text, where, what, kind] of cases) {
    await t.step(JSON.stringify(text), async () => {
      const result = await parseConfigText(text, "c.jsonc");
      const lines = failed(result) ? [result.error] : result.problems;
      assertEquals(
        failed(result) ? "unusable" : "ignored",
        kind,
        JSON.stringify(result),
      );
      assertEquals(lines.length, 1, JSON.stringify(lines));
      const line = lines[0] ?? "";
      assert(line.startsWith(where), line);
      assertIncludes(line, what);
    });
  }
});

Deno.test("the config file: LESSONS_CONFIG alone, else CLAUDE_PLUGIN_DATA, then ~/.config", async () => {
  const box = sandbox();
  const [data, home] = [join(box.dir, "data"), join(box.dir, "home")];
  const inData = join(data, "lessons-reinject.jsonc");
  const inHome = join(home, ".config", "lessons-reinject", "config.jsonc");
  const named = join(box.dir, "named.jsonc");
  for (const file of [inData, inHome, named]) {
    Deno.mkdirSync(join(file, ".."), { recursive: true });
    Deno.writeTextFileSync(file, "{}");
  }
  const found = async (vars: Record<string, string>) => {
    const outcome = (await loadSettings((name) => vars[name])).configFile;
    return [outcome.path, outcome.via];
  };
  const both = { CLAUDE_PLUGIN_DATA: data, HOME: home };
  assertEquals(await found({ ...both, LESSONS_CONFIG: named }), [named, "LESSONS_CONFIG"]);
  assertEquals(await found(both), [inData, "CLAUDE_PLUGIN_DATA"]);
  Deno.removeSync(inData);
  assertEquals(await found(both), [inHome, "~/.config"]);
  // A file LESSONS_CONFIG names, missing, is not replaced by another.
  const missing = join(box.dir, "nope.jsonc");
  assertEquals(await found({ ...both, LESSONS_CONFIG: missing }), [missing, "LESSONS_CONFIG"]);
});

Deno.test("the config file's relative paths are the file's; a missing named file is a problem", async () => {
  const box = sandbox();
  const data = join(box.dir, "data");
  Deno.mkdirSync(data);
  Deno.writeTextFileSync(
    join(data, "lessons-reinject.jsonc"),
    '{ "manifestPath": "m.json", "stateDir": "~/state" }',
  );
  // It exists: a manifestPath naming no file is the config file's problem (messages_test).
  Deno.writeTextFileSync(join(data, "m.json"), "{}");
  const vars: Record<string, string> = { CLAUDE_PLUGIN_DATA: data, HOME: box.dir };
  const loaded = (await loadSettings((name) => vars[name])).configFile;
  assertEquals(loaded.problems, []);
  assertEquals(loaded.via, "CLAUDE_PLUGIN_DATA");
  assertEquals(loaded.settings.manifestPath, join(data, "m.json"));
  assertEquals(loaded.settings.stateDir, join(box.dir, "state"));
  const missing =
    (await loadSettings((name) =>
      name === "LESSONS_CONFIG" ? join(box.dir, "nope.jsonc") : undefined
    )).configFile;
  assertEquals(missing.settings, {});
  assertIncludes(missing.problems[0] ?? "", "no such file (named by LESSONS_CONFIG)");
});

function hookSetup(tokens: number) {
  const box = sandbox();
  return { box, input: sonnetCall(box.transcript, tokens, "toolu_c") };
}

Deno.test("an invalid config setting: one stderr line with line and column; the rest applies", async () => {
  const { box, input } = hookSetup(62_000); // 31 %
  const config = join(box.dir, "config.jsonc");
  Deno.writeTextFileSync(config, '{\n  "thresholds": [40, 60],\n  "debug": "maybe"\n}\n');
  const env = { ...box.env, LESSONS_CONFIG: config };
  const run = await runHook(input, env);
  assertEquals(run.code, 0);
  assertIncludes(run.stderr, `config ${config}:3:12: debug: expected true or false`);
  assertIncludes(run.stderr, 'got "maybe"; using the default, false');
  assertEquals(run.stderr.trim().split("\n").length, 1);
  // The file's thresholds still apply: nothing fires at 31 %.
  assertEquals(run.stdout, "");

  // A file that does not parse is not used at all: the defaults apply, and 30 fires.
  Deno.writeTextFileSync(config, '{\n  "thresholds": [40, 60\n  "debug": true\n}\n');
  const broken = await runHook(input, env);
  assertIncludes(broken.stderr, "using the defaults");
  assertEquals(broken.stderr.trim().split("\n").length, 1);
  assertIncludes(broken.context ?? "", "[lessons-reinject refresh 30 ");

  const report = await cliJson(StatusJsonSchema, ["status", "--transcript", box.transcript], env);
  assertEquals(report.configFile, config);
  assertIncludes(report.problems[0] ?? "", `${config}:3:`);
  assertEquals(report.thresholds, [30, 52, 70]);
});

Deno.test("an empty config file is accepted in silence, and doctor calls it empty", async () => {
  const { box, input } = hookSetup(62_000); // 31 %
  const config = join(box.dir, "config.jsonc");
  Deno.writeTextFileSync(config, "// nothing set yet\n");
  const env = { ...box.env, LESSONS_CONFIG: config };
  const run = await runHook(input, env);
  assertEquals(run.stderr, "");
  // The defaults apply: 30 fires.
  assertIncludes(run.context ?? "", "[lessons-reinject refresh 30 ");
  const doctor = await cliJson(DoctorJsonSchema, ["doctor"], env);
  const check = doctor.checks.find((c) => c.name === "config file");
  assertEquals([check?.status, check?.detail], ["ok", `${config} (LESSONS_CONFIG): empty`]);
});
