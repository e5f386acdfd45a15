/**
 * Helpers for the hardening suite: hook processes started together, file-tree snapshots that
 * prove nothing was written outside the state folder, and transcripts at a chosen percentage.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join, relative } from "node:path";
import {
  baseEnv,
  entries,
  HOOK_PERMISSIONS,
  MAIN,
  payload,
  ROOT,
  runHook,
  sandbox,
  writeTranscript,
} from "../_helpers.ts";
import { lines, type ServerCommand, type ServerResult } from "./_hook_server.ts";
import { statePaths } from "../../src/io/state_store.ts";

/** The per-session token refresh headers carry (see src/core/header.ts). */
export { refreshToken as sessionToken } from "../../src/io/state_store.ts";

/** Context window used throughout: 100,000 tokens, so 31,000 tokens is 31 %. */
export const WINDOW = 100_000;
/** The session of the captured PostToolUse payload. */
export const SESSION = String(payload("PostToolUse.Bash").session_id);
/** The names the hook gives its state files: hashes of the session (and agent) id. */
export const STATE_NAME = /^lessons-[0-9a-f]{16}(-[0-9a-f]{16})?-reinject\.(json|lock)$/;

/**
 * Every path under `root` (not following symlinks) but those in `skip`, relative to it: its kind,
 * size and mtime.
 */
export function snapshotTree(root: string, skip: readonly string[] = []): Map<string, string> {
  const seen = new Map<string, string>();
  const walk = (dir: string) => {
    let list: Deno.DirEntry[];
    try {
      list = [...Deno.readDirSync(dir)];
    } catch {
      return;
    }
    for (const entry of list) {
      const path = join(dir, entry.name);
      if (skip.includes(relative(root, path))) continue;
      let info: Deno.FileInfo;
      try {
        info = Deno.lstatSync(path);
      } catch {
        continue;
      }
      const kinds = { symlink: info.isSymlink, dir: info.isDirectory, file: info.isFile };
      const kind = Object.entries(kinds).find(([, is]) => is)?.[0] ?? "other";
      const seenAs = kind === "dir" ? kind : `${kind} ${info.size} ${info.mtime?.getTime()}`;
      seen.set(relative(root, path), seenAs);
      if (kind === "dir") walk(path);
    }
  };
  walk(root);
  return seen;
}

/**
 * Paths added, removed or changed between two snapshots, except under `allowed` (relative
 * folder names; their own entries and everything inside them).
 */
export function changesOutside(
  before: Map<string, string>,
  after: Map<string, string>,
  allowed: readonly string[],
): string[] {
  const inside = (path: string) => allowed.some((a) => path === a || path.startsWith(`${a}/`));
  const changed: string[] = [];
  for (const [path, now] of after) {
    if (inside(path)) continue;
    const was = before.get(path);
    if (was !== now) changed.push(`${was ? "changed" : "added"} ${path}`);
  }
  for (const path of before.keys()) {
    if (!inside(path) && !after.has(path)) changed.push(`removed ${path}`);
  }
  return changed;
}

/**
 * A transcript whose previous turn sat at `before` % and whose newest response, at `now` %,
 * holds `toolUseIds` split over one entry per block with a shared message id, as Claude Code
 * writes parallel tool calls.
 */
export function crossingTranscript(
  path: string,
  before: number,
  now: number,
  toolUseIds: readonly string[],
): void {
  const messageId = `msg_${crypto.randomUUID()}`;
  writeTranscript(path, [
    entries.assistant(Math.round(before * WINDOW / 100), ["toolu_prev"]),
    entries.toolResult("toolu_prev"),
    ...toolUseIds.map((id) =>
      entries.assistant(Math.round(now * WINDOW / 100), [id], { messageId })
    ),
  ]);
}

/** A sandbox (tests/_helpers.ts) removed when the scope holding it (`using`) ends. */
export function box(): ReturnType<typeof sandbox> & Disposable {
  const made = sandbox();
  return { ...made, [Symbol.dispose]: () => Deno.removeSync(made.dir, { recursive: true }) };
}

/** A sandbox at a 25 % → `percent` crossing whose newest entry holds `toolu_x`. */
export interface Crossing extends Disposable {
  box: ReturnType<typeof sandbox>;
  env: Record<string, string>;
  stdin: Record<string, unknown>;
  /** Where the state file of {@link SESSION} goes. */
  statePath: string;
}

/** A {@link Crossing}, removed when the scope holding it (`using`) ends. */
export async function crossing(percent = 31): Promise<Crossing> {
  const made = box();
  crossingTranscript(made.transcript, 25, percent, ["toolu_x"]);
  return {
    box: made,
    env: { ...made.env, LESSONS_CONTEXT_WINDOW: String(WINDOW), LESSONS_DEBUG: "1" },
    stdin: payload("PostToolUse.Bash", {
      transcript_path: made.transcript,
      tool_use_id: "toolu_x",
    }),
    statePath: (await statePaths(made.stateDir, SESSION)).state,
    [Symbol.dispose]: made[Symbol.dispose],
  };
}

/** The hook run as a process in `c`: its answer checked sane, its context, how long it took. */
export async function hook(
  c: Crossing,
  overrides: Record<string, string> = {},
  stdin: unknown = c.stdin,
) {
  const started = performance.now();
  const run = await runHook(stdin, { ...c.env, ...overrides });
  const context = assertSane(run);
  return { ...run, context, ms: performance.now() - started };
}

/** `deno run` of `script` in the checkout, with exactly the binary's permissions, `env` only. */
const spawnDeno = (script: string, env: Record<string, string>, stderr: "null" | "inherit") =>
  new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", ...HOOK_PERMISSIONS, script],
    cwd: ROOT,
    env: baseEnv(env),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr,
  }).spawn();

/**
 * Starts one src/main.ts process per stdin, all spawned before any is fed, then feeds them all at
 * once: they reach the lock together, as parallel tool calls do. Returns each one's exit code
 * and stdout.
 */
export async function startTogether(
  stdins: readonly unknown[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string }[]> {
  const children = stdins.map(() => spawnDeno(MAIN, env, "null"));
  await Promise.all(children.map(async (child, i) => {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(JSON.stringify(stdins[i]))).catch(() => {});
    await writer.close().catch(() => {});
  }));
  return await Promise.all(children.map(async (child) => {
    const out = await child.output();
    return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
  }));
}

/** The thresholds a refresh header names (`[lessons-reinject refresh 30,52 ref=…]`). */
export function headerThresholds(context: string | undefined): string | undefined {
  return context?.match(/^\[lessons-reinject refresh ([0-9,]+|calls:[0-9]+) ref=/)?.[1];
}

/** Reads a JSON file, or undefined. */
export function readJson(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(Deno.readTextFileSync(path));
  } catch {
    return undefined;
  }
}

/** Puts `entry` into the transcript as its line number `at` (0-based). */
export function insertLine(transcript: string, at: number, entry: unknown): void {
  const lines = Deno.readTextFileSync(transcript).trimEnd().split("\n");
  lines.splice(at, 0, JSON.stringify(entry));
  Deno.writeTextFileSync(transcript, lines.join("\n") + "\n");
}

/** A pool of long-lived hook processes (see _hook_server.ts). */
export class HookServers implements AsyncDisposable {
  #children: Deno.ChildProcess[] = [];
  #writers: WritableStreamDefaultWriter<Uint8Array>[] = [];
  #readers: AsyncIterator<string>[] = [];
  #next = 0;

  constructor(count: number) {
    for (let i = 0; i < count; i++) {
      const child = spawnDeno(join(ROOT, "tests", "hardening", "_hook_server.ts"), {}, "inherit");
      this.#children.push(child);
      this.#writers.push(child.stdin.getWriter());
      this.#readers.push(lines(child.stdout)[Symbol.asyncIterator]());
    }
  }

  /** The operating-system process ids, to show they are distinct processes. */
  get pids(): number[] {
    return this.#children.map((c) => c.pid);
  }

  /** Sends `commands[i]` to process i, all at once, and returns the results in order. */
  async run(commands: readonly Omit<ServerCommand, "id">[]): Promise<ServerResult[]> {
    if (commands.length > this.#children.length) throw new RangeError("not enough processes");
    const ids = commands.map(() => this.#next++);
    await Promise.all(commands.map((command, i) =>
      this.#writers[i]!.write(
        new TextEncoder().encode(JSON.stringify({ ...command, id: ids[i] }) + "\n"),
      )
    ));
    return await Promise.all(commands.map(async (_, i) => {
      const line = await this.#readers[i]!.next();
      if (line.done) throw new Error(`hook process ${i} ended early`);
      const result: ServerResult = JSON.parse(line.value);
      if (result.id !== ids[i]) throw new Error(`hook process ${i} answered out of order`);
      return result;
    }));
  }

  /** Ends every process (closing stdin ends its loop) and waits for them. */
  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all(this.#writers.map((w) => w.close().catch(() => {})));
    await Promise.all(this.#children.map((c) => c.status));
    await Promise.all(this.#readers.map((r) => r.return?.()));
  }
}

/** Says a case needs what this machine cannot give (a tmpfs or a chown needs root). */
export function skipped(why: string): void {
  // deno-lint-ignore no-console
  console.log(`  skipped: ${why}`);
}

/** A whole number from the environment, or `fallback`. */
export function envCount(name: string, fallback: number): number {
  const raw = Deno.env.get(name);
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}

/** The hook's process exited 0 and its stdout is sane ({@link saneAnswer}): its context. */
export function assertSane(
  run: { code: number; stdout: string },
  label = "",
  event?: string,
): string | undefined {
  assertEquals(run.code, 0, `${label}: exit code`);
  return saneAnswer(run.stdout || undefined, label, event);
}

/**
 * The hook's stdout is sane: none, or one JSON object holding only `hookSpecificOutput`, whose
 * `additionalContext` is a string of 1 to 10,000 characters (and whose `hookEventName` is `event`,
 * when given); at SessionStart, or `{"systemMessage": ...}`: at most three lines for the user, each
 * naming the hook. Returns the context.
 */
export function saneAnswer(
  stdout: string | undefined,
  label = "",
  event?: string,
): string | undefined {
  if (stdout === undefined) return undefined;
  const parsed = JSON.parse(stdout);
  if (event === "SessionStart" && Object.keys(parsed).join() === "systemMessage") {
    const lines = String(parsed.systemMessage).split("\n");
    assert(lines.length <= 3 && lines.every((l) => l.startsWith("lessons-reinject: ")), label);
    return undefined;
  }
  assertEquals(Object.keys(parsed), ["hookSpecificOutput"], `${label}: ${stdout}`);
  if (event !== undefined) assertEquals(parsed.hookSpecificOutput.hookEventName, event, label);
  const context = parsed.hookSpecificOutput.additionalContext;
  assert(typeof context === "string" && context.length > 0, `${label}: no context: ${stdout}`);
  assert(context.length <= 10_000, `${label}: ${context.length} characters`);
  return context;
}

/**
 * Mounts a tmpfs at `dir` (root only), unmounted when the scope holding it (`await using`) ends;
 * undefined when this machine does not allow it.
 */
export async function tmpfs(dir: string, options: string): Promise<AsyncDisposable | undefined> {
  await Deno.mkdir(dir, { recursive: true });
  const quietly = (program: string, args: string[]) =>
    new Deno.Command(program, { args, stdout: "null", stderr: "null" }).output().catch(() => {});
  if (!(await quietly("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir]))?.success) return;
  return {
    async [Symbol.asyncDispose]() {
      await quietly("umount", [dir]);
    },
  };
}
