/**
 * Every command, given bad paths and bad values, fails in one line that names the path (or the
 * value) and the reason, with the exit code docs/commands.md gives (1 a problem, 2 a wrong command
 * line): never Deno's uncaught-error trace, never its advice to rerun with --allow-all.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { MAIN_COMMAND, ROOT, skeletonTranscript, spawnWithStdin } from "../_helpers.ts";
import { cli, doctorJson, home, statuslineInput } from "./_cli.ts";

/**
 * What Deno prints for an error nothing caught: `error: Uncaught`, stack frames (`    at f
 * (file:///…:1:2)`, `    at ext:…`), and under /proc its advice to rerun with --allow-all. (A
 * report's wrapped line may well start with "at": a frame has a location.)
 */
const TRACE = [
  /error: Uncaught/,
  /Uncaught \(in promise\)/,
  /^\s+at .*(?:file:\/\/|ext:|\S:\d+:\d+\)?$)/m,
  /--allow-all/,
];

function assertNoTrace(text: string, what: string): void {
  for (const sign of TRACE) ok(!sign.test(text), `${what}: found ${sign} in:\n${text}`);
}

/** The first line of a failure: one `lessons-reinject:` line naming `names`, then at most help. */
function assertOneLine(stderr: string, names: string, what: string): void {
  const [first = "", ...rest] = stderr.split("\n");
  ok(first.startsWith("lessons-reinject: "), `${what}: stderr is\n${stderr}`);
  ok(first.includes(names), `${what}: ${JSON.stringify(first)} does not name ${names}`);
  // A usage error is followed by a blank line and the command's help; nothing else may follow.
  const after = rest.join("\n");
  ok(after === "" || after.startsWith("\nUsage:") || after.startsWith("\nlessons-reinject "), what);
}

/** Checks every item, four at a time (each is a Deno process); fails once, naming every failure. */
async function checkAll<T>(items: T[], check: (item: T) => Promise<void>): Promise<void> {
  const failures: string[] = [];
  for (let i = 0; i < items.length; i += 4) {
    await Promise.all(
      items.slice(i, i + 4).map((item) =>
        check(item).catch((error) => failures.push(error?.message ?? String(error)))
      ),
    );
  }
  assertEquals(failures, []);
}

interface Case {
  args: string[];
  env?: Record<string, string>;
  code: number;
  /** What its one line must name: the path or value given. */
  names: string;
  /** Words the reason must include (and words it must not). */
  says?: RegExp;
  never?: RegExp;
  /** The line is `lessons-reinject: <names>`, and nothing follows it. */
  exact?: true;
}

Deno.test("no command prints a stack trace for a bad path or value: one line, path and reason", async () => {
  const { env, ...box } = home();
  const transcript = skeletonTranscript("v2.1.185-three-compact-boundaries.jsonl");
  const missing = join(box.dir, "missing", "x.svg");
  const file = join(box.dir, "a-file");
  Deno.writeTextFileSync(file, "not a folder\n");
  const t = ["--transcript", transcript];
  // Files that are not transcripts, and why.
  const notTranscripts: [string, string | Uint8Array, string][] = [
    ["deno.json", Deno.readTextFileSync(join(ROOT, "deno.json")), "it is not JSON lines"],
    ["random.bin", crypto.getRandomValues(new Uint8Array(4096)), "it is not JSON lines"],
    ["notes.txt", "hello\nthis is plain text\n", "it is not JSON lines"],
    ["other.jsonl", '{"name":"a"}\n{"name":"b"}\n', "none of its lines is a transcript entry"],
    ["empty.jsonl", "", "it is empty"],
  ];
  for (const [name, content] of notTranscripts) {
    if (typeof content === "string") Deno.writeTextFileSync(join(box.dir, name), content);
    else Deno.writeFileSync(join(box.dir, name), content);
  }
  const cases: Case[] = [
    // status --timeline --svg: a missing folder, a folder, a system path (the three).
    ...["", "--json"].flatMap((json): Case[] =>
      [
        { svg: missing, says: /folder does not exist/ },
        { svg: box.dir, says: /is a folder/ },
        { svg: "/proc/x.svg", says: /system path/ },
        { svg: join(file, "x.svg"), says: /is a file/ },
      ].map(({ svg, says }) => ({
        args: ["status", "--timeline", ...(json ? [json] : []), "--svg", svg, ...t],
        code: 1,
        names: `cannot write the SVG to ${svg}`,
        says,
      }))
    ),
    // An empty value is no value: it used to write no SVG and say nothing.
    { args: ["status", "--timeline", "--svg", "", ...t], code: 2, names: "--svg needs a value" },
    { args: ["status", "--transcript", ""], code: 2, names: "--transcript needs a value" },
    { args: ["status", "--session", ""], code: 2, names: "--session needs a value" },
    // Transcripts that are not there, not files, or not readable.
    ...["status", "preview", "why"].flatMap((command): Case[] => [
      {
        args: [command, "--transcript", join(box.dir, "none.jsonl")],
        code: 1,
        names: "none.jsonl",
        says: /^lessons-reinject: no transcript at /,
      },
      {
        args: [command, "--transcript", box.dir],
        code: 1,
        names: box.dir,
        says: /is a folder, not a transcript/,
      },
      {
        args: [command, "--transcript", "/proc/self/status"],
        code: 1,
        names: "/proc/self/status",
        says: /system path/,
        never: /no transcript/,
      },
    ]),
    ...notTranscripts.flatMap(([name, , why]) =>
      ["", "--json"].map((json): Case => ({
        args: ["status", "--transcript", join(box.dir, name), ...(json ? [json] : [])],
        code: 1,
        names: `${join(box.dir, name)} is not a Claude Code transcript (${why}); pass a ` +
          "session's .jsonl file from ~/.claude/projects/, or --session ID",
        exact: true,
      }))
    ),
    { args: ["status", "--json", "--transcript", "/proc/x"], code: 1, names: "/proc/x" },
    {
      args: ["status", "--timeline", "--transcript", "/proc/x"],
      code: 1,
      names: "/proc/x",
      says: /system path/,
    },
    // --project: missing, a file, a folder the program may not read (it exists: not "no such").
    ...["status", "status --json", "status --timeline", "preview", "doctor"].flatMap(
      (command): Case[] => [
        {
          args: [...command.split(" "), "--project", join(box.dir, "nowhere")],
          code: 2,
          names: "nowhere: no such folder",
        },
        {
          args: [...command.split(" "), "--project", file],
          code: 2,
          names: `${file}: not a folder`,
        },
        {
          args: [...command.split(" "), "--project", "/proc/1"],
          code: 2,
          names: "--project /proc/1",
          says: /system path/,
          never: /no such/,
        },
      ],
    ),
    // Bad values.
    { args: ["preview", "--threshold", "abc"], code: 2, names: "--threshold abc" },
    { args: ["preview", "--threshold", "100"], code: 2, names: "--threshold 100" },
    { args: ["preview", "--threshold", ""], code: 2, names: "--threshold needs a value" },
    { args: ["preview", "--threshold"], code: 2, names: "--threshold needs a value" },
    { args: ["status", "--threshold", "30"], code: 2, names: "unknown option --threshold" },
    { args: ["demo", "--full=yes"], code: 2, names: "--full takes no value" },
    { args: ["statusline", "--pass", "extra"], code: 2, names: '"extra"' },
    { args: ["nonsense"], code: 2, names: 'unknown command "nonsense"' },
    // The demo's temporary folder: TMPDIR missing, a file, a system path.
    ...["", "--json"].flatMap((json): Case[] => [
      {
        args: ["demo", ...(json ? [json] : [])],
        env: { TMPDIR: join(box.dir, "gone") },
        code: 1,
        names: `TMPDIR ${join(box.dir, "gone")}`,
        says: /no such folder/,
      },
      { args: ["demo"], env: { TMPDIR: file }, code: 1, names: file, says: /not a folder/ },
      { args: ["demo"], env: { TMPDIR: "/proc" }, code: 1, names: "/proc", says: /system path/ },
    ]),
  ];
  await checkAll(cases, async (c) => {
    const what = `lessons-reinject ${c.args.map((a) => JSON.stringify(a)).join(" ")}` +
      (c.env ? ` with ${JSON.stringify(c.env)}` : "");
    const run = await cli(c.args, { ...env, ...c.env });
    assertNoTrace(run.stdout + run.stderr, what);
    assertEquals(run.code, c.code, `${what}: exit ${run.code}\n${run.stderr}`);
    assertOneLine(run.stderr, c.names, what);
    const line = run.stderr.split("\n")[0]!;
    if (c.says) ok(c.says.test(line), `${what}: ${line}`);
    if (c.never) ok(!c.never.test(line), `${what}: ${line}`);
    if (c.exact) assertEquals(run.stderr, `lessons-reinject: ${c.names}\n`, what);
    // Nothing on stdout, but --json's error.
    if (!c.args.includes("--json")) assertEquals(run.stdout, "", what);
    // With --json the error is JSON on stdout too (a usage error prints only the help).
    if (c.args.includes("--json") && c.code === 1) {
      assertEquals(JSON.parse(run.stdout).error, line.slice("lessons-reinject: ".length));
    }
  });
});

Deno.test("bad settings and folders in the environment: every command reports, none traces", async () => {
  const box = home();
  const transcript = skeletonTranscript("v2.1.185-three-compact-boundaries.jsonl");
  const file = join(box.dir, "a-file");
  Deno.writeTextFileSync(file, "x\n");
  const bad: Record<string, string>[] = [
    { LESSONS_CONFIG: "/proc/x" },
    { LESSONS_CONFIG: box.dir },
    { LESSONS_CONFIG: join(box.dir, "none", "c.jsonc") },
    { LESSONS_STATE_DIR: "/proc/x" },
    { LESSONS_STATE_DIR: file },
    { LESSONS_MANIFEST_PATH: "/proc/self/status" },
    { LESSONS_MANIFEST_PATH: box.dir },
    { LESSONS_REINJECT_THRESHOLDS: "abc" },
    { LESSONS_REINJECT_MAX_CHARS: "-1" },
    { LESSONS_CONTEXT_WINDOW: "huge" },
    { COLUMNS: "abc" },
    { HOME: "/proc/1" },
    { CLAUDE_CONFIG_DIR: "/proc/1" },
    { CLAUDE_PLUGIN_ROOT: "/proc" },
  ];
  const commands: { args: string[]; stdin?: unknown; codes: number[] }[] = [
    { args: ["status", "--transcript", transcript], codes: [0] },
    { args: ["status", "--timeline", "--transcript", transcript], codes: [0] },
    { args: ["preview", "--transcript", transcript], codes: [0, 1] },
    { args: ["doctor"], codes: [0, 1] },
    { args: ["doctor", "--plugin-root", "/proc"], codes: [1] },
    { args: ["statusline"], stdin: statuslineInput(), codes: [0] },
  ];
  const runs = bad.flatMap((extra) => commands.map((c) => ({ extra, ...c })));
  await checkAll(runs, async ({ extra, args, stdin, codes }) => {
    const run = await cli(args, { ...box.env, ...extra }, stdin ?? "");
    const what = `${JSON.stringify(extra)} lessons-reinject ${args.join(" ")}`;
    assertNoTrace(run.stdout + run.stderr, what);
    ok(codes.includes(run.code), `${what}: exit ${run.code}\n${run.stderr}`);
  });
});

Deno.test("stdout closed early (a pipe into `true`): one line, no trace", async () => {
  const box = home();
  const transcript = skeletonTranscript("v2.1.185-three-compact-boundaries.jsonl");
  const env = box.env;
  for (const args of [["doctor"], ["status", "--timeline", "--transcript", transcript], ["demo"]]) {
    // `true` exits at once; Deno takes far longer to start, so its first write finds no reader.
    const run = await spawnWithStdin(
      "sh",
      ["-c", '"$@" | true', "sh", ...MAIN_COMMAND, ...args],
      "",
      env,
      ROOT,
    );
    const what = `lessons-reinject ${args.join(" ")} | true`;
    assertNoTrace(run.stderr, what);
    assertEquals(
      run.stderr,
      `lessons-reinject: ${args[0]}: cannot write to stdout: it was closed (broken pipe)\n`,
    );
  }
});

Deno.test("doctor --plugin-root: a folder it may not read is not called missing", async () => {
  const { code, check } = await doctorJson(home().env, ["--plugin-root", "/proc"]);
  const detail = check("plugin").detail;
  assertEquals(code, 1, detail);
  ok(detail.startsWith("/proc (--plugin-root) cannot be read: it is a system path"), detail);
});
