/**
 * Step 3: what the transcript shows this call, and its reading. Claude Code writes the entry
 * after the hook starts, so a call waits, bounded, unless the ceiling on its reading rules every
 * crossing out and no receipt it owes can still come. A fresh statusline record is preferred.
 */
import { ceilingOf } from "../core/ceiling.ts";
import type { ContextFacts } from "../core/facts.ts";
import type { CompactSettings } from "../core/compaction_point.ts";
import { measure } from "../core/measure.ts";
import { fillOf, isFresh, isReading } from "../core/reading.ts";
import { receiptsSettled } from "../core/receipts.ts";
import { crossedThresholds } from "../core/thresholds.ts";
import { scheduledThresholds } from "../core/schedule.ts";
import { viewQuery } from "../core/view.ts";
import type { HookPayload } from "../schemas/payload.ts";
import type { State } from "../schemas/state.ts";
import type { Settings } from "../settings/resolve.ts";
import { loadStatusline } from "../io/statusline_store.ts";
import { readerFor } from "../io/hosts.ts";
import { withTranscript } from "../io/transcript.ts";
import { failed } from "../core/result.ts";
import type { TranscriptRef } from "../io/session_files.ts";
import { recoverHistory } from "./history.ts";

const POLL_MS = 1;
const cell = new Int32Array(new SharedArrayBuffer(4));

interface CallContext {
  state: State;
  stateFound: boolean;
  transcript: TranscriptRef | undefined;
  token: string;
  files: CompactSettings | undefined;
  /** Claude Code's compaction settings to remember, when read afresh. */
  claudeSettings: string | undefined;
}

/** Observes and measures the tool call; `ceiling` (percent): answered on it instead of waiting. */
export function observe(payload: HookPayload, context: CallContext, settings: Settings) {
  const { state, transcript, files } = context;
  const read = transcript && readWaiting(transcript, payload.tool_use_id, context, settings);
  const view = read && !failed(read.view) ? read.view : undefined;
  // A fresh statusline record is Claude Code's own figure for the main thread's context.
  const record = payload.agent_id || !view
    ? undefined
    : loadStatusline(settings.stateDir, payload.session_id);
  const measured = measure({
    contextWindow: payload.context_window,
    view: read?.view,
    bridged: record && isFresh(record, Date.now(), view?.usage) ? record : undefined,
    state,
    settings,
    files,
  });
  const { reading } = measured;
  const recover = !context.stateFound && transcript && view && isReading(reading) &&
    crossedThresholds(
        fillOf(reading),
        scheduledThresholds(settings.thresholds, reading),
        state.fired,
      )
        .length > 0;
  // Every fact this call learned, in one place: the read's, the history's, the settings'.
  const facts: ContextFacts = {
    ...measured.facts,
    ...(transcript?.found ? { agentTranscript: transcript.found } : {}),
    ...(recover
      ? recoverHistory(transcript, context.token, payload.transcript_path, view.size)
      : {}),
    claudeSettings: context.claudeSettings,
    // What this call's result will add to the transcript, for the next call's ceiling.
    result: payload.tool_use_id ? [payload.tool_use_id, resultBytes(payload)] : undefined,
  };
  const ceiling = read?.ceiling && (read.ceiling.tokens * 100) / read.ceiling.span;
  return { view, reading, facts, ceiling, waited: read?.waited };
}

/** The size of a tool call's `tool_response` (or `error`). */
function resultBytes(payload: HookPayload): number {
  const result = payload.tool_response ?? payload.error;
  return result === undefined ? 0 : JSON.stringify(result).length;
}

// Reads for the call's own entry, waiting up to `waitMs`; for a missing file too where Claude Code
// creates it late: a subagent's, and a context's first call (2.1.120 creates the session's file
// after the first PostToolUse hook has started, under load).
function readWaiting(
  transcript: TranscriptRef,
  toolUseId: string | undefined,
  { token, state, stateFound, files }: CallContext,
  settings: Settings,
) {
  const mayAppear = transcript.sidechainFile || !stateFound;
  const query = viewQuery(state, token, toolUseId, transcript.sidechainFile);
  const { viewOf } = readerFor(transcript.path);
  const started = performance.now();
  const deadline = started + settings.waitMs;
  for (let reads = 1;; reads++) {
    const view = withTranscript(transcript.path, (source, size) => viewOf(source, size, query));
    const now = performance.now();
    const waited = reads > 1 ? Math.round(now - started) : undefined;
    if (failed(view)) {
      if (!failed(view, "missing") || !mayAppear || !toolUseId) return { view, waited };
    } else {
      const usage = view.usage;
      const stated = usage?.window !== undefined && !view.ownUsageDue;
      if (usage?.matched || view.callPresent || stated || !toolUseId) {
        return { view, waited };
      }
      const ceiling = ceilingOf(view, state, settings, files);
      if (ceiling !== undefined && receiptsSettled(state, view.receipts)) {
        return { view, ceiling, waited };
      }
    }
    if (now + POLL_MS > deadline) return { view, waited };
    // Pauses without a timer (a first timer costs more) until the file grows or appears: a read
    // costs more than a stat, opened afresh so that a file Claude Code rewrote is the one seen.
    const size = failed(view) ? -1 : view.size;
    while (performance.now() + POLL_MS < deadline) {
      Atomics.wait(cell, 0, 0, POLL_MS);
      if (withTranscript(transcript.path, (_, now) => now) !== size) break;
    }
  }
}
