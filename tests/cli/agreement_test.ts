/**
 * `status` and `preview` are dry runs of the hook's own steps: they must name exactly what the
 * hook then does on its next call at that reading: on every real transcript, with no state file
 * (the hook recovers its earlier refreshes from the transcript) and with one; with no rules
 * anywhere; once a larger window is proven after refreshes made at the smaller one; and with a
 * config file in every place it can live, the hook's environment (`CLAUDE_PLUGIN_DATA`) not theirs.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  ErrorJsonSchema,
  PreviewJsonSchema,
  type StatusJson,
  StatusJsonSchema,
} from "../../src/cli/schemas.ts";
import {
  appendTranscript,
  copyPlugin,
  entries,
  type HookRun,
  MAIN_COMMAND,
  payload,
  pluginRecords,
  RECORDED,
  runHook,
  runRecorded,
  SKELETON_FIGURES,
  SKELETONS,
  spawnWithStdin,
  writeTranscript,
} from "../_helpers.ts";
import {
  assertIncludes,
  cli,
  type CliRun,
  home,
  marked,
  parsedAs,
  projectIn,
  ROOT,
  sandbox,
  sonnetCall,
  statuslineInput,
} from "./_cli.ts";

/** How a test runs the commands: `cli` itself, or the same from another copy of the program. */
type Commands = (
  args: string[],
  env: Record<string, string>,
  cwd: string,
  stdin?: unknown,
) => Promise<CliRun>;

function transcripts(): string[] {
  const skeletons = readdirSync(SKELETONS).filter((f) => f.endsWith(".jsonl")).sort()
    .map((f) => `${SKELETONS}/${f}`);
  if (skeletons.length !== 10) throw new Error(`${skeletons.length} skeletons in ${SKELETONS}`);
  return [RECORDED, ...skeletons];
}

/** Fails unless `status` (no state file yet) gives the figures SKELETON_FIGURES has for it. */
function assertFigures(path: string, status: StatusJson): void {
  const figures = SKELETON_FIGURES.find(([file]) => path.endsWith(`/${file}`));
  if (!figures) return;
  const [, tokens, window, model] = figures;
  if (model === undefined) {
    assertEquals([status.tokens, status.source], [null, null]);
    assertIncludes(status.reason ?? "", "compacted");
    assertEquals(status.beforeCompaction?.tokens, tokens);
    assertEquals(status.beforeCompaction?.window, window);
  } else {
    assertEquals([status.tokens, status.window], [tokens, window]);
    assertEquals(status.source, "transcript latest");
    const percent = (tokens / window) * 100;
    assert(Math.abs((status.percent ?? NaN) - percent) < 1e-9, String(status.percent));
  }
  assertEquals([status.transcript, status.thresholds], [path, [30, 52, 70]]);
}

/** The thresholds a refresh's header names, or [] for a periodic one. */
function namedIn(context: string): number[] {
  const match = /^\[lessons-reinject refresh ([0-9kM,]+) /.exec(context);
  const scale = (label: string) => label.endsWith("k") ? 1e3 : label.endsWith("M") ? 1e6 : 1;
  return match?.[1] ? match[1].split(",").map((t) => parseFloat(t) * scale(t)) : [];
}

/**
 * Runs `status` and `preview` on `path` from `cwd`, then the hook's next call there (`run`), and
 * checks that the commands named what the hook did. Returns the status report and the hook's run.
 */
async function agree(
  path: string,
  env: Record<string, string>,
  cwd: string,
  call: Record<string, unknown>,
  run: (call: Record<string, unknown>, env: Record<string, string>) => Promise<HookRun>,
  commands: Commands = (args, e, at) => cli(args, e, "", at),
) {
  const status = parsedAs(
    StatusJsonSchema,
    (await commands(["status", "--json", "--transcript", path], env, cwd)).stdout,
  );
  const shown = await commands(["preview", "--json", "--transcript", path], env, cwd);
  const hook = await run({
    ...call,
    session_id: status.sessionId,
    transcript_path: path,
    cwd,
    ...(status.agentId ? { agent_id: status.agentId, agent_transcript_path: path } : {}),
  }, env);
  const where = `status ${JSON.stringify(status.decision)}, hook ${hook.stderr}`;
  assertEquals(status.action, hook.context === undefined ? "nothing" : "refresh", where);
  assert(hook.stderr.includes(status.decision), where);
  if (shown.code !== 0) {
    // Nothing to restate: preview says so, in JSON too, and the hook injects nothing.
    assertIncludes(parsedAs(ErrorJsonSchema, shown.stdout).error, "nothing to restate");
    assertEquals(hook.context, undefined, where);
    return { status, hook };
  }
  const preview = parsedAs(PreviewJsonSchema, shown.stdout);
  assertEquals(preview.due, hook.context !== undefined, where);
  // When nothing is due, preview shows the next threshold's text instead.
  if (hook.context !== undefined) assertEquals(preview.text, hook.context, where);
  else if (status.next !== null) assertEquals(preview.thresholds, [status.next], where);
  assertEquals(status.pending, hook.context === undefined ? [] : namedIn(hook.context), where);
  return { status, hook };
}

Deno.test("status and preview agree with the hook's next call on every real transcript, status with its figures", async (t) => {
  for (const path of transcripts()) {
    await t.step(path.split("/").pop()!, async () => {
      const box = home();
      const env = { ...box.env, LESSONS_DEBUG: "1" };
      const call = payload("PostToolUse.Bash", { tool_use_id: undefined });
      // Without a state file, then with the one the hook wrote. The commands run here, in the
      // checkout: the same project as the hook's call, so the same rules.
      for (let round = 0; round < 2; round++) {
        const { status } = await agree(path, env, ROOT, call, runHook);
        if (round === 0) assertFigures(path, status);
      }
    });
  }
});

Deno.test("in a user's own project with no rules anywhere, status, preview and the hook's next call agree that nothing is restated", async () => {
  const box = home();
  const project = projectIn(box.dir);
  const env = { ...box.env, LESSONS_DEBUG: "1", LESSONS_MANIFEST_PATH: "" };
  const none = sonnetCall(box.transcript, 88_000, "toolu_n");
  // Before the hook's call and after it: it crossed 30, but gave nothing, so nothing is pending.
  for (let round = 0; round < 2; round++) {
    const { status } = await agree(box.transcript, env, project, none, runHook);
    assertEquals([status.action, status.pending, status.next], ["nothing", [], 30]);
    assertIncludes(status.decision, "44% crossed 30, but no rules to restate");
    assert(
      status.sources.some((s) => s.startsWith("CLAUDE.md: none found")),
      status.sources.join(),
    );
  }
  const human = await cli(["status", "--transcript", box.transcript], env, "", project);
  assertIncludes(
    human.stdout,
    "next call    does nothing: 44% crossed 30, but no rules to restate",
  );
  assert(!human.stdout.includes("pending"), human.stdout);
});

/** Five calls of claude-sonnet-4-6, counted as 200k until 250,000 tokens prove 1M. */
async function provenLarger(cadence: string) {
  const box = home();
  const env = { ...box.env, LESSONS_DEBUG: "1", LESSONS_REINJECT_CADENCE: cadence };
  writeTranscript(box.transcript, []);
  const steps = [62_000, 110_000, 150_000, 250_000, 320_000];
  const refreshed: number[][] = [];
  /** The window each refresh states: 200k while 1M is only possible, then 1M. */
  const stated: (string | undefined)[] = [];
  const atProof: unknown[] = [];
  for (const [i, tokens] of steps.entries()) {
    const id = `toolu_w${i}`;
    appendTranscript(box.transcript, [
      entries.assistant(tokens, [id], { model: "claude-sonnet-4-6" }),
    ]);
    const call = payload("PostToolUse.Bash", { tool_use_id: id });
    const { status, hook } = await agree(box.transcript, env, ROOT, call, runRecorded);
    refreshed.push(hook.context === undefined ? [] : namedIn(hook.context));
    stated.push(/ of the (\S+)-token context window/.exec(hook.context ?? "")?.[1]);
    if (tokens === 250_000) atProof.push(status.window, status.fired, status.next);
  }
  return { refreshed, stated, atProof };
}

Deno.test("status agrees with the hook once a larger window is proven after refreshes at 200k", async (t) => {
  await t.step("by default: what fired at 200k still counts; the cadence follows", async () => {
    const { refreshed, stated, atProof } = await provenLarger("");
    assertEquals(atProof, [1_000_000, [30, 52, 70], 260_000]);
    assertEquals(refreshed, [[30], [52], [70], [180_000, 220_000], [260_000, 300_000]]);
    assertEquals(stated, ["200k", "200k", "200k", "1M", "1M"]);
  });
  await t.step("with the cadence off: refreshes at 200k lie below 30 % of 1M", async () => {
    const { refreshed, stated, atProof } = await provenLarger("off");
    assertEquals(atProof, [1_000_000, [], 30]);
    assertEquals(refreshed, [[30], [52], [70], [], [30]]);
    assertEquals(stated, ["200k", "200k", "200k", undefined, "1M"]);
  });
});

Deno.test("a config file drives status, preview, doctor and the statusline wherever it lives, as it drives the hook", async (t) => {
  const places = [
    "LESSONS_CONFIG",
    "~/.config",
    "CLAUDE_PLUGIN_DATA, commands run from the cache copy",
    "CLAUDE_PLUGIN_DATA, commands run from the local marketplace's folder",
    "CLAUDE_PLUGIN_DATA, commands run from a clone, the plugin installed from GitHub",
    "CLAUDE_PLUGIN_DATA under CLAUDE_CONFIG_DIR, commands run from the cache copy",
    "CLAUDE_PLUGIN_DATA of claude --plugin-dir, commands run from the checkout",
  ];
  for (const place of places) {
    await t.step(place, async () => {
      const box = sandbox();
      const home = join(box.dir, "home");
      const project = projectIn(box.dir, { "CLAUDE.md": marked("Keep commits small.") });
      const claudeDir = place.includes("CLAUDE_CONFIG_DIR")
        ? join(box.dir, "claude-config")
        : join(home, ".claude");
      const plugins = join(claudeDir, "plugins");
      const inline = place.includes("--plugin-dir");
      const data = join(
        plugins,
        "data",
        `lessons-reinject-${inline ? "inline" : "lessons-reinject"}`,
      );
      const cacheCopy = join(plugins, "cache", "lessons-reinject", "lessons-reinject", "0.1.0");
      const env: Record<string, string> = {
        ...box.env,
        HOME: home,
        LESSONS_DEBUG: "1",
        LESSONS_MANIFEST_PATH: "",
        ...(place.includes("CLAUDE_CONFIG_DIR") ? { CLAUDE_CONFIG_DIR: claudeDir } : {}),
      };
      const hookEnv = { ...env };
      let file: string;
      let commands: Commands = (args, e, at, stdin = "") => cli(args, e, stdin, at);
      if (place === "LESSONS_CONFIG") {
        file = join(box.dir, "named.jsonc");
        env.LESSONS_CONFIG = hookEnv.LESSONS_CONFIG = file;
      } else if (place === "~/.config") {
        file = join(home, ".config", "lessons-reinject", "config.jsonc");
      } else {
        // Claude Code gives CLAUDE_PLUGIN_DATA to the plugin's hooks only.
        file = join(data, "lessons-reinject.jsonc");
        hookEnv.CLAUDE_PLUGIN_DATA = data;
        if (place.includes("cache copy")) {
          await copyPlugin(cacheCopy);
          commands = (args, e, at, stdin = "") =>
            spawnWithStdin(
              MAIN_COMMAND[0]!,
              [...MAIN_COMMAND.slice(1, -1), join(cacheCopy, "src", "main.ts"), ...args],
              stdin,
              e,
              at,
            );
        } else if (place.includes("local marketplace")) {
          // A GitHub install too: only the folder the commands run from tells them apart.
          pluginRecords(plugins, ROOT, { github: true });
        } else if (!inline) {
          const github = (known: string) =>
            known.replace('"source": "directory"', '"source": "github"');
          pluginRecords(plugins, ROOT, { known: github });
        }
      }
      Deno.mkdirSync(join(file, ".."), { recursive: true });
      Deno.writeTextFileSync(file, '{ "thresholds": [20, 40, 60] }\n');
      // 22 % of 200k: past the file's 20, short of the default 30.
      const call = sonnetCall(box.transcript, 44_000, "toolu_cf");
      const human = await commands(["status", "--transcript", box.transcript], env, project);
      // The report names the file (a long path wraps after a `/`).
      assertIncludes(human.stdout.replace(/\/\n +/g, "/"), `config file  ${file}`);
      const { status, hook } = await agree(
        box.transcript,
        env,
        project,
        call,
        (c) => runRecorded(c, hookEnv),
        commands,
      );
      assertEquals(namedIn(hook.context ?? ""), [20], hook.stderr);
      assertEquals([status.configFile, status.pending], [file, [20]]);
      // Once refreshed at 20, the statusline names 40 (with the defaults, 30).
      const input = statuslineInput({
        session_id: status.sessionId,
        transcript_path: box.transcript,
        cwd: project,
        context_window: { used_percentage: 22, context_window_size: 200_000 },
      });
      const bar = await commands(["statusline"], env, project, input);
      assertIncludes(bar.stdout, "next refresh at 80k (40%)");
      const said = await commands(["statusline", "--json"], env, project, input);
      assertIncludes(JSON.parse(said.stdout).configFile, file);
      const doctor = await commands(["doctor", "--json", "--project", project], env, project);
      const checks: { name: string; detail: string }[] = JSON.parse(doctor.stdout).checks;
      assertIncludes(checks.find((c) => c.name === "config file")?.detail ?? "", file);
    });
  }
});
