import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { resolveSettings } from "../../../src/settings/resolve.ts";
import { failed } from "../../../src/core/result.ts";
import { parseConfigText } from "../../../src/settings/config_file.ts";

import { envOf, withFile } from "./_settings.ts";
const SEP = Deno.build.os === "windows" ? ";" : ":";

Deno.test("resolveSettings() reads the rule-source settings", async (t) => {
  const cases: {
    name: string;
    env: Record<string, string>;
    file?: Record<string, unknown>;
    sources: string[];
    rulesFiles: string[];
    afterCompact: boolean;
    problem?: string;
  }[] = [
    {
      name: "defaults: every source, no extra files, the refresh after compaction on",
      env: {},
      sources: ["manifest", "claude-md", "rules-file"],
      rulesFiles: [],
      afterCompact: true,
    },
    {
      name: "the environment names sources and files and turns the compaction refresh off",
      env: {
        LESSONS_REINJECT_SOURCES: " claude-md , rules-file ",
        LESSONS_REINJECT_RULES_FILES: `a.md${SEP}/b.md`,
        LESSONS_REINJECT_AFTER_COMPACT: "off",
      },
      sources: ["claude-md", "rules-file"],
      rulesFiles: ["a.md", "/b.md"],
      afterCompact: false,
    },
    {
      name: "the file's values when the environment is silent",
      env: {},
      file: { sources: ["manifest"], rulesFiles: ["/x.md"], refreshAfterCompact: false },
      sources: ["manifest"],
      rulesFiles: ["/x.md"],
      afterCompact: false,
    },
    {
      name: "the environment wins over the file",
      env: { LESSONS_REINJECT_SOURCES: "claude-md", LESSONS_REINJECT_AFTER_COMPACT: "yes" },
      file: { sources: ["manifest"], refreshAfterCompact: false },
      sources: ["claude-md"],
      rulesFiles: [],
      afterCompact: true,
    },
    {
      name: "an unknown source name makes the value invalid: named, and the default used",
      env: { LESSONS_REINJECT_SOURCES: "claude-md,agents-md" },
      sources: ["manifest", "claude-md", "rules-file"],
      rulesFiles: [],
      afterCompact: true,
      problem: 'LESSONS_REINJECT_SOURCES="claude-md,agents-md": expected a list of rule sources',
    },
    {
      name: "~/ in a rules file is the home folder",
      env: { HOME: "/h", LESSONS_REINJECT_RULES_FILES: "~/rules.md" },
      sources: ["manifest", "claude-md", "rules-file"],
      rulesFiles: ["/h/rules.md"],
      afterCompact: true,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const s = resolveSettings(envOf(c.env), c.file ? withFile(c.file) : undefined);
      assertEquals(s.sources, c.sources);
      assertEquals(s.rulesFiles, c.rulesFiles);
      equal(s.refreshAfterCompact, c.afterCompact);
      if (c.problem) ok(s.problems.some((p) => p.startsWith(c.problem!)), s.problems.join("\n"));
      else assertEquals(s.problems, []);
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
