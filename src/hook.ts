/**
 * The hook: one Claude Code payload in, at most one JSON answer out, and the trace of how it
 * decided. Read one call top to bottom: read the payload, reset or plan, claim, answer. It never
 * throws (main.ts also catches) and never blocks a session.
 */
import {
  COMPACT_ANSWER_EVENT,
  hookAnswer,
  POST_COMPACT_EVENT,
  RESET_SOURCES,
  STARTUP_SOURCE,
  TOOL_CALL_EVENTS,
  userNotice,
} from "./core/claude_code.ts";
import { messageOf } from "./core/errors.ts";
import type { RefreshCause } from "./core/header.ts";
import type { HookPayload } from "./schemas/payload.ts";
import type { Settings } from "./settings/resolve.ts";
import { claim } from "./hook/claim.ts";
import { contextFiles } from "./hook/context_files.ts";
import { planCall } from "./hook/plan.ts";
import { readPayload } from "./hook/read_payload.ts";
import { buildRefresh } from "./hook/refresh_text.ts";
import { rearmAfterRefresh } from "./hook/rearm.ts";
import { resetContext } from "./hook/reset.ts";
import { recordCompactionWindow } from "./hook/compaction_window.ts";
import { debugLine, describeDecision, emptyTrace, timed, type Trace } from "./hook/trace.ts";

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
  if (read.kind === "invalid") return silent(trace, read.reason, settings);
  const payload = read.payload;
  trace.event = payload.hook_event_name;
  trace.tool = payload.tool_name;
  trace.sessionId = payload.session_id;
  trace.agentId = payload.agent_id;

  if (endsContext(payload)) {
    trace.outcome = "reset";
    const source = payload.source ? ` (${payload.source})` : "";
    const text = await onReset(payload, settings, trace).catch((error) => {
      trace.reason = `cannot reset: ${messageOf(error)}`;
      return undefined;
    });
    trace.event = `${payload.hook_event_name}${source}`;
    // Only SessionStart's answer reaches the model; PostCompact's is refused (measured).
    return finish(
      trace,
      text === undefined ? undefined : hookAnswer(COMPACT_ANSWER_EVENT, text),
      settings,
    );
  }
  if (payload.hook_event_name === "SessionStart" && payload.source === STARTUP_SOURCE) {
    // A state folder it cannot use would make every call of the session silent: say so, once.
    const { startupNotice } = await import("./hook/startup_notice.ts");
    const notice = await startupNotice(settings.stateDir);
    trace.event = `SessionStart (${STARTUP_SOURCE})`;
    trace.outcome = "silent";
    trace.reason = notice === undefined ? "the state folder is usable" : "told the user: " + notice;
    return finish(trace, notice === undefined ? undefined : userNotice(notice), settings);
  }
  if (!TOOL_CALL_EVENTS.includes(payload.hook_event_name)) {
    const source = payload.source ? ` (${payload.source})` : "";
    trace.event = undefined;
    return silent(trace, `${payload.hook_event_name}${source} needs no action`, settings);
  }
  // A state folder that fills up or a lock that stays busy ends this call quietly; the next
  // call tries again.
  const text = await onToolCall(payload, settings, trace).catch((error) => {
    trace.outcome = "silent";
    trace.reason = `cannot record the decision: ${messageOf(error)}`;
    return undefined;
  });
  return finish(
    trace,
    text === undefined ? undefined : hookAnswer(payload.hook_event_name, text),
    settings,
  );
}

/** True for the events after which the context starts afresh. */
function endsContext(payload: HookPayload): boolean {
  return payload.hook_event_name === POST_COMPACT_EVENT ||
    (payload.hook_event_name === "SessionStart" && RESET_SOURCES.includes(payload.source ?? ""));
}

/**
 * Resets the context; after a compaction, SessionStart's answer restates the rules, rendered
 * before the state is written so that a refresh that cannot be built is not recorded as given.
 */
async function onReset(
  payload: HookPayload,
  settings: Settings,
  trace: Trace,
): Promise<string | undefined> {
  const files = await contextFiles(payload, settings.stateDir);
  const event = compactionEventOf(payload);
  const built = event === "SessionStart" && settings.refreshAfterCompact
    ? await timed(
      trace,
      "render",
      () =>
        buildRefresh({ kind: "compaction", thresholds: [] }, files.token, payload.cwd, settings),
    )
    : undefined;
  const done = await timed(trace, "reset", () =>
    resetContext(
      settings.stateDir,
      files.paths,
      event === undefined ? undefined : {
        event,
        promptId: payload.prompt_id,
        restate: settings.refreshAfterCompact && built?.kind !== "error",
      },
    ));
  const learned = await recordCompactionWindow(
    files.paths,
    payload.transcript_path,
    settings.disable1m,
  );
  const reason = learned === undefined ? done.reason : `${done.reason}; ${learned}`;
  trace.reason = built?.kind === "error" ? `${reason}; cannot restate: ${built.error}` : reason;
  if (!done.restateNow || built?.kind !== "text") return undefined;
  trace.refresh = built.account;
  trace.reason = `${trace.reason}; ${built.account.chars} chars; sources: ${
    built.account.sources.join("; ")
  }`;
  return built.account.text;
}

/** Which compaction event `payload` is, if it is one. */
function compactionEventOf(payload: HookPayload): "SessionStart" | "PostCompact" | undefined {
  if (payload.hook_event_name === POST_COMPACT_EVENT) return "PostCompact";
  return payload.hook_event_name === COMPACT_ANSWER_EVENT && payload.source === "compact"
    ? "SessionStart"
    : undefined;
}

/** Plans the call, claims it under the lock, and returns the text to inject, if any. */
async function onToolCall(
  payload: HookPayload,
  settings: Settings,
  trace: Trace,
): Promise<string | undefined> {
  const plan = await planCall(payload, settings, { render: true }, trace);
  if (plan.kind === "untrusted") {
    trace.reason = plan.reason;
    return undefined;
  }
  if (!plan.decision.cause && !plan.needsWrite) return undefined;
  if (plan.refresh?.kind === "error") {
    // A refresh that cannot be rendered must not be marked as delivered.
    trace.reason = `${trace.reason}, but ${plan.refresh.error}`;
    return undefined;
  }

  const claimed = await timed(trace, "claim", () => claim(plan, settings));
  if (claimed.kind === "failed") {
    trace.reason = claimed.reason;
    return undefined;
  }
  if (claimed.kind === "raced") {
    trace.reason = `a reset arrived meanwhile (${trace.reason})`;
    return undefined;
  }
  const { decision } = claimed;
  trace.decision = decision;
  trace.stateAfter = claimed.state;
  const final = describeDecision(plan.reading, decision);
  const planned = plan.decision.cause;
  if (!decision.cause) {
    trace.reason = final;
    trace.refresh = undefined;
    return undefined;
  }
  // Another process may have fired part of what this one saw (name only what is left), or the
  // state under the lock asks for something else (a compaction found meanwhile): the claim is
  // written, so this process delivers what it claimed.
  if (planned === undefined || describeCause(planned) !== describeCause(decision.cause)) {
    const cause = decision.cause;
    const rebuilt = await timed(
      trace,
      "render",
      () => buildRefresh(cause, plan.files.token, payload.cwd, settings),
    );
    if (rebuilt.kind === "error") {
      trace.reason = rebuilt.error;
      trace.refresh = undefined;
      return undefined;
    }
    trace.refresh = rebuilt.account;
  }
  trace.outcome = "fired";
  trace.reason = final;
  const manifest = trace.refresh?.manifest;
  if (settings.rearmDedupAt.length > 0 && manifest !== undefined) {
    const { cause } = decision;
    const session = { sessionId: payload.session_id, agentId: payload.agent_id };
    trace.rearm = await timed(
      trace,
      "rearm",
      () => rearmAfterRefresh(cause, session, manifest, settings),
    );
  }
  return trace.refresh?.text;
}

/** What a refresh's text depends on: its kind and what it names. */
function describeCause(cause: RefreshCause): string {
  return cause.kind === "toolCount" ? `calls:${cause.calls}` : `${cause.kind}:${cause.thresholds}`;
}

function silent(trace: Trace, reason: string, settings: Settings): HookOutcome {
  trace.outcome = "silent";
  trace.reason = reason;
  return finish(trace, undefined, settings);
}

/** The outcome: settings problems first, then the debug line when asked for. */
function finish(trace: Trace, stdout: string | undefined, settings: Settings): HookOutcome {
  const stderr = settings.problems.map((problem) => `lessons-reinject: ${problem}`);
  if (settings.debug) stderr.push(`lessons-reinject: ${debugLine(trace)}`);
  return { stdout, stderr, trace };
}
