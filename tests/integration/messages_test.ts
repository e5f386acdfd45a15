/**
 * What the real entry point says when it is given something it cannot use: one plain line that
 * names the problem, exit 0 for the hook, never Deno's own wording or an "internal error".
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  entries,
  MAIN_COMMAND,
  payload,
  runHook,
  SAMPLE_MANIFEST,
  sandbox,
  sandboxSession,
  spawnWithStdin,
  writeTranscript,
} from "../_helpers.ts";

const posix = Deno.build.os !== "windows";

Deno.test({
  name:
    "a directory given as stdin: the hook says so in one plain line, statusline on its line; exit 0",
  ignore: !posix, // needs sh to open a directory as stdin
  async fn(t) {
    const box = sandbox();
    const cases = [
      [
        "the hook",
        [],
        "",
        "lessons-reinject: stdin is a directory, not a hook payload; nothing to do\n",
      ],
      [
        "statusline",
        ["statusline"],
        "lessons-reinject: no context reading (stdin is a directory, not a hook payload)\n",
        "lessons-reinject: statusline not recorded: stdin is a directory, not a hook payload\n",
      ],
    ] as const;
    for (const [name, args, stdout, stderr] of cases) {
      await t.step(name, async () => {
        // Deno.Command can only pipe, inherit or close stdin: sh opens the directory for it.
        const run = await spawnWithStdin(
          "sh",
          ["-c", 'dir=$1; shift; exec "$@" < "$dir"', "sh", box.dir, ...MAIN_COMMAND, ...args],
          "",
          { ...box.env, LESSONS_DEBUG: "1" },
        );
        assertEquals([run.code, run.stdout, run.stderr], [0, stdout, stderr]);
      });
    }
  },
});

Deno.test({
  name: "a state folder under /proc is refused in plain words, without Deno's --allow-all advice",
  ignore: Deno.build.os !== "linux", // /proc is Linux's
  async fn() {
    const { env, call } = sandboxSession(
      { LESSONS_CONTEXT_WINDOW: "100000", LESSONS_STATE_DIR: "/proc/nope", LESSONS_DEBUG: "1" },
      [entries.assistant(31_000, ["toolu_1"])],
    );
    const run = await runHook(call("toolu_1"), env);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.context, undefined);
    assertEquals(
      run.stderr,
      "lessons-reinject: PostToolUse Bash: nothing: state folder /proc/nope: a system path " +
        "(under /proc, /dev or /sys) that the hook is not allowed to use\n",
    );
    const [program, ...args] = MAIN_COMMAND;
    const doctor = await spawnWithStdin(program!, [...args, "doctor"], "", env);
    ok(!doctor.stdout.includes("--allow-all"), doctor.stdout);
    ok(doctor.stdout.includes("state folder /proc/nope: a system path"), doctor.stdout);
  },
});

Deno.test("the debug line says a reason once: no 'X → X' when there is no reading", async () => {
  const { env, call } = sandboxSession({ LESSONS_DEBUG: "1", LESSONS_REINJECT_WAIT_MS: "1" }, [
    { type: "user", message: { role: "user", content: "hi" } },
  ]);
  const run = await runHook(call("toolu_none"), env);
  const line = run.stderr.trim();
  ok(line.includes("nothing: no usage in the transcript; tool call 1"), line);
  ok(!line.includes("→"), line);
});

Deno.test({
  name: "a state folder it will not use is told to the user once, at SessionStart startup",
  ignore: !posix, // POSIX modes
  async fn() {
    const box = sandbox();
    Deno.mkdirSync(box.stateDir, { recursive: true });
    Deno.chmodSync(box.stateDir, 0o777);
    const startup = payload("SessionStart.startup", { transcript_path: box.transcript });
    const open = await runHook(startup, box.env);
    assertEquals(open.code, 0, open.stderr);
    assertEquals(
      JSON.parse(open.stdout),
      {
        systemMessage: `lessons-reinject: state folder ${box.stateDir} is writable by others ` +
          "(mode 777): it will not use it, so no context refresh is given; chmod 700 " +
          `${box.stateDir} if it is yours, or point LESSONS_STATE_DIR (or stateDir in the ` +
          "config file) at a private folder",
      },
    );
    // A tool call in that session stays silent, as before: the notice was the one word.
    writeTranscript(box.transcript, [entries.assistant(120_000, ["toolu_1"])]);
    const call = await runHook(
      payload("PostToolUse.Bash", { transcript_path: box.transcript }),
      box.env,
    );
    assertEquals([call.code, call.stdout, call.stderr], [0, "", ""]);
    // A private folder: nothing to say.
    Deno.chmodSync(box.stateDir, 0o700);
    const quiet = await runHook(startup, box.env);
    assertEquals([quiet.code, quiet.stdout, quiet.stderr], [0, "", ""]);
  },
});

Deno.test("rules that cannot be read are told to the user once, at SessionStart startup; with no other source, that nothing is restated", async (t) => {
  const box = sandbox();
  const project = `${box.dir}/project`;
  Deno.mkdirSync(`${project}/.git`, { recursive: true });
  const claudeMd = `${project}/CLAUDE.md`;
  const env = { ...box.env, HOME: box.dir, LESSONS_MANIFEST_PATH: "" };
  const startup = payload("SessionStart.startup", {
    transcript_path: box.transcript,
    cwd: project,
  });
  const say = async (extra: Record<string, string> = {}) => {
    const run = await runHook(startup, { ...env, ...extra });
    assertEquals([run.code, run.stderr], [0, ""]);
    return run.stdout === "" ? undefined : JSON.parse(run.stdout).systemMessage;
  };
  const FIX = "fix it, then `preview` shows the text";
  const unclosed = `lessons-reinject: ${claudeMd}:7: section never closed; left out; ${FIX}`;
  await t.step("an unclosed marker in the only rules file: its path and line", async () => {
    Deno.writeTextFileSync(claudeMd, "# Notes\n\n<!-- reinject -->\nKeep commits small.\n");
    assertEquals(
      await say(),
      `lessons-reinject: ${claudeMd}:3: section never closed; left out, and no other source ` +
        "has rules, so no context refresh is given; fix it, then `preview` shows the text",
    );
  });
  await t.step("one good section and one unclosed: the unclosed one, alone", async () => {
    const good = "<!-- reinject -->\nKeep commits small.\n<!-- /reinject -->\n";
    Deno.writeTextFileSync(claudeMd, `# Notes\n\n${good}\n<!-- reinject -->\nTypo.\n`);
    assertEquals(await say(), unclosed);
    // So does it when the manifest has lessons, and preview lists it as left out.
    assertEquals(await say({ LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST }), unclosed);
    const [program, ...args] = MAIN_COMMAND;
    const preview = await spawnWithStdin(program!, [...args, "preview"], "", env, project);
    const flat = preview.stdout.replace(/\s+/g, " ");
    ok(flat.includes(`left out ${claudeMd}:7: section never closed (not read: fix it) `), flat);
  });
  await t.step("no rules anywhere and nothing broken: nothing to say", async () => {
    Deno.writeTextFileSync(claudeMd, "# Notes\n");
    assertEquals(await say(), undefined);
    Deno.mkdirSync(`${project}/.claude`);
    Deno.writeTextFileSync(`${project}/.claude/reinject.md`, "Answer in English.\n");
    assertEquals(await say(), undefined);
    Deno.removeSync(`${project}/.claude`, { recursive: true });
  });
  await t.step("a rules file the settings name that does not exist: named", async () => {
    const rules = join(box.dir, "rules.md");
    const extra = { LESSONS_REINJECT_RULES_FILES: rules, LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST };
    assertEquals(await say(extra), `lessons-reinject: ${rules}: there is no such file; ${FIX}`);
  });
  await t.step("a manifest that cannot be parsed: named", async () => {
    const manifest = `${box.dir}/lesson-manifest.json`;
    Deno.writeTextFileSync(manifest, "{ not json");
    const notice: string = await say({ LESSONS_MANIFEST_PATH: manifest });
    ok(notice.startsWith("lessons-reinject: ") && notice.includes(manifest), notice);
    ok(!notice.includes("\n"), notice);
  });
});

Deno.test("settings it cannot use: a line each with the fix at SessionStart startup, three at most, and a marker on the statusline", async (t) => {
  const box = sandbox();
  const [config, nope] = [join(box.dir, "config.jsonc"), join(box.dir, "nope.json")];
  Deno.writeTextFileSync(config, '{ "maxChars": ');
  const [program, ...args] = MAIN_COMMAND;
  /** The real entry point on a captured payload, with the sandbox's env and `extra`. */
  const run = async (name: string, extra: Record<string, string>, more: string[] = []) => {
    const input = payload(name, { transcript_path: box.transcript });
    const env = { ...box.env, HOME: box.dir, ...extra };
    return (await spawnWithStdin(program!, [...args, ...more], input, env)).stdout;
  };
  const said = async (extra: Record<string, string>) => ({
    lines: String(JSON.parse(await run("SessionStart.startup", extra)).systemMessage).split("\n"),
    statusline: await run("statusline.mid-session-2.1.328", extra, ["statusline"]),
  });
  const [file, variable] = [
    "; correct that file (`doctor` says more)",
    "; correct or unset that variable",
  ];
  const named = join(box.dir, "named.json");
  Deno.writeTextFileSync(named, JSON.stringify({ manifestPath: nope }));
  const bad: [Record<string, string>, string, string][] = [
    [{ LESSONS_CONFIG: config }, `config ${config}:1:`, file],
    [{ LESSONS_REINJECT_THRESHOLDS: "30,abc" }, 'LESSONS_REINJECT_THRESHOLDS="30,abc": ', variable],
    [
      { LESSONS_MANIFEST_PATH: nope },
      `LESSONS_MANIFEST_PATH="${nope}": there is no such file`,
      variable,
    ],
  ];
  const fromFile: typeof bad[number] = [
    { LESSONS_CONFIG: named, LESSONS_MANIFEST_PATH: "" },
    `config ${named}: manifestPath "${nope}": there is no such file`,
    file,
  ];
  for (const [extra, says, fix] of [...bad, fromFile]) {
    await t.step(says, async () => {
      const { lines: [first], statusline } = await said(extra);
      ok(first!.startsWith(`lessons-reinject: ${says}`), first);
      ok(first!.endsWith(fix), first);
      ok(statusline.endsWith(" · settings: 1 problem, see doctor\n"), statusline);
    });
  }
  await t.step("four at once: three lines, the last saying how many more", async () => {
    const all = Object.assign({ LESSONS_REINJECT_CADENCE: "x" }, ...bad.map(([extra]) => extra));
    const { lines, statusline } = await said(all);
    // The manifest's problem is a fifth line: no other source has rules in this sandbox.
    assertEquals(lines.slice(2), ["lessons-reinject: 3 more problems: `doctor` lists them"]);
    ok(statusline.includes("settings: 4 problems, see doctor"), statusline);
  });
});
