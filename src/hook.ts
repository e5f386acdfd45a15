/**
 * The hook: one payload in (Claude Code's or Codex's: io/hosts.ts), at most one JSON answer out,
 * and the trace of how it decided (docs/architecture.md), built once from what the steps return.
 * A tool call reads the payload, loads the state (io/state_store.ts), observes the transcript
 * (hook/observe.ts), then claims (hook/claim.ts): under the lock it decides once and renders.
 * Every decision, resets and re-sends of an undelivered refresh included, is in core/decide.ts.
 * Commands run the same steps as a dry run (`dryRun`). It never throws and never blocks a session.
 */
import {
  CONTINUE_SOURCES,
  hookAnswer,
  RESET_SOURCES,
  SESSION_START,
  STARTUP_SOURCE,
} from "./core/claude_code.ts";
import { decideReset, decideToolCall } from "./core/decide.ts";
import { nothingSentAfterCompaction } from "./core/receipts.ts";
import { messageOf } from "./core/errors.ts";
import { fail, failed, type Result } from "./core/result.ts";
import { compactionFacts } from "./core/measure.ts";
import { type HookPayload, isHookPayload } from "./schemas/payload.ts";
import type { Settings } from "./settings/resolve.ts";
import { compactionSettings } from "./io/claude_settings.ts";
import { transcriptOf } from "./io/session_files.ts";
import { loadState, stateDirFix, statePaths, untrustedDirReason } from "./io/state_store.ts";
import { withTranscript } from "./io/transcript.ts";
import { readerFor, settingsFor, TOOL_CALL_EVENTS } from "./io/hosts.ts";
import type { StandingRules } from "./io/standing_rules.ts";
import { claim } from "./hook/claim.ts";
import { startupNotice } from "./hook/startup.ts";
import { observe } from "./hook/observe.ts";
import { buildRefresh } from "./hook/refresh.ts";
import type * as Replay from "./hook/replay.ts";
import { debugLine, type Part, silent, type Trace } from "./hook/trace.ts";
import { toolCallOutcome } from "./hook/outcome.ts";
import { rearmAfterRefresh } from "./io/lessons_learned_dedup.ts";

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

const UNRECORDED = "cannot record the decision";

/** Runs the hook on `stdinText` (undefined: stdin was over the cap). */
export async function runHook(
  stdinText: string | undefined,
  given: Settings,
): Promise<HookOutcome> {
  const payload = readPayload(stdinText);
  if (failed(payload)) return finish(silent(payload.error), given);
  const settings = settingsFor(payload.transcript_path, given);
  const resets = payload.hook_event_name === SESSION_START &&
    RESET_SOURCES.includes(payload.source ?? "");
  // A state folder that fills up or a lock that stays busy ends this call quietly.
  const onError = (why: string): Part =>
    resets ? { result: "reset", reason: `cannot reset: ${why}` } : silent(`${UNRECORDED}: ${why}`);
  return finish(await traced(payload, () => onEvent(payload, settings, resets), onError), settings);
}

/**
 * A tool call's steps without the lock, waiting or writing: what the next call would decide;
 * `rules`: the standing rules a command loaded already, rendered instead of loaded again.
 */
export async function dryRun(
  payload: HookPayload,
  settings: Settings,
  options: { render: boolean; rules?: StandingRules },
): Promise<Trace> {
  const host = { ...settingsFor(payload.transcript_path, settings), waitMs: 0 };
  const call = () => onToolCall(payload, host, { dry: true, ...options });
  const { answer: _, ...trace } = await traced(payload, call, silent);
  return trace;
}

/** The one place a trace is built: from the payload and what the steps returned. */
async function traced(
  payload: HookPayload,
  steps: () => Promise<Part>,
  onError: (why: string) => Part,
): Promise<Trace & { answer?: string | undefined }> {
  const { tool_name: tool, agent_id: agentId } = payload;
  let part: Part;
  try {
    part = await steps();
  } catch (error) {
    part = onError(messageOf(error));
  }
  return { event: eventOf(payload), tool, agentId, ...part };
}

/** `PostToolUse`, `SessionStart (compact)`: the event as the debug line names it. */
function eventOf({ hook_event_name: name, source }: HookPayload): string {
  return source ? `${name} (${source})` : name;
}

/** Step 1: stdin as a payload (checked by its hand-written guard: no schema is built), or why not. */
function readPayload(stdinText: string | undefined): Result<HookPayload> {
  if (stdinText === undefined) return fail("stdin is larger than the 16 MB cap");
  if (stdinText.trim() === "") return fail("stdin is empty");
  let raw: unknown;
  try {
    raw = JSON.parse(stdinText);
  } catch {
    return fail("stdin is not JSON");
  }
  return isHookPayload(raw) ? raw : fail("stdin is not a hook payload with a session_id");
}

/** The answer to the payload's event, by what it is. */
async function onEvent(payload: HookPayload, settings: Settings, resets: boolean): Promise<Part> {
  const event = payload.hook_event_name;
  if (resets) return await onReset(payload, settings);
  if (event === SESSION_START && payload.source === STARTUP_SOURCE) {
    return { result: "silent", ...(await startupNotice(payload, settings)) };
  }
  if (TOOL_CALL_EVENTS.includes(event) || continues(payload)) {
    // A resumed or forked session is measured as a tool call is; SessionStart answers it.
    return await onToolCall(payload, settings, { dry: false, render: true });
  }
  return { ...silent(`${eventOf(payload)} needs no action`), event: undefined };
}

/** A SessionStart that continues a context (`resume`, `fork`). */
function continues(payload: HookPayload): boolean {
  return payload.hook_event_name === SESSION_START &&
    CONTINUE_SOURCES.includes(payload.source ?? "");
}

/** A tool call: load, observe, measure, claim; the refresh when it fires. */
async function onToolCall(
  payload: HookPayload,
  settings: Settings,
  mode: { dry: boolean; render: boolean; rules?: StandingRules | undefined },
): Promise<Part> {
  const untrusted = untrustedDirReason(settings.stateDir);
  if (untrusted) return silent(untrusted.error);
  // Step 2: the state, which transcript, and Claude Code's settings.
  const paths = statePaths(settings.stateDir, payload.session_id, payload.agent_id);
  const { kind, state } = loadState(paths.state);
  const transcript = transcriptOf(payload, state.agentTranscript);
  const { files, remember } = compactionSettings(settings, payload.cwd, {
    kept: state.claudeSettings,
  });
  // Step 3.
  const { token } = paths;
  const context = { state, stateFound: kind === "found", transcript, token, files };
  const { view, ...seen } = observe(payload, { ...context, claudeSettings: remember }, settings);
  const { reading, facts } = seen;
  const observed = { statePath: paths.state, stateFile: kind, stateBefore: state, ...seen };
  // Step 4. SessionStart's answer is recorded under its own name (core/claude_code.ts).
  const call = payload.tool_use_id ?? (continues(payload) ? SESSION_START : undefined);
  try {
    const claimed = await claim({
      paths,
      stateDir: settings.stateDir,
      dry: mode.dry,
      known: kind === "found",
      epoch: state.epoch ?? 0,
      seen: state,
      decide: async (fresh, found) => {
        const decided = decideToolCall({
          state: fresh,
          stateFound: found,
          reading,
          facts,
          receipts: view?.receipts,
          claim: { call, at: view?.size },
          settings,
        });
        const refresh = decided.cause && mode.render
          ? await buildRefresh(decided.cause, token, payload.cwd, settings, mode.rules)
          : undefined;
        // Nothing restated (Claude Code reloads CLAUDE.md itself): no receipt is awaited.
        if (refresh?.kind !== "reloaded") return { decision: decided, refresh };
        const state = nothingSentAfterCompaction(fresh, decided.state);
        return { decision: { ...decided, state }, refresh };
      },
    });
    const outcome = toolCallOutcome(claimed, payload, reading);
    // lessons-learned's own dedup forgets what it showed, once a refresh restated its lessons.
    const cause = outcome.decision?.cause;
    const manifest = outcome.refresh?.manifest;
    const session = { sessionId: payload.session_id, subagent: payload.agent_id !== undefined };
    const rearm = !mode.dry && cause?.kind === "thresholds" && manifest !== undefined
      ? rearmAfterRefresh(cause.thresholds, session, manifest, settings)
      : undefined;
    return { ...observed, ...outcome, ...(rearm && { rearm }) };
  } catch (error) {
    const why = messageOf(error);
    return { ...observed, result: "silent", reason: mode.dry ? why : `${UNRECORDED}: ${why}` };
  }
}

/**
 * SessionStart (clear, compact): the context starts afresh, as core/decide.ts `decideReset`
 * decides; after a compaction the answer restates the rules (rendered first: one that cannot be
 * built is not recorded as given).
 */
async function onReset(payload: HookPayload, settings: Settings): Promise<Part> {
  const paths = statePaths(settings.stateDir, payload.session_id, payload.agent_id);
  const event = payload.source === "compact" ? "compact" : "clear";
  const built = event === "compact" && settings.refreshAfterCompact
    ? await buildRefresh({ kind: "compaction", thresholds: [] }, paths.token, payload.cwd, settings)
    : undefined;
  // The compaction's size, from the transcript's last megabyte.
  const path = event === "clear" ? undefined : payload.transcript_path;
  const tail = path && withTranscript(path, (source, size) => {
    const query = { sidechainFile: false, markersFrom: Math.max(0, size - 2 ** 20) };
    return readerFor(path).viewOf(source, size, query);
  });
  const view = tail && !failed(tail) ? tail : undefined;
  // A reset is where Claude Code's settings are read afresh for the new context.
  const compact = compactionSettings(settings, payload.cwd);
  const text = built?.kind === "text" ? built.account : undefined;
  const claimed = await claim({
    paths,
    stateDir: settings.stateDir,
    dry: false,
    decide: (state) => ({
      decision: decideReset({
        event,
        state,
        facts: compactionFacts(view?.compaction, state, settings, compact.files, compact.remember),
        promptId: payload.prompt_id,
        restate: text !== undefined,
        answerAt: text ? view?.size : undefined,
        // A marker after the newest usage is this compaction's, written already.
        compactedFrom: event === "compact" && view?.markerAfterUsage === undefined
          ? view?.size
          : undefined,
      }),
    }),
  });
  if (failed(claimed)) return { result: "reset", reason: `cannot reset: ${claimed.error}` };
  if (claimed.kind === "raced") return { result: "reset", reason: "raced" };
  const { decision } = claimed;
  const reason = built?.kind === "error"
    ? `${decision.reason}; cannot restate: ${built.error}`
    : built?.kind === "reloaded"
    ? `reset; nothing restated: ${built.why}`
    : decision.reason;
  if (!decision.cause || text === undefined) return { result: "reset", reason, decision };
  return {
    result: "reset",
    reason: `${reason}; ${text.chars} chars; sources: ${text.sources.join("; ")}`,
    decision,
    refresh: text,
    answer: hookAnswer(SESSION_START, text.text),
  };
}

/** The outcome: settings problems first, then the debug line when asked for. */
function finish(
  { answer, ...trace }: Trace & { answer?: string | undefined },
  settings: Settings,
): HookOutcome {
  // Where the host shows stderr, settings problems are said on a context's first call only.
  const once = !settings.stderrShown || trace.stateFile === "missing";
  const stderr = once ? settings.problems.map((problem) => `lessons-reinject: ${problem}`) : [];
  if (settings.debug) stderr.push(`lessons-reinject: ${debugLine(trace)}`);
  return { stdout: answer, stderr, trace };
}
