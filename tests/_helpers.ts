/**
 * Shared test helpers: the hook as a subprocess with exactly the binary's permissions, captured
 * payloads, and transcripts built from lines real Claude Code wrote.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  baseEnv,
  HOOK_PERMISSIONS,
  MAIN,
  PAYLOADS,
  RECORDED,
  RECORDINGS,
  ROOT,
  SAMPLE_MANIFEST,
  SKELETONS,
} from "../scripts/project.ts";

export * from "../scripts/project.ts";

/** The bytes of `parts`, one after another. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A small seeded generator (mulberry32): the same seed gives the same run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a subprocess printed and how it ended. */
export interface ProcessRun {
  code: number;
  stdout: string;
  stderr: string;
  /** False when the process exited before reading all of stdin. */
  stdinTaken?: boolean;
}

export interface HookRun extends ProcessRun {
  /** `additionalContext` when stdout is the hook's JSON answer. */
  context: string | undefined;
}

/**
 * Runs `program args` as Claude Code runs a hook: `stdin` piped in (bytes, text, or a value sent
 * as JSON), the given environment only plus Deno's essentials ({@link baseEnv}).
 */
export async function spawnWithStdin(
  program: string,
  args: readonly string[],
  stdin: unknown,
  env: Record<string, string> = {},
  cwd?: string,
): Promise<ProcessRun> {
  const child = new Deno.Command(program, {
    args: [...args],
    env: baseEnv(env),
    clearEnv: true,
    ...(cwd === undefined ? {} : { cwd }),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const bytes = stdin instanceof Uint8Array
    ? stdin
    : new TextEncoder().encode(typeof stdin === "string" ? stdin : JSON.stringify(stdin));
  // A process that exits without reading all of stdin closes the pipe: not an error here.
  let stdinTaken = true;
  await writer.write(bytes).catch(() => stdinTaken = false);
  await writer.close().catch(() => stdinTaken = false);
  const out = await child.output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr), stdinTaken };
}

/** `deno run` of `src/main.ts` with exactly the binary's permissions. */
export const MAIN_COMMAND = [
  Deno.execPath(),
  "run",
  "--quiet",
  "--no-prompt",
  ...HOOK_PERMISSIONS,
  MAIN,
];

/**
 * Runs `src/main.ts` as Claude Code would: payload on stdin, the given environment only (plus
 * PATH, HOME and DENO_DIR so Deno finds its cache), exactly the binary's permissions.
 */
export async function runHook(
  stdin: unknown,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<HookRun> {
  const [program, ...rest] = MAIN_COMMAND;
  const run = await spawnWithStdin(program!, [...rest, ...args], stdin, env);
  return { ...run, context: contextOf(run.stdout) };
}

/**
 * Runs the hook on `stdin` (a payload with `transcript_path`), then appends to the transcript what
 * Claude Code 2.1.328 writes once the hook has answered (measured:
 * docs/maintainers/claude-code-facts.md): after a tool call, its `tool_result` entry and, when the
 * hook answered, the `hook_additional_context` attachment recording the delivery; after
 * SessionStart's answer, that attachment under the toolUseID `SessionStart`. A later call then
 * finds the delivery recorded, as in a real session.
 */
export async function runRecorded(
  stdin: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<HookRun> {
  const run = await runHook(stdin, env);
  recordAnswer(stdin, run.context);
  return run;
}

/**
 * Runs the hook as {@link runHook} does, with a `--preload` script that creates a file the first
 * time the hook pauses to wait for its transcript (its `Atomics.wait`), and calls `late` then: a
 * test writes what the call waits for while it waits, instead of after a fixed sleep. Throws if the
 * hook ends without pausing.
 */
export async function runPausing(
  stdin: unknown,
  env: Record<string, string>,
  dir: string,
  late: () => void,
): Promise<HookRun> {
  const preload = join(dir, `pause-${crypto.randomUUID()}.js`);
  const marker = `${preload}.paused`;
  Deno.writeTextFileSync(
    preload,
    `const wait = Atomics.wait;\nAtomics.wait = (...args) => {\n` +
      `  Deno.writeTextFileSync(${JSON.stringify(marker)}, "");\n  return wait(...args);\n};\n`,
  );
  const [program, ...rest] = MAIN_COMMAND;
  const args = [...rest.slice(0, -1), "--preload", preload, MAIN];
  const done = spawnWithStdin(program!, args, stdin, env)
    .then((run) => ({ ...run, context: contextOf(run.stdout) }));
  let ended = false;
  done.then(() => ended = true, () => ended = true);
  while (!existsSync(marker)) {
    if (ended) throw new Error(`the hook ended without pausing: ${(await done).stderr}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  late();
  return await done;
}

/** Appends what Claude Code writes once a hook has answered `stdin` (see runRecorded). */
export function recordAnswer(stdin: Record<string, unknown>, context: string | undefined): void {
  const path = stdin.transcript_path;
  // A subagent's records go to its own file, which the payload does not name: tests of
  // subagents write that file themselves.
  if (typeof path !== "string" || stdin.agent_id !== undefined) return;
  const id = stdin.tool_use_id;
  if (stdin.hook_event_name === "SessionStart") {
    if (context !== undefined) {
      appendTranscript(path, [entries.refresh(context, "SessionStart", "SessionStart")]);
    }
    return;
  }
  if (typeof id !== "string") return;
  appendTranscript(path, [
    entries.toolResult(id),
    ...(context === undefined ? [] : [entries.refresh(context, id)]),
  ]);
}

/** `hookSpecificOutput.additionalContext` of a hook's stdout, if it is the hook's answer. */
export function contextOf(stdout: string): string | undefined {
  if (stdout.trim() === "") return undefined;
  const parsed = JSON.parse(stdout);
  return parsed?.hookSpecificOutput?.additionalContext;
}

/** A payload captured from real Claude Code 2.1.328 (tests/fixtures/payloads). */
export function payload(
  name: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const text = Deno.readTextFileSync(join(PAYLOADS, `${name}.json`));
  return { ...JSON.parse(text), ...overrides };
}

/**
 * The path of a committed skeleton of a public transcript (tests/fixtures/transcripts/skeletons),
 * named as its original. Throws when it is not there: a test never skips for a missing fixture.
 */
export function skeletonTranscript(name: string): string {
  const path = join(SKELETONS, name);
  if (!Deno.statSync(path).isFile) throw new Error(`${path} is not a file`);
  return path;
}

/**
 * The figures tests/fixtures/transcripts/skeletons/README.md gives each public transcript,
 * measured on the originals and kept by their skeletons: its last main-chain usage (tokens), the
 * window its model has in the version of Claude Code that wrote it (data/window_table.ts), and that
 * model; no model: compacted after that usage, so there is no reading now.
 */
export const SKELETON_FIGURES: [file: string, tokens: number, window: number, model?: string][] = [
  // 1.0.x compaction (isCompactSummary, no boundary) after the last usage.
  ["v1.0.90-inline-sidechain-summary-entries.jsonl", 156089, 200_000],
  ["v2.0.76-large-no-compaction.jsonl", 180437, 200_000, "claude-opus-4-5-20251101"],
  ["v2.1.14-agent-progress-nested-usage.jsonl", 20229, 200_000, "claude-opus-4-5-20251101"],
  // claude-opus-4-7 was 200k by default in 2.1.112 (natively 1M from 2.1.117).
  ["v2.1.112-compact-boundary.jsonl", 89199, 200_000, "claude-opus-4-7"],
  ["v2.1.121-pasted-images-833KB-line.jsonl", 123792, 200_000, "claude-sonnet-4-6"],
  ["v2.1.167-main-with-workflow-subagents.jsonl", 72752, 1_000_000, "claude-opus-4-8"],
  // A subagent's own file (its name says so): its last sidechain usage.
  ["v2.1.167-subagent-file-agent-ab9eaae030fe399d0.jsonl", 50191, 1_000_000, "claude-opus-4-8"],
  ["v2.1.185-three-compact-boundaries.jsonl", 63388, 200_000, "claude-sonnet-4-6"],
  ["v2.1.212-newest.jsonl", 186830, 1_000_000, "claude-fable-5"],
];

// deno-lint-ignore no-explicit-any
type Line = Record<string, any>;

/** The lines of a JSONL file, parsed, blank ones left out. */
// deno-lint-ignore no-explicit-any
export function jsonLines(path: string): any[] {
  return Deno.readTextFileSync(path).split("\n").filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}

/** The first of `lines` that `predicate` takes; throws naming `what` when none does. */
export function templateLine(lines: Line[], what: string, predicate: (l: Line) => boolean): Line {
  const found = lines.find(predicate);
  if (!found) throw new Error(`no ${what} line among the recorded ones`);
  return found;
}

/** One line of each kind the builders copy, from transcripts real Claude Code 2.1.328 wrote. */
function loadTemplates() {
  const find = (predicate: (l: Line) => boolean, path = RECORDED) =>
    templateLine(jsonLines(path), path, predicate);
  const attachment = (type: string) => (l: Line) =>
    l.type === "attachment" && l.attachment?.type === type;
  const recording = (name: string) => join(RECORDINGS, `recorded-2.1.328-${name}.jsonl`);
  return {
    assistant: find((l) => l.type === "assistant"),
    user: find((l) => l.type === "user" && JSON.stringify(l).includes("tool_result")),
    refresh: find(attachment("hook_additional_context")),
    ran: find(attachment("hook_success")),
    cancelled: find(attachment("hook_cancelled"), recording("hook-cancelled")),
    boundary: find((l) => l.subtype === "compact_boundary", recording("compact")),
  };
}
let templates: ReturnType<typeof loadTemplates> | undefined;

/** A copy, with a new uuid, of a line of a recorded real transcript used as a template. */
function fresh(kind: keyof ReturnType<typeof loadTemplates>): Line {
  templates ??= loadTemplates();
  return { ...structuredClone(templates[kind]), uuid: crypto.randomUUID() };
}

/** Builds transcript lines from real templates. */
export const entries = {
  /** An assistant entry with `tokens` of context (all in cache_read) and the given tool_use ids. */
  assistant(
    tokens: number,
    toolUseIds: string[] = [],
    extra: { model?: string; messageId?: string; isSidechain?: boolean; version?: string } = {},
  ): Record<string, unknown> {
    const t = fresh("assistant");
    t.isSidechain = extra.isSidechain ?? false;
    t.message.id = extra.messageId ?? `msg_${crypto.randomUUID()}`;
    if (extra.model) t.message.model = extra.model;
    if (extra.version) t.version = extra.version;
    t.message.usage.input_tokens = 0;
    t.message.usage.cache_creation_input_tokens = 0;
    t.message.usage.cache_read_input_tokens = tokens;
    t.message.content = toolUseIds.map((id) => ({
      type: "tool_use",
      id,
      name: "Bash",
      input: { command: "echo hi", description: "hi" },
    }));
    return t;
  },
  /** A tool_result user entry. */
  toolResult(toolUseId: string, text = "ok"): Record<string, unknown> {
    const t = fresh("user");
    t.message.content = [{ tool_use_id: toolUseId, type: "tool_result", content: text }];
    return t;
  },
  /**
   * The attachment Claude Code records for a hook's additionalContext: a tool call's, or with
   * `event` "SessionStart" that event's (hookName, toolUseID and hookEvent all "SessionStart", as
   * 2.1.328 writes it after a compaction).
   */
  refresh(text: string, toolUseId: string, event = "PostToolUse"): Record<string, unknown> {
    const t = fresh("refresh");
    t.attachment.content = [text];
    t.attachment.toolUseID = toolUseId;
    if (event === "SessionStart") {
      t.attachment.hookName = "SessionStart";
      t.attachment.hookEvent = "SessionStart";
    }
    return t;
  },
  /** The attachment Claude Code records for every hook that ran to its end (2.1.328). */
  ran(toolUseId: string, stdout: string): Record<string, unknown> {
    const t = fresh("ran");
    t.attachment.toolUseID = toolUseId;
    t.attachment.stdout = stdout;
    return t;
  },
  /** The attachment Claude Code records for a hook it killed at its timeout (2.1.328). */
  cancelled(toolUseId: string): Record<string, unknown> {
    const t = fresh("cancelled");
    t.attachment.toolUseID = toolUseId;
    return t;
  },
  /** The compaction boundary 2.1.328 wrote after a `/compact`, here of 150,000 tokens. */
  compactBoundary(): Record<string, unknown> {
    const t = fresh("boundary");
    t.compactMetadata.preTokens = 150_000;
    return t;
  },
};

/** Writes `lines` as JSONL, or with `append` adds them. */
export function writeTranscript(path: string, lines: unknown[], append = false): void {
  Deno.writeTextFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n", { append });
}

/** Appends `lines` as JSONL. */
export const appendTranscript = (path: string, lines: unknown[]) =>
  writeTranscript(path, lines, true);

const sandboxes: string[] = [];
// Every sandbox goes when the test module's process ends, passed or failed.
globalThis.addEventListener("unload", () => {
  for (const dir of sandboxes) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // Already removed by its test, or still held open: nothing to do.
    }
  }
});

/** A fresh folder with a state dir, a transcript path and the env pointing at them. */
export function sandbox() {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-test-" });
  sandboxes.push(dir);
  const stateDir = join(dir, "state");
  const env: Record<string, string> = {
    LESSONS_STATE_DIR: stateDir,
    LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST,
    LESSONS_REINJECT_WAIT_MS: "30",
    TMPDIR: dir,
  };
  return { dir, stateDir, transcript: join(dir, "session.jsonl"), env };
}

/**
 * A sandboxed session: its transcript holds `lines`, `env` holds the sandbox's and `extra`, and
 * `call(id, fields)` is the PostToolUse.Bash payload of tool call `id` in it. `at(tokens, id)`
 * first appends the entry of Claude Code's response holding call `id` at `tokens` of context.
 */
export function sandboxSession(extra: Record<string, string> = {}, lines: unknown[] = []) {
  const box = sandbox();
  writeTranscript(box.transcript, lines);
  const call = (id: string, fields: Record<string, unknown> = {}) =>
    payload("PostToolUse.Bash", { transcript_path: box.transcript, tool_use_id: id, ...fields });
  const at = (tokens: number, id: string, fields: Record<string, unknown> = {}) => {
    appendTranscript(box.transcript, [entries.assistant(tokens, [id])]);
    return call(id, fields);
  };
  return { box, env: { ...box.env, ...extra }, call, at };
}

/**
 * A manifest of about `targetBytes` built from the sample's lessons, repeated with new ids,
 * slugs, priorities and tags: directives and protocols with long messages.
 */
export function largeManifest(targetBytes: number): Record<string, unknown> {
  const sample = JSON.parse(Deno.readTextFileSync(SAMPLE_MANIFEST));
  const base = Object.values(sample.lessons) as Record<string, unknown>[];
  const lessons: Record<string, unknown> = {};
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const from = base[i % base.length]!;
    const lesson = {
      ...from,
      slug: `${from.slug}-${i}`,
      type: i % 3 === 2 ? "protocol" : "directive",
      priority: 1 + (i * 7) % 10,
      tags: [`topic:t${i % 4}`],
      disabled: undefined,
      scope: null,
      message: `${from.message} (variant ${i}) ${"Keep this rule in mind. ".repeat(8)}`,
      summary: `${from.summary} (variant ${i})`,
    };
    lessons[`01JLARGE${String(i).padStart(18, "0")}`] = lesson;
    size += JSON.stringify(lesson).length;
  }
  // Session start's own limits lifted: these lessons are there to overflow the refresh's budget.
  const config = { ...sample.config, maxSessionStartLessons: 1e6, sessionStartBudgetBytes: 1e9 };
  return { ...sample, config, lessons };
}

/**
 * Copies what a marketplace install copies to `to`: the plugin without .git, and of dist/ only
 * what git holds (the bundle, never a binary built here).
 */
export async function copyPlugin(to: string): Promise<void> {
  await Deno.mkdir(join(to, "dist"), { recursive: true });
  const files = [".claude-plugin", "hooks", "src", "deno.json", "deno.lock"];
  const cp = await spawnWithStdin("cp", ["-R", ...files.map((f) => join(ROOT, f)), to], "");
  if (cp.code !== 0) throw new Error(`cp: ${cp.stderr}`);
  for (const name of ["lessons-reinject.js", "lessons-reinject-cli.js"]) {
    await Deno.copyFile(join(ROOT, "dist", name), join(to, "dist", name));
  }
}

/**
 * Writes to `plugins` Claude Code's records of lessons-reinject installed from a local marketplace
 * at `folder` (2.1.328 wrote them: tests/fixtures/plugins-local-marketplace). `known` edits
 * known_marketplaces.json (a GitHub marketplace, unreadable records); `github` adds a second
 * install, from GitHub, listed first, with a data folder of its own.
 */
export function pluginRecords(
  plugins: string,
  folder: string,
  options: { known?: (text: string) => string; github?: boolean } = {},
): void {
  Deno.mkdirSync(plugins, { recursive: true });
  for (const name of ["installed_plugins.json", "known_marketplaces.json"]) {
    const text = Deno.readTextFileSync(
      join(ROOT, "tests", "fixtures", "plugins-local-marketplace", name),
    ).replaceAll("/home/dev/src/lessons-reinject", folder)
      .replaceAll("/home/dev/.claude/plugins", plugins);
    const known = name === "known_marketplaces.json" && options.known;
    Deno.writeTextFileSync(join(plugins, name), known ? known(text) : text);
  }
  if (!options.github) return;
  const installed = join(plugins, "installed_plugins.json");
  const { plugins: ids, ...rest } = JSON.parse(Deno.readTextFileSync(installed));
  const both = { "lessons-reinject@gh": [{}], ...ids };
  Deno.writeTextFileSync(installed, JSON.stringify({ ...rest, plugins: both }));
  Deno.mkdirSync(join(plugins, "data", "lessons-reinject-gh"), { recursive: true });
}

/** Every file under `dir`, its subfolders' included: their paths, sorted. */
export function filesUnder(dir: string): string[] {
  return [...Deno.readDirSync(dir)].flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory ? filesUnder(path) : entry.isFile ? [path] : [];
  }).sort();
}

/** The path of a program on PATH, or undefined. */
export function pathOf(program: string): string | undefined {
  return (Deno.env.get("PATH") ?? "").split(":").map((dir) => join(dir, program)).find((path) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  });
}

/** Whether a program is on PATH. */
export const onPath = (program: string): boolean => pathOf(program) !== undefined;

/**
 * Runs the hook's entry point (with `command`: a command of the program) under strace (`-f -qq`
 * and `options`, such as `-e trace=...`), fed `stdin`: what it printed, and strace's lines.
 */
export async function underStrace(
  options: string[],
  stdin: unknown,
  env: Record<string, string>,
  command: string[] = [],
  cwd?: string,
): Promise<{ run: ProcessRun; lines: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "lessons-strace-" });
  try {
    const log = join(dir, "trace");
    const args = ["-f", "-qq", ...options, "-o", log, ...MAIN_COMMAND, ...command];
    const run = await spawnWithStdin("strace", args, stdin, env, cwd);
    return { run, lines: Deno.readTextFileSync(log).split("\n") };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
