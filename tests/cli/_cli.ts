/**
 * Helpers for the command tests: the executable as a subprocess (exactly the binary's
 * permissions, via tests/_helpers.ts), and its `--json` output checked against its schema.
 */
import { dirname, join } from "node:path";
import type * as z from "zod/mini";
import { DoctorJsonSchema } from "../../src/cli/schemas.ts";
import {
  baseEnv,
  entries,
  MAIN_COMMAND,
  payload,
  type ProcessRun,
  ROOT,
  sandbox,
  spawnWithStdin,
  writeTranscript,
} from "../_helpers.ts";

export { ROOT, sandbox };

export type CliRun = ProcessRun;

/**
 * Runs `lessons-reinject <args>` as the binary would run: `src/main.ts` with exactly its
 * permissions, `env` only (plus Deno's essentials), `stdin` piped in.
 */
export async function cli(
  args: string[],
  env: Record<string, string> = {},
  stdin: unknown = "",
  cwd = ROOT,
): Promise<CliRun> {
  const [program, ...rest] = MAIN_COMMAND;
  return await spawnWithStdin(program!, [...rest, ...args], stdin, env, cwd);
}

/**
 * Runs `lessons-reinject <args>` from the checkout on a terminal: util-linux `script` gives it a
 * pseudo-terminal as stdin and stdout, `columns` wide when given. Its stdout is what the terminal
 * showed.
 */
export async function onTerminal(
  args: string[],
  env: Record<string, string>,
  columns?: number,
): Promise<CliRun> {
  const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
  const command = [...MAIN_COMMAND, ...args].map(quote).join(" ");
  const out = await new Deno.Command("script", {
    args: [
      "-qec",
      columns === undefined ? command : `stty cols ${columns} rows 50; ${command}`,
      "/dev/null",
    ],
    env: baseEnv(env),
    clearEnv: true,
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** A sandbox (tests/_helpers.ts) that is also the home folder: no user's ~/.claude is read. */
export function home(): ReturnType<typeof sandbox> {
  const box = sandbox();
  return { ...box, env: { ...box.env, HOME: box.dir } };
}

/** The env of a user with deno on PATH (doctor's binary check), `manifest` LESSONS_MANIFEST_PATH. */
export function userEnv(box: { dir: string; env: Record<string, string> }, manifest: string) {
  const PATH = dirname(Deno.execPath());
  return { ...box.env, HOME: box.dir, PATH, LESSONS_MANIFEST_PATH: manifest };
}

/**
 * Writes `transcript` as one claude-sonnet-4-6 reading of `tokens`, calling tool `id`, and
 * returns the hook's PostToolUse payload for that call (tests/fixtures).
 */
export function sonnetCall(transcript: string, tokens: number, id: string) {
  const line = entries.assistant(tokens, [id], { model: "claude-sonnet-4-6" });
  writeTranscript(transcript, [line]);
  return callOf(line, transcript, id);
}

/** The hook's PostToolUse payload (tests/fixtures) for tool call `id`, in `line`'s session. */
export function callOf(line: Record<string, unknown>, transcript: string, id: string) {
  const call = { session_id: String(line.sessionId), transcript_path: transcript, tool_use_id: id };
  return payload("PostToolUse.Bash", call);
}

/** Claude Code's folder of `project`'s sessions under `home` (`/a/my.app` -> `-a-my-app`), made. */
export function sessionsFolder(home: string, project: string): string {
  const folder = join(home, ".claude", "projects", project.replace(/[^a-zA-Z0-9]/g, "-"));
  Deno.mkdirSync(folder, { recursive: true });
  return folder;
}

/** A section of rules marked for restating, as a user marks them in CLAUDE.md or AGENTS.md. */
export const marked = (text: string) => `<!-- reinject -->\n${text}\n<!-- /reinject -->\n`;

/**
 * Makes the project folder `dir/name`, a git repository (the CLAUDE.md lookup stops there), with
 * `files` (paths relative to it, folders made) written in it; returns its path.
 */
export function projectIn(dir: string, files: Record<string, string> = {}, name = "project") {
  const project = join(dir, name);
  Deno.mkdirSync(join(project, ".git"), { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    Deno.mkdirSync(dirname(join(project, file)), { recursive: true });
    Deno.writeTextFileSync(join(project, file), text);
  }
  return project;
}

/**
 * Runs `doctor --json --plugin-root <checkout> <args>` from `cwd` (a later `--plugin-root` in
 * `args` wins): its exit code, its report, and `check(name)`, which fails when there is none.
 */
export async function doctorJson(env: Record<string, string>, args: string[] = [], cwd = ROOT) {
  const run = await cli(["doctor", "--json", "--plugin-root", ROOT, ...args], env, "", cwd);
  const report = parsedAs(DoctorJsonSchema, run.stdout);
  const check = (name: string) => {
    const found = report.checks.find((c) => c.name === name);
    if (!found) throw new Error(`no check named ${name} in ${run.stdout}`);
    return found;
  };
  return { code: run.code, report, check };
}

/** Runs `lessons-reinject <args>` as {@link cli} does, and fails (showing stderr) unless it exits 0. */
export async function cliOk(
  args: string[],
  env: Record<string, string> = {},
  stdin: unknown = "",
  cwd = ROOT,
): Promise<CliRun> {
  const run = await cli(args, env, stdin, cwd);
  if (run.code !== 0) throw new Error(`${args.join(" ")}: exit ${run.code}\n${run.stderr}`);
  return run;
}

/**
 * Runs a command with `--json`, fails unless it exits 0 (doctor's failures exit 1: use
 * {@link cli} for those), and returns its stdout validated against `schema`.
 */
export async function cliJson<T>(
  schema: z.ZodMiniType<T>,
  args: string[],
  env: Record<string, string> = {},
  stdin: unknown = "",
  cwd = ROOT,
): Promise<T> {
  return parsedAs(schema, (await cliOk([...args, "--json"], env, stdin, cwd)).stdout);
}

/** Parses stdout as JSON and validates it; throws naming the first mismatch. */
export function parsedAs<T>(schema: z.ZodMiniType<T>, stdout: string): T {
  const result = schema.safeParse(JSON.parse(stdout));
  if (!result.success) {
    throw new Error(`output does not match its schema: ${JSON.stringify(result.error.issues)}`);
  }
  return result.data;
}

/** The documented statusLine stdin (see tests/cli/fixtures/README.md), with overrides. */
export function statuslineInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const text = Deno.readTextFileSync(
    join(ROOT, "tests", "cli", "fixtures", "statusline.documented-2.1.328.json"),
  );
  return { ...JSON.parse(text), ...overrides };
}

/**
 * A report with its wrapped values joined again: a line indented to `column` (where `status`
 * puts its values) continues the one before.
 */
export function unwrap(text: string, column = 13): string {
  return text.replace(new RegExp(`\n {${column}}(?=\\S)`, "g"), " ");
}

/** Fails unless `text` contains `part`, showing the text. */
export function assertIncludes(text: string, part: string): void {
  if (!text.includes(part)) {
    throw new Error(`expected to find ${JSON.stringify(part)} in:\n${text}`);
  }
}
