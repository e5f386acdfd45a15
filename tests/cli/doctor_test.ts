import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { type DoctorJson, DoctorJsonSchema } from "../../src/cli/schemas.ts";
import { runHook, SAMPLE_MANIFEST } from "../_helpers.ts";
import {
  assertIncludes,
  cli,
  doctorJson,
  marked,
  parsedAs,
  projectIn,
  ROOT,
  sandbox,
  sessionsFolder,
  sonnetCall,
  userEnv,
} from "./_cli.ts";

/** An environment in which every check passes (the binary's absence is only a warning). */
const healthy = (box: ReturnType<typeof sandbox>) => userEnv(box, SAMPLE_MANIFEST);

/** A plugin root `box.dir/plugin` whose hooks/hooks.json is `hooksJson`; `--plugin-root` it. */
function pluginWith(box: ReturnType<typeof sandbox>, hooksJson: string): string[] {
  const root = join(box.dir, "plugin");
  Deno.mkdirSync(join(root, "hooks"), { recursive: true });
  Deno.writeTextFileSync(join(root, "hooks", "hooks.json"), hooksJson);
  Deno.writeTextFileSync(join(root, "hooks", "run"), "#!/bin/sh\n", { mode: 0o755 });
  return ["--plugin-root", root];
}

Deno.test("doctor: a working installation exits 0, its plugin found where doctor runs from, from any folder", async () => {
  const box = sandbox();
  const project = join(box.dir, "project");
  Deno.mkdirSync(project);
  for (const cwd of [ROOT, project]) {
    const run = await cli(["doctor", "--json"], healthy(box), "", cwd);
    const report = parsedAs(DoctorJsonSchema, run.stdout);
    assertEquals(run.code, 0, JSON.stringify(report.checks.filter((c) => c.status === "fail")));
    assert(report.ok);
    const by = Object.fromEntries(report.checks.map((c) => [c.name, c]));
    assertEquals(by.plugin?.detail, `${ROOT} (the checkout this runs from)`);
    for (const name of ["hooks wiring", "manifest", "state folder"]) {
      assertEquals(by[name]?.status, "ok", name);
    }
    assertIncludes(by.manifest?.detail ?? "", "directives");
    // A checkout with deno runs its source: no binary is needed there, and none is no failure.
    assertEquals(by.binary?.status, "ok");
    assertIncludes(by.binary?.detail ?? "", "is a checkout");
  }
  const human = await cli(["doctor", "--plugin-root", ROOT], healthy(box));
  assertEquals(human.code, 0);
  assertIncludes(human.stdout, "ok    hooks wiring");
  assertIncludes(human.stdout, "All well");
});

Deno.test("doctor catches each problem, with its fix, and exits 1", async (t) => {
  const cases: {
    name: string;
    check: string;
    /** Set in the healthy environment. */
    env?: Record<string, string>;
    setup?: (box: ReturnType<typeof sandbox>, env: Record<string, string>) => string[] | void;
    says: string;
    oneLine?: true;
  }[] = [
    {
      name: "an invalid config file",
      check: "config file",
      setup: (box, env) => {
        const path = join(box.dir, "bad.jsonc");
        Deno.writeTextFileSync(path, '{\n  "thresholds": [30, 520]\n}\n');
        env.LESSONS_CONFIG = path;
      },
      says: "bad.jsonc:2:17",
    },
    {
      name: "invalid thresholds in the environment",
      check: "environment",
      env: { LESSONS_REINJECT_THRESHOLDS: "30,abc" },
      says: 'LESSONS_REINJECT_THRESHOLDS="30,abc": expected a non-empty list of thresholds',
    },
    {
      name: "hooks.json missing an event",
      check: "hooks wiring",
      setup: (box) => {
        const hooks = JSON.parse(Deno.readTextFileSync(join(ROOT, "hooks", "hooks.json")));
        delete hooks.hooks.PostToolUseFailure;
        hooks.hooks.SessionStart.at(-1).matcher = "clear";
        return pluginWith(box, JSON.stringify(hooks));
      },
      says: "PostToolUseFailure is not registered",
    },
    {
      name: "a hooks.json that is not JSON, in the project's words, on one line",
      check: "hooks wiring",
      setup: (box) => pluginWith(box, '{\n  "hooks": {\n    "x" 1\n'),
      says: "/plugin/hooks/hooks.json: it is not valid JSON (line 3, column 9: expected ':')",
      oneLine: true,
    },
    {
      name: "no binary and no deno",
      check: "binary",
      env: { PATH: "/nonexistent" },
      says: "no deno on PATH",
    },
    {
      // The README's promise: lessons-learned is not needed. The one failure is "nothing to
      // restate"; the missing manifest is one way to mend it, so only a warning.
      name: "no manifest and no rules of one's own",
      check: "rules",
      setup: (_box, env) => {
        delete env.LESSONS_MANIFEST_PATH;
      },
      says: "nothing to restate from any source",
    },
    {
      name: "an invalid manifest",
      check: "manifest",
      setup: (box, env) => {
        env.LESSONS_MANIFEST_PATH = join(box.dir, "m.json");
        Deno.writeTextFileSync(env.LESSONS_MANIFEST_PATH, '{"type":"other"}');
      },
      says: "it is not a lessons-learned manifest",
    },
    {
      name: "a budget too small for even the summaries",
      check: "manifest",
      env: { LESSONS_REINJECT_MAX_CHARS: "200" },
      says: "0 whole, 0 as a summary",
    },
    {
      name: "auto-compaction before the last threshold, scaling off",
      check: "thresholds",
      env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "60", LESSONS_SCALE_FOR_AUTOCOMPACT: "0" },
      says: "70% never fires there",
    },
    {
      name: "a plugin root that does not exist",
      check: "plugin",
      setup: (box) => ["--plugin-root", join(box.dir, "nonexistent")],
      says: "does not exist",
    },
    {
      name: "a state folder others can write to",
      check: "state folder",
      setup: (box) => {
        Deno.mkdirSync(box.stateDir, { recursive: true });
        Deno.chmodSync(box.stateDir, 0o777);
      },
      says: "writable by others",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const box = sandbox();
      const env = { ...healthy(box), ...c.env };
      const args = c.setup?.(box, env) ?? [];
      const { code, report, check } = await doctorJson(env, args);
      assertEquals([code, report.ok], [1, false], JSON.stringify(report, null, 1));
      const found = check(c.check);
      assertEquals(found.status, "fail", JSON.stringify(found));
      assertIncludes(found.detail, c.says);
      if (c.oneLine) assert(!found.detail.includes("\n"), found.detail);
      assert(found.fix !== null && found.fix.length > 0);
      const others = report.checks.filter((x) => x.status === "fail" && x.name !== c.check);
      assertEquals(others, []);
    });
  }
});

Deno.test("doctor: a state folder under a regular file is not mended by chmod", async () => {
  const box = sandbox();
  const file = join(box.dir, "plain-file");
  Deno.writeTextFileSync(file, "");
  const { check } = await doctorJson({ ...healthy(box), LESSONS_STATE_DIR: join(file, "state") });
  const found = check("state folder");
  assertEquals(found.status, "fail");
  assert(!(found.fix ?? "").includes("chmod"), found.fix ?? "");
  assertIncludes(found.fix ?? "", "LESSONS_STATE_DIR");
});

Deno.test("doctor: where each threshold falls against Claude Code's compaction point, and the gaps", async (t) => {
  const cases: {
    name: string;
    env?: Record<string, string>;
    /** The project's .claude/settings.json, read afresh. */
    settings?: string;
    status: "ok" | "warn";
    says?: string[];
    fix?: string;
  }[] = [
    {
      name: "a token threshold past the compaction point never fires: a warning",
      env: { LESSONS_REINJECT_THRESHOLDS: "30,52,300k" },
      status: "warn",
      says: [
        // On a 200k window it comes after the compaction at 167,000; on 1M it fires.
        "auto-compaction at 167,000 (the 200,000-token window); 300k never",
        // On 1M the percentages land where a 200k session has them, and the cadence follows 300k
        // up to where the newest Claude Code compacts its default model; the gap before 300k is named.
        "of 200,000 tokens, as on a 200k window, on the default model's 1M window: at 60,000, " +
        "104,000, 300,000 tokens, then every 40,000 to 340,000 (4 refreshes); auto-compaction at " +
        "367,000 (Claude Code 2.1.334+'s auto window for claude-opus-5-5: a 400,000-token",
        "on the default model's 1M window 196,000 tokens pass between the refreshes at 104,000 " +
        "and 300,000",
      ],
      fix: "lower 300k below the compaction point",
    },
    {
      name: "the project's autoCompactWindow, read afresh",
      settings: '{"autoCompactWindow": 400000}',
      status: "ok",
      says: [
        "of 200,000 tokens, as on a 200k window, on the default model's 1M window: at 60,000, " +
        "104,000, 140,000 tokens, then every 40,000 to 340,000 (8 refreshes); auto-compaction " +
        "at 367,000 (autoCompactWindow 400000 in",
      ],
    },
    {
      name: "auto-compaction off: percentages of the whole window, and where it stops",
      env: { DISABLE_AUTO_COMPACT: "1", LESSONS_REINJECT_THRESHOLDS: "30,90" },
      status: "warn",
      says: [
        "no auto-compaction (DISABLE_AUTO_COMPACT is set): the context stops at 177,000; 90% " +
        "never fires there",
      ],
    },
    {
      name: "the cadence off: the first refresh on 1M comes at 120,000, over 100,000 without one",
      env: { LESSONS_REINJECT_CADENCE: "off" },
      status: "warn",
      says: [
        "of the 400,000 tokens before auto-compaction on the default model's 1M window: at " +
        "120,000, 208,000, 280,000",
        "the first refresh comes at 120,000 tokens",
      ],
      fix: "turn the cadence back on",
    },
    { name: "the default schedule: no gap over 60,000 on either window", status: "ok" },
    {
      name: "measured before an early compaction: not a failure",
      env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "60" },
      status: "ok",
      says: ["tokens before auto-compaction"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const box = sandbox();
      const cwd = projectIn(box.dir, c.settings ? { ".claude/settings.json": c.settings } : {});
      const { code, report, check } = await doctorJson({ ...healthy(box), ...c.env }, [], cwd);
      const found = check("thresholds");
      assertEquals(found.status, c.status, JSON.stringify(found));
      for (const part of c.says ?? []) assertIncludes(found.detail, part);
      if (c.fix) assertIncludes(found.fix ?? "", c.fix);
      // A warning is no failure.
      assertEquals(code, 0, JSON.stringify(report.checks.filter((x) => x.status === "fail")));
    });
  }
});

Deno.test("doctor --plugin-root on a folder that is not the plugin says so, once", async () => {
  const box = sandbox();
  const empty = join(box.dir, "empty");
  Deno.mkdirSync(empty);
  const { code, report, check } = await doctorJson(healthy(box), ["--plugin-root", empty]);
  const plugin = check("plugin");
  assertEquals([code, plugin.status], [1, "fail"]);
  assertEquals(
    plugin.detail,
    `${empty} (--plugin-root) is not the lessons-reinject plugin: it has no ` +
      ".claude-plugin/plugin.json, hooks/hooks.json or hooks/run",
  );
  // The install advice is the README's command.
  const command = plugin.fix?.match(/\/plugin install \S+?(?=\))/)?.[0];
  assertEquals(command, "/plugin install lessons-reinject@lessons-reinject");
  assertIncludes(Deno.readTextFileSync(join(ROOT, "README.md")), command);
  // No raw error about its hooks.json, no download advice for a folder that is not the plugin.
  assertEquals(report.checks.filter((c) => ["hooks wiring", "binary"].includes(c.name)), []);
});

Deno.test("doctor flags a statusLine command that cannot run, and names the path to use", async (t) => {
  const box = sandbox();
  const claude = join(box.dir, ".claude");
  Deno.mkdirSync(claude, { recursive: true });
  const statusLine = (command: string) =>
    Deno.writeTextFileSync(
      join(claude, "settings.json"),
      JSON.stringify({ statusLine: { type: "command", command } }),
    );
  const bridge = async (args: string[] = ["--plugin-root", ROOT]) => {
    const run = await cli(["doctor", "--json", ...args], healthy(box));
    return parsedAs(DoctorJsonSchema, run.stdout).checks.find((c) =>
      c.name === "statusline bridge"
    )!;
  };
  await t.step("a bare name not on PATH", async () => {
    statusLine("lessons-reinject statusline");
    const found = await bridge();
    assertEquals(found.status, "warn", JSON.stringify(found));
    assertIncludes(found.detail, "no lessons-reinject is on PATH");
    assertEquals(found.fix, `set statusLine's command to ${join(ROOT, "hooks", "run")} statusline`);
  });
  await t.step("a path that exists", async () => {
    statusLine(`${join(ROOT, "hooks", "run")} statusline --pass | cat`);
    assertEquals((await bridge()).status, "ok");
  });
  await t.step(
    "after a marketplace install: the installed path, which names its version",
    async () => {
      const installed = join(claude, "plugins/cache/lessons-reinject/lessons-reinject/0.1.0");
      Deno.mkdirSync(join(installed, "hooks"), { recursive: true });
      Deno.copyFileSync(join(ROOT, "hooks", "hooks.json"), join(installed, "hooks", "hooks.json"));
      statusLine("lessons-reinject statusline");
      const found = await bridge([]);
      assertEquals(found.status, "warn");
      assertIncludes(found.fix ?? "", `${join(installed, "hooks", "run")} statusline`);
      assertIncludes(found.fix ?? "", "its path holds the plugin's version");
    },
  );
});

Deno.test("doctor reports this folder's session as the hook's next call sees it, and the size preview gives, the length of what Claude Code receives", async () => {
  const box = sandbox();
  const rule = "- Run the tests before every commit.";
  const cwd = projectIn(box.dir, { "CLAUDE.md": `# Project\n${marked(rule)}` });
  const projects = sessionsFolder(box.dir, cwd);
  const transcript = join(projects, "size-session.jsonl");
  const env = healthy(box);
  // 31% of a 200k window, and (later) 40%: a refresh due, then none due, the next one ahead.
  for (const [tokens, due] of [[62_000, true], [80_000, false]] as const) {
    const call = sonnetCall(transcript, tokens, `toolu_size${tokens}`);
    const size = (report: DoctorJson) =>
      Number(
        /in a refresh of ([\d,]+) of|a refresh of every source is ([\d,]+) of/.exec(
          report.checks.map((c) => c.detail).join("\n"),
        )?.slice(1).find((m) => m)?.replaceAll(",", ""),
      );
    const { code, report, check } = await doctorJson(env, [], cwd);
    const preview = JSON.parse((await cli(["preview", "--json"], env, "", cwd)).stdout);
    assertEquals([code, preview.due], [0, due]);
    assertEquals(size(report), preview.chars, `at ${tokens} tokens`);
    if (!due) continue;
    const session = check("this session");
    assertEquals(session.status, "ok");
    // Doctor names the window and its evidence; sonnet-4-6 may have opted in to 1M (uncertain).
    assertIncludes(
      session.detail,
      "31% of a 200k window (claude-sonnet-4-6 has 1M only if chosen; counted as 200k until a " +
        "reading shows more)",
    );
    assertIncludes(session.detail, "the next tool call refreshes: 31%");
    // And where Claude Code will compact it, and why.
    assertIncludes(session.detail, "; auto-compaction at 167,000 (the 200,000-token window)");
    // What Claude Code receives: the hook's additionalContext on this very call.
    const hook = await runHook({ ...call, cwd }, env);
    assertEquals(hook.context?.length, preview.chars);
    // 30% has fired now: at 40% nothing is due, and both measure the 52% refresh.
  }
});
