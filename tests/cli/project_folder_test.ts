/**
 * The commands act on the folder they are started from, asked as a new user would from a project
 * of their own outside the checkout, with rules marked in its CLAUDE.md and no lessons-learned:
 * through `deno task` (which runs in the checkout and names the caller's folder in INIT_CWD), the
 * checkout's `hooks/run`, or `--project DIR`. Their reports fit the width: 80 columns here.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { DoctorJsonSchema, PreviewJsonSchema, StatusJsonSchema } from "../../src/cli/schemas.ts";
import { entries, spawnWithStdin, writeTranscript } from "../_helpers.ts";
import {
  assertIncludes,
  cli,
  cliJson,
  home,
  marked,
  parsedAs,
  projectIn,
  ROOT,
  sessionsFolder,
} from "./_cli.ts";

const RULE = "Run the tests before every commit.";

/** A project with a marked CLAUDE.md and one session, under a fresh home with nothing else. */
function newUser(name = "my-app") {
  const box = home();
  const project = projectIn(box.dir, { "CLAUDE.md": `# My app\n\n${marked(RULE)}` }, name);
  const sessions = sessionsFolder(box.dir, project);
  const line = entries.assistant(40_000, ["toolu_p"], { model: "claude-sonnet-4-6" });
  const transcript = join(sessions, `${line.sessionId}.jsonl`);
  writeTranscript(transcript, [line]);
  const env: Record<string, string> = box.env;
  delete env.LESSONS_MANIFEST_PATH; // no lessons-learned: CLAUDE.md is the only source
  return { box, project, transcript, env };
}

/** `deno task --quiet <args>` run from `cwd`; CONFIG names the checkout's deno.json. */
const denoTask = (args: string[], env: Record<string, string>, cwd: string) =>
  spawnWithStdin(Deno.execPath(), ["task", "--quiet", ...args], "", env, cwd);
const CONFIG = ["--config", join(ROOT, "deno.json")];

type Runner = (args: string[], user: ReturnType<typeof newUser>) => Promise<{
  code: number;
  stdout: string;
  stderr: string;
}>;

const RUNNERS: Record<string, Runner> = {
  "deno task --config <checkout>/deno.json hook, from the project": (args, u) =>
    denoTask([...CONFIG, "hook", ...args], u.env, u.project),
  "<checkout>/hooks/run, from the project": (args, u) =>
    spawnWithStdin(join(ROOT, "hooks", "run"), args, "", u.env, u.project),
  "--project DIR, from the checkout": (args, u) =>
    cli([...args, "--project", u.project], u.env, "", ROOT),
};

Deno.test("preview, status and doctor look at the project they are run for", async (t) => {
  for (const [name, run] of Object.entries(RUNNERS)) {
    await t.step(name, async () => {
      const user = newUser();
      const preview = await run(["preview", "--json"], user);
      assertEquals(preview.code, 0, preview.stderr);
      assertIncludes(
        parsedAs(PreviewJsonSchema, preview.stdout).text ?? "",
        `## Rules you marked in CLAUDE.md\n\n${RULE}`,
      );
      const status = await run(["status", "--json"], user);
      assertEquals(status.code, 0, status.stderr);
      assertEquals(parsedAs(StatusJsonSchema, status.stdout).transcript, user.transcript);
      const doctor = await run(["doctor", "--json"], user);
      const report = parsedAs(DoctorJsonSchema, doctor.stdout);
      assertEquals([report.checks.filter((c) => c.status === "fail"), doctor.code], [[], 0]);
      // hooks/run runs from the checkout: doctor finds it, whatever folder it is run from.
      assertEquals(
        report.checks.find((c) => c.name === "plugin")?.detail,
        `${ROOT} (the checkout this runs from)`,
      );
      assertIncludes(report.checks.find((c) => c.name === "rules")?.detail ?? "", "CLAUDE.md");
    });
  }
});

Deno.test("from a subfolder of the project, the commands find the session started at its root", async () => {
  const user = newUser();
  const deep = join(user.project, "src", "deep");
  Deno.mkdirSync(deep, { recursive: true });
  for (const command of ["status", "why"]) {
    const run = await cli([command, "--json"], user.env, "", deep);
    assertEquals(run.code, 0, `${command}: ${run.stderr}`);
    assertEquals(JSON.parse(run.stdout).transcript, user.transcript, command);
  }
  const preview = await cli(["preview", "--json"], user.env, "", deep);
  assert(
    !parsedAs(PreviewJsonSchema, preview.stdout).reason.includes("no session"),
    preview.stdout,
  );
  const doctor = await cliJson(DoctorJsonSchema, ["doctor"], user.env, "", deep);
  assertIncludes(doctor.checks.find((c) => c.name === "this session")?.detail ?? "", "20%");
  // Outside the repository nothing is found, and the message names --project.
  const elsewhere = join(user.box.dir, "elsewhere");
  Deno.mkdirSync(elsewhere);
  const none = await cli(["status"], user.env, "", elsewhere);
  assertEquals(none.code, 1);
  assertIncludes(none.stderr, `no transcript for ${elsewhere}`);
  assertIncludes(none.stderr, "pass --project DIR, the folder the session was started in");
  // A repository with no session anywhere up to its root says how far it looked.
  const other = newUser("other-app");
  Deno.removeSync(join(other.transcript, ".."), { recursive: true });
  Deno.mkdirSync(join(other.project, "lib"));
  const up = await cli(["status"], other.env, "", join(other.project, "lib"));
  assertIncludes(up.stderr, `or a folder above it up to ${other.project}`);
  assertIncludes(up.stderr, "--project DIR");
});

Deno.test("deno task: --cwd is one line, never a stack trace; demo, from a project, ends with commands that work there", async () => {
  const user = newUser();
  const moved = await denoTask(
    ["--cwd", user.project, ...CONFIG, "hook", "status"],
    user.env,
    ROOT,
  );
  assertEquals(moved.code, 2);
  assertEquals(moved.stderr.trim().split("\n").length, 1, moved.stderr);
  assertIncludes(moved.stderr, "--project DIR");
  const run = await denoTask([...CONFIG, "demo"], user.env, user.project);
  assertEquals(run.code, 0, run.stderr);
  const next = run.stdout.slice(run.stdout.indexOf("\nNext\n"));
  assertIncludes(next, `${join(ROOT, "hooks", "run")} doctor`);
  assertIncludes(next, `${join(ROOT, "hooks", "run")} --help`);
  assert(!next.includes("deno task hook"), next);
});

Deno.test("doctor and status fit 80 columns, and 100 piped, their values in one column", async () => {
  // A long project name makes long paths, which must wrap too: after a `/`; a name longer than a
  // line is never cut (help_test.ts), so it alone may overflow.
  const user = newUser(`a-project-with-a-rather-long-name-${"x".repeat(30)}`);
  for (const [columns, width] of [["80", 80], ["", 100]] as const) {
    const env = columns === "" ? user.env : { ...user.env, COLUMNS: columns };
    const status = await cli(["status"], env, "", user.project);
    const doctor = await cli(["doctor"], env, "", user.project);
    for (const run of [status, doctor]) {
      const wide = run.stdout.split("\n").filter((l) => [...l].length > width)
        .filter((l) => !/^ +[^ /]+\/?$/.test(l));
      assertEquals(wide, [], `COLUMNS=${columns}:\n${run.stdout}`);
    }
    // status: the gauge, then every line is a label column of 13, or a value under it.
    for (const line of status.stdout.split("\n").slice(2).filter((l) => l !== "")) {
      assert(/^[a-z ]{12} \S/.test(line), `out of column: ${line}`);
    }
    // doctor: each check's mark and name, then its detail and fix from column 28.
    const body = doctor.stdout.split("\n").slice(2, -3).filter((l) => l !== "");
    for (const line of body) {
      assert(
        /^ {2}(ok {4}|warn {2}|FAIL {2})[a-z ]{19}\S|^ {27}\S/.test(line),
        `out of column: ${line}`,
      );
    }
  }
});

Deno.test("the README's commands name hooks/run of this version, and --project", async () => {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const { version } = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  assertIncludes(readme, `/lessons-reinject/lessons-reinject/${version}/hooks/run doctor`);
  assertIncludes(readme, "deno task --config ~/src/lessons-reinject/deno.json hook preview");
  assertIncludes(readme, "`--project DIR`");
});
