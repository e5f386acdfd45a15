/**
 * Step 3: what the transcript shows this call, and its reading. Claude Code writes the transcript
 * after the hook starts, so a call waits, bounded, for its own entry, unless the ceiling on its
 * reading already rules every crossing out and no receipt it owes can still come. A fresh
 * statusline record is preferred; a context whose state file is gone recovers its history.
 */
import { ceilingOf } from "../core/ceiling.ts";
import type { CompactSettings } from "../core/compaction_point.ts";
import { type ContextFacts, markersFrom } from "../core/facts.ts";
import { measure, type MeasureSettings } from "../core/measure.ts";
import { fillOf, isFresh, isReading, type NoReading, type Reading } from "../core/reading.ts";
import { receiptQuery, receiptsSettled } from "../core/receipts.ts";
import { crossedThresholds, type Fill } from "../core/thresholds.ts";
import type { TranscriptView } from "../core/view.ts";
import type { HookPayload } from "../schemas/payload.ts";
import type { State } from "../schemas/state.ts";
import { loadStatusline } from "../io/statusline_store.ts";
import { readView } from "../io/transcript.ts";
import type { TranscriptRef } from "../io/session_files.ts";
import { recoverHistory } from "./history.ts";

/** How long to wait between reads. */
const POLL_MS = 10;
const cell = new Int32Array(new SharedArrayBuffer(4));

/** What the call saw and measured. */
export interface Observed {
  /** The transcript's view, when it could be read. */
  view: TranscriptView | undefined;
  reading: Reading | NoReading;
  facts: ContextFacts;
  /** The ceiling the call answered on without its own entry, if it did. */
  ceiling: Fill | undefined;
  /** Reads of the transcript (1: no wait). */
  reads: number;
}

/** What observing needs besides the payload. */
export interface CallContext {
  state: State;
  stateFound: boolean;
  transcript: TranscriptRef | undefined;
  token: string;
  stateDir: string;
  settings: MeasureSettings & { waitMs: number };
  files: CompactSettings | undefined;
}

/** Observes and measures the tool call `payload` in its context. */
export function observe(payload: HookPayload, context: CallContext): Observed {
  const { state, transcript, settings, files } = context;
  const read = transcript &&
    readWaiting(
      transcript,
      { toolUseId: payload.tool_use_id, token: context.token },
      state,
      settings,
      files,
    );
  const view = read && !("error" in read.view) ? read.view : undefined;
  // A fresh statusline reading is Claude Code's own figure for the main thread's context.
  const record = payload.agent_id || !view
    ? undefined
    : loadStatusline(context.stateDir, payload.session_id);
  const { reading, facts } = measure({
    contextWindow: payload.context_window,
    view: read?.view,
    bridged: record && isFresh(record, Date.now(), view?.usage) ? record : undefined,
    state,
    settings,
    files,
  });
  if (transcript?.found) facts.agentTranscript = transcript.found;
  if (
    !context.stateFound && transcript && view && isReading(reading) &&
    crossedThresholds(fillOf(reading), settings.thresholds, state.fired).length > 0
  ) {
    Object.assign(
      facts,
      recoverHistory(transcript, context.token, payload.transcript_path, view.size),
    );
  }
  return { view, reading, facts, ceiling: read?.ceiling, reads: read?.reads ?? 0 };
}

/**
 * Reads `transcript` for the call `toolUseId` of the context whose state is `state`, waiting up
 * to `waitMs` for the call's own entry. A missing subagent file is waited for too (Claude Code
 * creates it asynchronously).
 */
function readWaiting(
  transcript: TranscriptRef,
  call: { toolUseId: string | undefined; token: string },
  state: State,
  settings: MeasureSettings & { waitMs: number },
  files: CompactSettings | undefined,
): { view: TranscriptView | { error: string }; ceiling: Fill | undefined; reads: number } {
  const outstanding = receiptQuery(state);
  const query = {
    toolUseId: call.toolUseId,
    sidechainFile: transcript.sidechainFile,
    markersFrom: markersFrom(state),
    receipts: outstanding && { ...outstanding, token: call.token },
  };
  const deadline = performance.now() + settings.waitMs;
  for (let reads = 1;; reads++) {
    const view = readView(transcript.path, query);
    if ("error" in view) {
      const waiting = view.missing === true && transcript.sidechainFile;
      if (!waiting || performance.now() + POLL_MS > deadline) {
        return { view, ceiling: undefined, reads };
      }
    } else {
      const usage = view.usage;
      if (
        usage?.matched || view.callPresent || usage?.window !== undefined ||
        call.toolUseId === undefined
      ) {
        return { view, ceiling: undefined, reads };
      }
      const ceiling = ceilingOf(view, state, settings, files);
      if (ceiling !== undefined && receiptsSettled(state, view.receipts)) {
        return { view, ceiling, reads };
      }
      if (performance.now() + POLL_MS > deadline) return { view, ceiling: undefined, reads };
    }
    // A pause without a timer: a process's first timer costs more than the pause itself.
    Atomics.wait(cell, 0, 0, POLL_MS);
  }
}
