/**
 * The hook: one Claude Code payload in, at most one JSON answer out, and the trace of how it
 * decided (drawn in docs/architecture.md). A tool call runs these steps in order: read the payload
 * (hook/payload.ts), load the state (io/state_store.ts), observe and measure the transcript
 * (hook/observe.ts), then claim (hook/claim.ts): under the lock, decide once and render. Whether a
 * call refreshes, and whether it re-sends a refresh Claude Code did not deliver, is decided in
 * core/decide.ts (the receipts: core/receipts.ts `settleDeliveries`, `withReceipts`). Commands run
 * the same steps as a dry run (`dryRun`). It never throws and never blocks a session.
 */
import {
  CONTINUE_SOURCES,
  hookAnswer,
  POST_COMPACT_EVENT,
  RESET_SOURCES,
  SESSION_START,
  STARTUP_SOURCE,
  TOOL_CALL_EVENTS,
  userNotice,
} from "./core/claude_code.ts";
import type { CompactSettings } from "./core/compaction_point.ts";
import { decide } from "./core/decide.ts";
import { messageOf } from "./core/errors.ts";
import { compactionFacts } from "./core/measure.ts";
import { isReading } from "./core/reading.ts";
import type { HookPayload } from "./schemas/payload.ts";
import type { Settings } from "./settings/resolve.ts";
import { compactSettingsFor } from "./io/claude_settings.ts";
import { transcriptOf } from "./io/session_files.ts";
import { loadState, preparePrivateDir, statePaths, untrustedDirReason } from "./io/state_store.ts";
import { readView, transcriptSize } from "./io/transcript.ts";
import { rearmAfterRefresh } from "./io/lessons_learned_dedup.ts";
import { EMPTY_STATE } from "./schemas/guards.ts";
import { claim } from "./hook/claim.ts";
import { observe } from "./hook/observe.ts";
import { readPayload } from "./hook/payload.ts";
import { buildRefresh } from "./hook/refresh.ts";
import { debugLine, describeReading, emptyTrace, timed, type Trace } from "./hook/trace.ts";

export type { Trace };
export { debugLine } from "./hook/trace.ts";
export type { Replayed } from "./hook/replay.ts";

/** A whole session replayed through these steps (hook/replay.ts), loaded only when asked for. */
export async function replaySession(
  ...args: Parameters<typeof import("./hook/replay.ts").replaySession>
): Promise<ReturnType<typeof import("./hook/replay.ts").replaySession>> {
  return (await import("./hook/replay.ts")).replaySession(...args);
}
export { buildRefresh } from "./hook/refresh.ts";

/** What the hook prints (stdout: one JSON object or nothing; stderr lines) and its trace. */
export interface HookOutcome {
  stdout: string | undefined;
  stderr: string[];
  trace: Trace;
}

/** Runs the hook on `stdinText` (undefined: stdin was over the cap) with resolved `settings`. */
export async function runHook(
  stdinText: string | undefined,
  settings: Settings,
): Promise<HookOutcome> {
  const trace = emptyTrace();
  const read = readPayload(stdinText);
  if (read.kind === "invalid") return finish(silent(trace, read.reason), undefined, settings);
  const payload = read.payload;
  Object.assign(trace, {
    event: payload.hook_event_name,
    tool: payload.tool_name,
    sessionId: payload.session_id,
    agentId: payload.agent_id,
  });
  const source = payload.source ? ` (${payload.source})` : "";
  let answer: string | undefined;
  try {
    if (endsContext(payload)) {
      trace.event = `${payload.hook_event_name}${source}`;
      const text = await onReset(payload, settings, trace);
      answer = text === undefined ? undefined : hookAnswer(SESSION_START, text);
    } else if (payload.hook_event_name === SESSION_START && payload.source === STARTUP_SOURCE) {
      trace.event = `${SESSION_START}${source}`;
      const problem = preparePrivateDir(settings.stateDir);
      answer = problem === undefined
        ? undefined
        : userNotice(startupNotice(settings.stateDir, problem));
      trace.reason = problem === undefined
        ? "the state folder is usable"
        : `told the user: ${problem}`;
    } else if (TOOL_CALL_EVENTS.includes(payload.hook_event_name) || continues(payload)) {
      // A resumed or forked session is measured as a tool call is; SessionStart answers it.
      if (continues(payload)) trace.event = `${SESSION_START}${source}`;
      const text = await onToolCall(payload, settings, trace, { dry: false, render: true });
      answer = text === undefined ? undefined : hookAnswer(payload.hook_event_name, text);
    } else {
      trace.event = undefined;
      silent(trace, `${payload.hook_event_name}${source} needs no action`);
    }
  } catch (error) {
    // A state folder that fills up or a lock that stays busy ends this call quietly.
    const reset = trace.result === "reset";
    silent(trace, `${reset ? "cannot reset" : "cannot record the decision"}: ${messageOf(error)}`);
    if (reset) trace.result = "reset";
    answer = undefined;
  }
  return finish(trace, answer, settings);
}

/**
 * The hook's steps for a tool call of `payload`'s context, without the lock, without waiting and
 * without writing: what the next tool call would see and decide. Commands render its trace.
 */
export async function dryRun(
  payload: HookPayload,
  settings: Settings,
  options: { render: boolean },
): Promise<Trace> {
  const trace = emptyTrace();
  Object.assign(trace, {
    event: payload.hook_event_name,
    sessionId: payload.session_id,
    agentId: payload.agent_id,
  });
  try {
    await onToolCall(payload, { ...settings, waitMs: 0 }, trace, {
      dry: true,
      render: options.render,
    });
  } catch (error) {
    silent(trace, messageOf(error));
  }
  return trace;
}

/** True for a SessionStart that continues a context (`resume`, `fork`). */
function continues(payload: HookPayload): boolean {
  return payload.hook_event_name === SESSION_START &&
    CONTINUE_SOURCES.includes(payload.source ?? "");
}

/** True for the events after which the context starts afresh. */
function endsContext(payload: HookPayload): boolean {
  return payload.hook_event_name === POST_COMPACT_EVENT ||
    (payload.hook_event_name === SESSION_START && RESET_SOURCES.includes(payload.source ?? ""));
}

/** A tool call: observe, measure, claim; the refresh text when it fires. */
async function onToolCall(
  payload: HookPayload,
  settings: Settings,
  trace: Trace,
  mode: { dry: boolean; render: boolean },
): Promise<string | undefined> {
  const untrusted = untrustedDirReason(settings.stateDir);
  if (untrusted) return void silent(trace, untrusted);
  const paths = statePaths(settings.stateDir, payload.session_id, payload.agent_id);
  trace.statePath = paths.state;
  const loaded = timed(trace, "state", () => loadState(paths.state));
  const state = loaded.kind === "found" ? loaded.state : EMPTY_STATE;
  Object.assign(trace, { stateFile: loaded.kind, stateBefore: state });
  const transcript = transcriptOf(payload, state.agentTranscript);
  trace.transcript = transcript &&
    { path: transcript.path, sidechainFile: transcript.sidechainFile };
  const compact = claudeSettingsFor(state.claudeSettings, settings, payload.cwd);
  const { view, reading, facts, ceiling, reads } = timed(trace, "observe", () =>
    observe(payload, {
      state,
      stateFound: loaded.kind === "found",
      transcript,
      token: paths.token,
      stateDir: settings.stateDir,
      settings,
      files: compact.files,
    }));
  if (compact.remember) facts.claudeSettings = compact.remember;
  Object.assign(trace, { reading, facts, reads, transcriptSize: view?.size });
  if (ceiling) trace.ceiling = (ceiling.tokens * 100) / ceiling.span;
  const claimed = await claim({
    paths,
    stateDir: settings.stateDir,
    dry: mode.dry,
    epoch: state.epoch ?? 0,
    decide: (fresh, found) =>
      decide({
        event: "tool call",
        state: fresh,
        stateFound: found,
        reading,
        facts,
        receipts: view?.receipts,
        // SessionStart's answer is recorded under its own name (core/claude_code.ts).
        claim: {
          call: payload.tool_use_id ?? (continues(payload) ? SESSION_START : undefined),
          at: view?.size,
        },
        settings,
      }),
    render: mode.render
      ? (cause) => buildRefresh(cause, paths.token, payload.cwd, settings)
      : undefined,
  });
  if (claimed.kind === "failed") return void silent(trace, claimed.reason);
  if (claimed.kind === "raced") return void silent(trace, "a reset arrived meanwhile");
  const { decision, refresh } = claimed;
  trace.decision = decision;
  trace.reason = isReading(reading)
    ? `${describeReading(reading)} → ${decision.reason}`
    : decision.reason;
  if (!decision.cause) return void (trace.result = "silent");
  if (refresh?.kind === "error") {
    // Nothing is sent, and nothing is recorded as sent.
    trace.refused = refresh.error;
    trace.reason = `${trace.reason}, but ${refresh.error}`;
    return void (trace.result = "silent");
  }
  trace.result = "fired";
  if (!refresh) return undefined;
  trace.refresh = refresh.account;
  const cause = decision.cause;
  if (!mode.dry && cause.kind === "thresholds" && refresh.account.manifest !== undefined) {
    trace.rearm = rearmAfterRefresh(
      cause.thresholds,
      { sessionId: payload.session_id, subagent: payload.agent_id !== undefined },
      refresh.account.manifest,
      settings,
    );
  }
  return refresh.account.text;
}

/**
 * SessionStart (clear, compact) or PostCompact: the context starts afresh. After a compaction
 * SessionStart's answer restates the rules (rendered first: a restatement that cannot be built is
 * not recorded as given), and what the compaction's size proves is kept.
 */
async function onReset(
  payload: HookPayload,
  settings: Settings,
  trace: Trace,
): Promise<string | undefined> {
  trace.result = "reset";
  const paths = statePaths(settings.stateDir, payload.session_id, payload.agent_id);
  const event = payload.hook_event_name === POST_COMPACT_EVENT
    ? "PostCompact" as const
    : payload.source === "compact"
    ? "SessionStart" as const
    : "clear" as const;
  const built = event === "SessionStart" && settings.refreshAfterCompact
    ? await buildRefresh({ kind: "compaction", thresholds: [] }, paths.token, payload.cwd, settings)
    : undefined;
  const path = payload.transcript_path || undefined;
  const size = transcriptSize(path);
  const tail = path && event !== "clear" && size !== undefined
    ? readView(path, { sidechainFile: false, markersFrom: Math.max(0, size - 1024 * 1024) })
    : undefined;
  const compaction = tail && !("error" in tail) ? tail.compaction : undefined;
  // A reset is where Claude Code's settings are read afresh for the new context.
  const compact = claudeSettingsFor(undefined, settings, payload.cwd);
  const claimed = await claim({
    paths,
    stateDir: settings.stateDir,
    dry: false,
    decide: (state) => {
      const facts = compactionFacts(compaction, state, settings, compact.files);
      if (compaction && compact.remember) facts.claudeSettings = compact.remember;
      return decide({
        event,
        state,
        facts,
        promptId: payload.prompt_id,
        restate: settings.refreshAfterCompact &&
          (event !== "SessionStart" || built?.kind === "text"),
        answerAt: built?.kind === "text" ? size : undefined,
      });
    },
  });
  if (claimed.kind !== "decided") {
    trace.reason = claimed.kind === "failed" ? `cannot reset: ${claimed.reason}` : "raced";
    return undefined;
  }
  trace.decision = claimed.decision;
  trace.reason = built?.kind === "error"
    ? `${claimed.decision.reason}; cannot restate: ${built.error}`
    : claimed.decision.reason;
  if (!claimed.decision.cause || built?.kind !== "text") return undefined;
  trace.refresh = built.account;
  trace.reason = `${trace.reason}; ${built.account.chars} chars; sources: ${
    built.account.sources.join("; ")
  }`;
  return built.account.text;
}

/** Claude Code's auto-compaction settings, unless they cannot matter (off, or not scaling). */
function claudeSettingsFor(
  kept: string | undefined,
  settings: Settings,
  cwd: string | undefined,
): { files: CompactSettings | undefined; remember?: string } {
  if (!settings.scaleForAutocompact || settings.compactEnv.off) return { files: undefined };
  return compactSettingsFor(kept, {
    claudeDir: settings.claudeDir,
    projectDir: settings.projectDir ?? cwd,
    os: Deno.build.os,
  });
}

/** The line shown under the banner when the state folder cannot be used. */
export function startupNotice(dir: string, problem: string): string {
  return `lessons-reinject: ${problem}: it will not use it, so no context refresh is given; ` +
    stateDirFix(dir, problem);
}

/** What to do about a state folder the hook will not use. */
export function stateDirFix(dir: string, reason: string): string {
  const elsewhere = "point LESSONS_STATE_DIR (or stateDir in the config file) at a private folder";
  return reason.includes("writable by others")
    ? `chmod 700 ${dir} if it is yours, or ${elsewhere}`
    : elsewhere;
}

function silent(trace: Trace, reason: string): Trace {
  trace.result = "silent";
  trace.reason = reason;
  return trace;
}

/** The outcome: settings problems first, then the debug line when asked for. */
function finish(trace: Trace, stdout: string | undefined, settings: Settings): HookOutcome {
  const stderr = settings.problems.map((problem) => `lessons-reinject: ${problem}`);
  if (settings.debug) stderr.push(`lessons-reinject: ${debugLine(trace)}`);
  return { stdout, stderr, trace };
}
