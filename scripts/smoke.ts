/**
 * Smoke test of a built hook, run by the release workflow on each OS against the compiled binary
 * (and through hooks/run), and by the tests here against `deno run` of the bundle:
 *
 *   deno run --allow-read --allow-write --allow-env --allow-run scripts/smoke.ts -- <command...>
 *
 * It pipes a captured PostToolUse payload whose transcript stands at 31 % of a 200k window and
 * expects the refresh JSON; the same call again, nothing; then at 25 % in a fresh state, nothing;
 * and `--version`, a command, answered from the commands' bundle.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  entries,
  payload,
  type ProcessRun,
  SAMPLE_MANIFEST,
  spawnWithStdin,
  writeTranscript,
} from "../tests/_helpers.ts";

/** One call's observable result. */
export type Call = ProcessRun;

/** Runs `command` once as Claude Code runs a hook: payload on stdin, a controlled environment. */
export async function callHook(
  command: readonly string[],
  stdin: string,
  env: Record<string, string>,
): Promise<Call> {
  const [program, ...args] = command;
  if (!program) throw new TypeError("Cannot run hook: command is empty");
  // A path given relative to the working folder (dist/...) is made absolute: on Windows a
  // program name is otherwise looked up on PATH only.
  const exe = program.includes("/") || program.includes("\\")
    ? (existsSync(program) ? resolve(program) : program)
    : program;
  return await spawnWithStdin(exe, args, stdin, env);
}

/** Tokens for `percent` of the 200k window of the recorded model (claude-sonnet-4-6). */
function tokensAt(percent: number): number {
  return Math.round(200_000 * percent / 100);
}

/** A sandbox with a transcript at `percent`, and the PostToolUse payload pointing at it. */
function scenario(percent: number): { stdin: string; env: Record<string, string> } {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-smoke-" });
  const transcript = join(dir, "session.jsonl");
  const base = payload("PostToolUse.Bash");
  const toolUseId = String(base.tool_use_id);
  writeTranscript(transcript, [
    entries.assistant(tokensAt(percent), [toolUseId]),
    entries.toolResult(toolUseId, "step0"),
  ]);
  const stdin = JSON.stringify({
    ...base,
    session_id: crypto.randomUUID(),
    transcript_path: transcript,
    cwd: dir,
  });
  return {
    stdin,
    env: {
      LESSONS_STATE_DIR: join(dir, "state"),
      LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST,
      LESSONS_REINJECT_WAIT_MS: "30",
      TMPDIR: dir,
    },
  };
}

/** Problems with a 31 % answer: it must be exactly the hook's JSON with a 30 % refresh. */
export function checkRefresh(call: Call): string[] {
  const problems: string[] = [];
  if (call.code !== 0) problems.push(`exit code ${call.code}, expected 0`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.stdout);
  } catch {
    return [
      ...problems,
      `stdout is not one JSON object: ${JSON.stringify(call.stdout.slice(0, 200))}`,
    ];
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return [...problems, "stdout is not a JSON object"];
  }
  const keys = Object.keys(parsed);
  const output = (parsed as Record<string, unknown>).hookSpecificOutput;
  if (keys.join() !== "hookSpecificOutput" || typeof output !== "object" || output === null) {
    return [...problems, `expected only hookSpecificOutput, got keys ${keys.join(", ")}`];
  }
  const { hookEventName, additionalContext } = output as Record<string, unknown>;
  if (hookEventName !== "PostToolUse") {
    problems.push(`hookEventName is ${JSON.stringify(hookEventName)}`);
  }
  if (typeof additionalContext !== "string") {
    problems.push("additionalContext is not a string");
  } else {
    if (!additionalContext.startsWith("[lessons-reinject refresh 30 ")) {
      problems.push(`refresh header missing: ${JSON.stringify(additionalContext.slice(0, 80))}`);
    }
    if (!additionalContext.includes("31%")) problems.push("refresh does not say 31%");
    if (additionalContext.length > 10_000) {
      problems.push(`${additionalContext.length} characters, over the 10,000 delivered inline`);
    }
  }
  return problems;
}

/** Problems with an answer that must be silence. */
export function checkSilent(call: Call): string[] {
  const problems: string[] = [];
  if (call.code !== 0) problems.push(`exit code ${call.code}, expected 0`);
  if (call.stdout !== "") {
    problems.push(`stdout not empty: ${JSON.stringify(call.stdout.slice(0, 200))}`);
  }
  return problems;
}

/**
 * Runs the checks against `command`: the three calls, and a command (`--version`), which a
 * release loads from the commands' bundle beside the hook's; returns the problems, labelled
 * (none: it passed).
 */
export async function smoke(command: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  const version = await callHook([...command, "--version"], "", {});
  if (version.code !== 0 || !/^lessons-reinject \d+\.\d+\.\d+\n$/.test(version.stdout)) {
    problems.push(
      `--version: exit ${version.code}, ${JSON.stringify(version.stdout + version.stderr)}`,
    );
  }
  const at31 = scenario(31);
  const first = await callHook(command, at31.stdin, at31.env);
  problems.push(...checkRefresh(first).map((p) => `31 %: ${p} (stderr: ${first.stderr.trim()})`));
  const again = await callHook(command, at31.stdin, at31.env);
  problems.push(...checkSilent(again).map((p) => `31 % again: ${p}`));
  const at25 = scenario(25);
  const quiet = await callHook(command, at25.stdin, at25.env);
  problems.push(...checkSilent(quiet).map((p) => `25 %: ${p} (stderr: ${quiet.stderr.trim()})`));
  for (const env of [at31.env, at25.env]) {
    await Deno.remove(env.TMPDIR ?? "", { recursive: true }).catch(() => {});
  }
  return problems;
}

if (import.meta.main) {
  const command = Deno.args[0] === "--" ? Deno.args.slice(1) : Deno.args;
  const encoder = new TextEncoder();
  if (command.length === 0) {
    Deno.stderr.writeSync(encoder.encode("usage: smoke.ts -- <hook command> [args...]\n"));
    Deno.exit(2);
  }
  const problems = await smoke(command);
  if (problems.length > 0) {
    for (const p of problems) Deno.stderr.writeSync(encoder.encode(`smoke FAILED: ${p}\n`));
    Deno.exit(1);
  }
  Deno.stdout.writeSync(
    encoder.encode(`smoke ok: ${command.join(" ")} (31 % refresh, once; 25 % silent)\n`),
  );
}
