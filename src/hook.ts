/**
 * The hook: one Claude Code payload in, at most one JSON answer out. This is the imperative
 * shell around the pure core; it never throws (main.ts also catches) and never blocks a session.
 */
import { basename, dirname, join } from "./core/path.ts";
import { type Config, resolveConfig } from "./core/config.ts";
import { applyFacts, type ContextFacts } from "./core/context_facts.ts";
import {
  compactionCheckFrom,
  decide,
  type Decision,
  isReading,
  type NoReading,
  percentText,
  type Reading,
} from "./core/decide.ts";
import { refreshHeader } from "./core/header.ts";
import { crossedThresholds } from "./core/thresholds.ts";
import { percentOf, resolveWindow } from "./core/window.ts";
import { figuresOf } from "./core/context_window.ts";
import { ContextWindowSchema, type HookPayload, HookPayloadSchema } from "./schemas/payload.ts";
import type { State } from "./schemas/state.ts";
import {
  defaultStateDir,
  type LoadedState,
  loadState,
  preparePrivateDir,
  refreshToken,
  saveState,
  stateOf,
  type StatePaths,
  statePaths,
  untrustedDirReason,
  withLock,
} from "./io/state_store.ts";
import { readUsageWaiting, scanHistory, withTranscript } from "./io/transcript.ts";
import { bridgedReading } from "./io/statusline_store.ts";
import { messageOf } from "./core/errors.ts";

export type Env = (name: string) => string | undefined;

/** What the hook prints: stdout (one JSON object or nothing) and stderr lines. */
export interface HookOutcome {
  stdout: string | undefined;
  stderr: string[];
}

/** Options the entry point and tests can set; the defaults are the real world's. */
export interface HookContext {
  env: Env;
  /** Config-file settings, already loaded (see io/config_file.ts). */
  configFile?: Parameters<typeof resolveConfig>[1];
  /** Problems loading the config file, reported on stderr. */
  configProblems?: string[];
}

const RESET_SOURCES = new Set(["clear", "compact"]);

/** Runs the hook on `stdinText` (undefined: stdin was over the cap). */
export async function runHook(
  stdinText: string | undefined,
  context: HookContext,
): Promise<HookOutcome> {
  const { config, warnings } = resolveConfig(context.env, context.configFile);
  const stderr = [...(context.configProblems ?? []), ...warnings];
  const debug = (line: string) => {
    if (config.debug) stderr.push(`lessons-reinject: ${line}`);
  };
  const quiet = (why: string): HookOutcome => {
    debug(`nothing: ${why}`);
    return { stdout: undefined, stderr };
  };

  if (stdinText === undefined) return quiet("stdin is larger than the 16 MB cap");
  let raw: unknown;
  try {
    raw = JSON.parse(stdinText);
  } catch {
    return quiet(stdinText.trim() === "" ? "stdin is empty" : "stdin is not JSON");
  }
  const parsed = HookPayloadSchema.safeParse(raw);
  if (!parsed.success) return quiet("stdin is not a hook payload with a session_id");
  const payload = parsed.data;
  const event = payload.hook_event_name;

  if (
    event === "PostCompact" || (event === "SessionStart" && RESET_SOURCES.has(payload.source ?? ""))
  ) {
    const why = await resetSession(payload, config, context.env).catch((error) =>
      `cannot reset: ${messageOf(error)}`
    );
    debug(`${event}${payload.source ? ` (${payload.source})` : ""}: ${why}`);
    return { stdout: undefined, stderr };
  }
  if (event !== "PostToolUse" && event !== "PostToolUseFailure") {
    return quiet(`${event}${payload.source ? ` (${payload.source})` : ""} needs no action`);
  }
  // A state folder that fills up or a lock that stays busy ends this call quietly; the next
  // call tries again.
  const result = await onToolCall(payload, config, context.env).catch((error): CallResult => ({
    text: undefined,
    log: `nothing: cannot record the decision: ${messageOf(error)}`,
  }));
  debug(
    `${event} ${payload.tool_name ?? "?"}${payload.agent_id ? ` (subagent)` : ""}: ${result.log}`,
  );
  if (result.text === undefined) return { stdout: undefined, stderr };
  return {
    stdout: JSON.stringify({
      hookSpecificOutput: { hookEventName: event, additionalContext: result.text },
    }),
    stderr,
  };
}

async function resetSession(payload: HookPayload, config: Config, env: Env): Promise<string> {
  const dir = config.stateDir ?? defaultStateDir(env);
  const problem = await preparePrivateDir(dir);
  if (problem) return `cannot reset: ${problem}`;
  const paths = await statePaths(dir, payload.session_id);
  await withLock(paths.lock, async () => {
    const current = stateOf(loadState(paths.state));
    await saveState(paths.state, {
      fired: [],
      toolCount: 0,
      epoch: (current.epoch ?? 0) + 1,
    });
  });
  return "forgot fired thresholds and tool count";
}

interface CallResult {
  text: string | undefined;
  log: string;
}

/** The transcript holding this call's usage: the subagent's own file for a subagent's call. */
export function transcriptFor(
  payload: HookPayload,
): { path: string; sidechainFile: boolean } | undefined {
  const main = payload.transcript_path;
  if (!payload.agent_id) return main ? { path: main, sidechainFile: false } : undefined;
  if (payload.agent_transcript_path) {
    return { path: payload.agent_transcript_path, sidechainFile: true };
  }
  if (!main) return undefined;
  if (basename(main).startsWith("agent-")) return { path: main, sidechainFile: true };
  const sessionDir = join(dirname(main), basename(main).replace(/\.jsonl$/, ""));
  return {
    path: join(sessionDir, "subagents", `agent-${payload.agent_id}.jsonl`),
    sidechainFile: true,
  };
}

/** A reading from stdin's `context_window`, should Claude Code ever send one to this event. */
export function stdinReading(contextWindow: unknown, config: Config): Reading | undefined {
  if (contextWindow === undefined) return undefined; // the usual case: skip building the schema
  const parsed = ContextWindowSchema.safeParse(contextWindow);
  if (!parsed.success) return undefined;
  const figures = figuresOf(parsed.data, config.windowOverride);
  if (!figures) return undefined;
  return {
    source: "stdin",
    ...figures,
    windowSource: figures.window === undefined
      ? undefined
      : config.windowOverride !== undefined
      ? "env LESSONS_CONTEXT_WINDOW"
      : "reported by Claude Code",
    model: undefined,
  };
}

export interface Measured {
  reading: Reading | NoReading;
  facts: ContextFacts;
  size: number | undefined;
}

/** The context reading for a call, and which source gave it; `status` shows the same. */
export async function measure(
  payload: HookPayload,
  config: Config,
  dir: string,
): Promise<Measured> {
  const fromStdin = stdinReading(payload.context_window, config);
  if (fromStdin) return { reading: fromStdin, facts: {}, size: undefined };
  const transcript = transcriptFor(payload);
  if (!transcript) {
    return {
      reading: { reason: "no transcript_path", countCalls: true },
      facts: {},
      size: undefined,
    };
  }
  const scan = await readUsageWaiting(
    transcript.path,
    { toolUseId: payload.tool_use_id, sidechainFile: transcript.sidechainFile },
    { waitMs: config.waitMs },
  );
  if ("error" in scan) {
    return { reading: { reason: scan.error, countCalls: true }, facts: {}, size: undefined };
  }
  if (scan.markerAfterUsage !== undefined) {
    return {
      reading: { reason: "compacted since the last usage: no reading yet", countCalls: false },
      facts: { marker: scan.markerAfterUsage },
      size: scan.size,
    };
  }
  const usage = scan.usage;
  // A fresh statusline reading is Claude Code's own figure and window: prefer it.
  const bridged = await bridgedReading(
    dir,
    payload.session_id,
    payload.agent_id,
    config.windowOverride,
    usage,
  );
  if (bridged) return { reading: bridged, facts: {}, size: scan.size };
  if (!usage) {
    return {
      reading: { reason: "no usage in the transcript", countCalls: true },
      facts: {},
      size: scan.size,
    };
  }
  const choice = usage.window !== undefined
    ? { window: usage.window, source: "stated in the transcript" }
    : resolveWindow({
      model: usage.model,
      tokens: usage.tokens,
      override: config.windowOverride,
      disable1m: config.disable1m,
    });
  return {
    reading: {
      source: usage.window !== undefined
        ? "transcript Token usage"
        : usage.matched
        ? "transcript tool_use match"
        : "transcript latest",
      percent: percentOf(usage.tokens, choice.window),
      tokens: usage.tokens,
      window: choice.window,
      windowSource: choice.source,
      model: usage.model,
    },
    facts: {},
    size: scan.size,
  };
}

function epochOf(loaded: LoadedState): number {
  return loaded.kind === "found" ? loaded.state.epoch ?? 0 : 0;
}

async function onToolCall(payload: HookPayload, config: Config, env: Env): Promise<CallResult> {
  const dir = config.stateDir ?? defaultStateDir(env);
  const untrusted = untrustedDirReason(dir);
  if (untrusted) return { text: undefined, log: `nothing: ${untrusted}` };
  const paths = await statePaths(dir, payload.session_id, payload.agent_id);
  const loaded = loadState(paths.state);
  const found = loaded.kind === "found";
  const measured = await measure(payload, config, dir);
  const { facts, size } = measured;
  let reading = measured.reading;
  const token = await refreshToken(payload.session_id, payload.agent_id);
  const transcript = transcriptFor(payload);

  let state = applyFacts(stateOf(loaded), facts, found);
  if (isReading(reading) && transcript && size !== undefined) {
    const extra = await lookBack(state, reading, found, transcript.path, token, config);
    Object.assign(facts, extra);
    state = applyFacts(stateOf(loaded), facts, found);
    if (facts.marker !== undefined && facts.marker >= size) {
      // Compacted after this reading was taken: it describes the old context, not this one.
      reading = { reason: "compacted since this reading: no reading yet", countCalls: false };
    }
  }
  const first = decide({
    reading,
    thresholds: config.thresholds,
    state,
    toolCountInterval: config.toolCountInterval,
    transcriptSize: size,
  });
  // A context without a state file gets one on its first call, even when nothing changed:
  // else its first refresh would look like a lost state file and scan the transcript back.
  const changed = loaded.kind === "missing" || first.next !== undefined ||
    JSON.stringify(state) !== JSON.stringify(stateOf(loaded));
  const describe = (decision: Decision) => `${describeReading(reading)} → ${decision.reason}`;
  if (!first.cause && !changed) return { text: undefined, log: `nothing: ${describe(first)}` };

  // Render before claiming: a refresh that cannot be rendered must not be marked as delivered.
  let text: string | undefined;
  let rendered = "";
  if (first.cause) {
    const built = await buildRefresh(first.cause, payload, config, env, token);
    if ("error" in built) {
      return { text: undefined, log: `nothing: ${describe(first)}, but ${built.error}` };
    }
    text = built.text;
    rendered = built.summary;
  }

  const problem = await preparePrivateDir(dir);
  if (problem) return { text: undefined, log: `nothing: ${problem}` };
  const final = await commit(paths, loaded, facts, reading, config, size);
  if (final === "raced") {
    return { text: undefined, log: `nothing: a reset arrived meanwhile (${describe(first)})` };
  }
  if (!final.cause) return { text: undefined, log: `nothing: ${describe(final)}` };
  if (text === undefined || final.cause.kind !== first.cause?.kind) {
    return {
      text: undefined,
      log: `nothing: another hook process got there first (${describe(final)})`,
    };
  }
  // Another process may have fired part of what this one saw: name only what is left.
  if (
    final.cause.kind === "thresholds" && first.cause.kind === "thresholds" &&
    final.cause.thresholds.join() !== first.cause.thresholds.join()
  ) {
    const rebuilt = await buildRefresh(final.cause, payload, config, env, token);
    if ("error" in rebuilt) return { text: undefined, log: `nothing: ${rebuilt.error}` };
    text = rebuilt.text;
    rendered = rebuilt.summary;
  }
  return { text, log: `fired: ${describe(final)}; ${rendered}` };
}

/** Extra transcript reading some calls need: an unreported compaction, or a lost state file. */
async function lookBack(
  state: State,
  reading: Reading,
  found: boolean,
  path: string,
  token: string,
  config: Config,
): Promise<ContextFacts> {
  const facts: ContextFacts = {};
  const from = compactionCheckFrom(state, reading);
  if (from !== undefined) {
    const scan = await withTranscript(
      path,
      (source, size) => scanHistory(source, size, { stopBelow: from }),
    );
    if (!("error" in scan)) {
      if (scan.marker !== undefined) facts.marker = scan.marker;
      else if (!scan.truncated) facts.checkedTo = await sizeOf(path) ?? from;
    }
  }
  if (!found && crossedThresholds(reading.percent, config.thresholds, state.fired).length > 0) {
    const scan = await withTranscript(path, (source, size) => scanHistory(source, size, { token }));
    if (!("error" in scan)) {
      facts.recovered = scan.refreshed;
      if (scan.marker !== undefined && facts.marker === undefined) facts.marker = scan.marker;
    }
  }
  return facts;
}

async function sizeOf(path: string): Promise<number | undefined> {
  return (await Deno.stat(path).catch(() => undefined))?.size;
}

/** Re-decides on the freshest state under the lock, writes it, and returns what to do. */
async function commit(
  paths: StatePaths,
  loaded: LoadedState,
  facts: ContextFacts,
  reading: Reading | NoReading,
  config: Config,
  size: number | undefined,
): Promise<Decision | "raced"> {
  return await withLock(paths.lock, async () => {
    const fresh = loadState(paths.state);
    if (epochOf(fresh) !== epochOf(loaded)) return "raced";
    const base = stateOf(fresh);
    const state = applyFacts(base, facts, fresh.kind === "found");
    const decision = decide({
      reading,
      thresholds: config.thresholds,
      state,
      toolCountInterval: config.toolCountInterval,
      transcriptSize: size,
    });
    const next = decision.next ?? state;
    if (fresh.kind !== "found" || JSON.stringify(next) !== JSON.stringify(base)) {
      await saveState(paths.state, next);
    }
    return decision;
  });
}

async function buildRefresh(
  cause: NonNullable<Decision["cause"]>,
  payload: HookPayload,
  config: Config,
  env: Env,
  token: string,
): Promise<{ text: string; summary: string } | { error: string }> {
  // Only a firing call needs the manifest's code and schemas: evaluated here, not at start-up.
  const [{ findManifest }, { renderRefresh }] = await Promise.all([
    import("./io/manifest_load.ts"),
    import("./core/render.ts"),
  ]);
  const found = await findManifest(config.manifestPath, env, payload.cwd);
  if (found.kind === "none") return { error: "no manifest found (set LESSONS_MANIFEST_PATH)" };
  if (found.kind === "invalid") return { error: found.error };
  const { location, selection } = found;
  if (selection.lessons.length === 0) {
    return { error: `${location.path} has no active directives or protocols` };
  }
  const rendered = renderRefresh(refreshHeader(cause, token), selection.lessons, config.maxChars);
  const invalid = selection.invalid.length > 0
    ? `; invalid lessons skipped: ${selection.invalid.join(" | ")}`
    : "";
  return {
    text: rendered.text,
    summary:
      `${rendered.text.length} chars, ${rendered.whole.length} whole, ${rendered.summarized.length} summarized, ` +
      `${rendered.omitted.length} left out${invalid}`,
  };
}

function describeReading(reading: Reading | NoReading): string {
  if (!isReading(reading)) return reading.reason;
  const tokens = reading.tokens === undefined ? "" : `, ${reading.tokens} tokens`;
  const window = reading.window === undefined
    ? ""
    : ` of ${reading.window} (${reading.windowSource})`;
  return `${percentText(reading.percent)}${window}${tokens} from ${reading.source}`;
}
