/**
 * The hook: one payload in (Claude Code's or Codex's: io/hosts.ts), at most one JSON answer out,
 * and the trace of how it decided (docs/architecture.md). A tool call reads the payload, loads the
 * state (io/state_store.ts), observes the transcript (hook/observe.ts), then claims
 * (hook/claim.ts): under the lock it decides once and renders. Whether to re-send an undelivered
 * refresh is decided in core/decide.ts (core/receipts.ts `settleDeliveries`, `withReceipts`).
 * Commands run the same steps as a dry run (`dryRun`). It never throws and never blocks a session.
 */
import {
  CONTINUE_SOURCES,
  hookAnswer,
  RESET_SOURCES,
  SESSION_START,
  STARTUP_SOURCE,
  TOOL_CALL_EVENTS,
} from "./core/claude_code.ts";
import { decide } from "./core/decide.ts";
import { messageOf } from "./core/errors.ts";
import { compactionFacts } from "./core/measure.ts";
import { isReading } from "./core/reading.ts";
import { isHookPayload } from "./schemas/guards.ts";
import type { HookPayload } from "./schemas/payload.ts";
import type { Settings } from "./settings/resolve.ts";
import { compactSettingsOf } from "./io/claude_settings.ts";
import { rearmAfterRefresh } from "./io/lessons_learned_dedup.ts";
import { transcriptOf } from "./io/session_files.ts";
import { loadState, stateDirFix, statePaths, untrustedDirReason } from "./io/state_store.ts";
import { withTranscript } from "./io/transcript.ts";
import { readerFor, settingsFor } from "./io/hosts.ts";
import { claim } from "./hook/claim.ts";
import { startupNotice } from "./hook/startup.ts";
import { observe } from "./hook/observe.ts";
import { buildRefresh } from "./hook/refresh.ts";
import type * as Replay from "./hook/replay.ts";
import { debugLine, describeReading, type Trace } from "./hook/trace.ts";

export { buildRefresh, debugLine, stateDirFix, type Trace };
export type { Replayed } from "./hook/replay.ts";

/** A whole session replayed through these steps (hook/replay.ts), loaded only when asked for. */
export async function replaySession(...args: Parameters<typeof Replay.replaySession>) {
  return (await import("./hook/replay.ts")).replaySession(...args);
}

/** What the hook prints (stdout: one JSON object or nothing; stderr lines) and its trace. */
export interface HookOutcome {
  stdout: string | undefined;
  stderr: string[];
  trace: Trace;
}

/** Runs the hook on `stdinText` (undefined: stdin was over the cap). */
export async function runHook(
  stdinText: string | undefined,
  given: Settings,
): Promise<HookOutcome> {
  const payload = readPayload(stdinText);
  if (typeof payload === "string") {
    return finish({ result: "silent", reason: payload }, undefined, given);
  }
  const settings = settingsFor(payload.transcript_path, given);
  const trace = traceOf(payload);
  const event = payload.hook_event_name;
  const startsAfresh = event === SESSION_START && RESET_SOURCES.includes(payload.source ?? "");
  let answer: string | undefined;
  try {
    if (startsAfresh) {
      const text = await onReset(payload, settings, trace);
      answer = text === undefined ? undefined : hookAnswer(SESSION_START, text);
    } else if (event === SESSION_START && payload.source === STARTUP_SOURCE) {
      ({ answer, reason: trace.reason } = await startupNotice(payload, settings));
    } else if (TOOL_CALL_EVENTS.includes(event) || continues(payload)) {
      // A resumed or forked session is measured as a tool call is; SessionStart answers it.
      const text = await onToolCall(payload, settings, trace, { dry: false, render: true });
      answer = text === undefined ? undefined : hookAnswer(event, text);
    } else {
      trace.reason = `${trace.event} needs no action`;
      trace.event = undefined;
    }
  } catch (error) {
    // A state folder that fills up or a lock that stays busy ends this call quietly.
    const reset = trace.result === "reset";
    trace.reason = `${reset ? "cannot reset" : "cannot record the decision"}: ${messageOf(error)}`;
    if (!reset) trace.result = "silent";
  }
  return finish(trace, answer, settings);
}

/** A tool call's steps without the lock, waiting or writing: what the next call would decide. */
export async function dryRun(
  payload: HookPayload,
  settings: Settings,
  options: { render: boolean },
): Promise<Trace> {
  const trace = traceOf(payload);
  const host = settingsFor(payload.transcript_path, settings);
  try {
    await onToolCall(payload, { ...host, waitMs: 0 }, trace, { dry: true, ...options });
  } catch (error) {
    Object.assign(trace, { result: "silent", reason: messageOf(error) });
  }
  return trace;
}

/** Step 1: stdin as a payload (a guard proven equal to its schema: none is built), or why not. */
function readPayload(stdinText: string | undefined): HookPayload | string {
  if (stdinText === undefined) return "stdin is larger than the 16 MB cap";
  if (stdinText.trim() === "") return "stdin is empty";
  let raw: unknown;
  try {
    raw = JSON.parse(stdinText);
  } catch {
    return "stdin is not JSON";
  }
  return isHookPayload(raw) ? raw : "stdin is not a hook payload with a session_id";
}

function traceOf(payload: HookPayload): Trace {
  const { hook_event_name: name, source, tool_name: tool, agent_id: agentId } = payload;
  const event = source ? `${name} (${source})` : name;
  return { result: "silent", reason: "", event, tool, agentId };
}

/** The size of a tool call's `tool_response` (or `error`). */
function resultBytes(payload: HookPayload): number {
  const result = payload.tool_response ?? payload.error;
  return result === undefined ? 0 : JSON.stringify(result).length;
}

/** A SessionStart that continues a context (`resume`, `fork`). */
function continues(payload: HookPayload): boolean {
  return payload.hook_event_name === SESSION_START &&
    CONTINUE_SOURCES.includes(payload.source ?? "");
}

/** A tool call: load, observe, measure, claim; the refresh text when it fires. */
async function onToolCall(
  payload: HookPayload,
  settings: Settings,
  trace: Trace,
  mode: { dry: boolean; render: boolean },
): Promise<string | undefined> {
  const untrusted = untrustedDirReason(settings.stateDir);
  if (untrusted) return void (trace.reason = untrusted);
  // Step 2: the state, which transcript, and Claude Code's settings.
  const paths = statePaths(settings.stateDir, payload.session_id, payload.agent_id);
  const { kind, state } = loadState(paths.state);
  Object.assign(trace, { statePath: paths.state, stateFile: kind, stateBefore: state });
  const transcript = transcriptOf(payload, state.agentTranscript);
  const compact = compactSettingsOf(state.claudeSettings, settings, payload.cwd);
  // Step 3.
  const { files } = compact;
  const context = { state, stateFound: kind === "found", transcript, token: paths.token, files };
  const { view, reading, facts, ceiling, waited } = observe(payload, context, settings);
  if (compact.remember) facts.claudeSettings = compact.remember;
  // What this call's result will add to the transcript, for the next call's ceiling.
  if (payload.tool_use_id) facts.result = [payload.tool_use_id, resultBytes(payload)];
  Object.assign(trace, { reading, facts, ceiling, waited });
  // Step 4. SessionStart's answer is recorded under its own name (core/claude_code.ts).
  const call = payload.tool_use_id ?? (continues(payload) ? SESSION_START : undefined);
  const claimed = await claim({
    paths,
    stateDir: settings.stateDir,
    dry: mode.dry,
    known: kind === "found",
    epoch: state.epoch ?? 0,
    decide: (fresh, found) =>
      decide({
        event: "tool call",
        state: fresh,
        stateFound: found,
        reading,
        facts,
        receipts: view?.receipts,
        claim: { call, at: view?.size },
        settings,
      }),
    render: mode.render
      ? (cause) => buildRefresh(cause, paths.token, payload.cwd, settings)
      : undefined,
  });
  if (claimed.kind !== "decided") {
    return void (trace.reason = claimed.kind === "failed"
      ? claimed.reason
      : "a reset arrived meanwhile");
  }
  const { decision, refresh } = claimed;
  trace.decision = decision;
  trace.reason = isReading(reading)
    ? `${describeReading(reading)} → ${decision.reason}`
    : decision.reason;
  if (!decision.cause) return undefined;
  if (refresh?.kind === "error") {
    // Nothing is sent, and nothing is recorded as sent.
    trace.refused = refresh.error;
    return void (trace.reason = `${trace.reason}, but ${refresh.error}`);
  }
  if (refresh?.kind === "reloaded") {
    // Settled and recorded: the next call does not try again.
    trace.reloaded = refresh.why;
    return void (trace.reason = `${trace.reason}; nothing restated: ${refresh.why}`);
  }
  trace.result = "fired";
  if (!refresh) return undefined;
  trace.refresh = refresh.account;
  const { cause } = decision;
  if (!mode.dry && cause.kind === "thresholds" && refresh.account.manifest !== undefined) {
    const session = { sessionId: payload.session_id, subagent: payload.agent_id !== undefined };
    trace.rearm = rearmAfterRefresh(cause.thresholds, session, refresh.account.manifest, settings);
  }
  return refresh.account.text;
}

/**
 * SessionStart (clear, compact): the context starts afresh; after a compaction the answer restates
 * the rules (rendered first: one that cannot be built is not recorded as given).
 */
async function onReset(
  payload: HookPayload,
  settings: Settings,
  trace: Trace,
): Promise<string | undefined> {
  trace.result = "reset";
  const paths = statePaths(settings.stateDir, payload.session_id, payload.agent_id);
  const event = payload.source === "compact" ? "SessionStart" : "clear";
  const built = event === "SessionStart" && settings.refreshAfterCompact
    ? await buildRefresh({ kind: "compaction", thresholds: [] }, paths.token, payload.cwd, settings)
    : undefined;
  // The compaction's size, from the transcript's last megabyte.
  const path = event === "clear" ? undefined : payload.transcript_path;
  const tail = path && withTranscript(path, (source, size) => {
    const query = { sidechainFile: false, markersFrom: Math.max(0, size - 2 ** 20) };
    return readerFor(path).viewOf(source, size, query);
  });
  const view = tail && !("error" in tail) ? tail : undefined;
  // A reset is where Claude Code's settings are read afresh for the new context.
  const compact = compactSettingsOf(undefined, settings, payload.cwd);
  const claimed = await claim({
    paths,
    stateDir: settings.stateDir,
    dry: false,
    decide: (state) => {
      const facts = compactionFacts(view?.compaction, state, settings, compact.files);
      if (view?.compaction && compact.remember) facts.claudeSettings = compact.remember;
      return decide({
        event,
        state,
        facts,
        promptId: payload.prompt_id,
        restate: settings.refreshAfterCompact &&
          (event !== "SessionStart" || built?.kind === "text"),
        answerAt: built?.kind === "text" ? view?.size : undefined,
        // A marker after the newest usage is this compaction's, written already.
        compactedFrom: event === "SessionStart" && view?.markerAfterUsage === undefined
          ? view?.size
          : undefined,
      });
    },
  });
  if (claimed.kind !== "decided") {
    trace.reason = claimed.kind === "failed" ? `cannot reset: ${claimed.reason}` : "raced";
    return undefined;
  }
  const { decision } = claimed;
  trace.decision = decision;
  trace.reason = built?.kind === "error"
    ? `${decision.reason}; cannot restate: ${built.error}`
    : built?.kind === "reloaded"
    ? `reset; nothing restated: ${built.why}`
    : decision.reason;
  if (!decision.cause || built?.kind !== "text") return undefined;
  trace.refresh = built.account;
  trace.reason += `; ${built.account.chars} chars; sources: ${built.account.sources.join("; ")}`;
  return built.account.text;
}

/** The outcome: settings problems first, then the debug line when asked for. */
function finish(trace: Trace, stdout: string | undefined, settings: Settings): HookOutcome {
  const stderr = settings.problems.map((problem) => `lessons-reinject: ${problem}`);
  if (settings.debug) stderr.push(`lessons-reinject: ${debugLine(trace)}`);
  return { stdout, stderr, trace };
}
