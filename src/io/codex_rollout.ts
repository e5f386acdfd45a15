/**
 * What a Codex rollout shows one tool call, read backwards from its end: the same view
 * io/transcript.ts gives of a Claude Code transcript (core/view.ts), so everything after it is
 * shared. The reading is the newest response's input tokens against the `model_context_window`
 * the rollout states; the receipts are Codex's records of delivered hook answers.
 */
import { ROLLOUT_KEYS, type RolloutLine, rolloutLineOf } from "../core/codex.ts";
import { SESSION_START } from "../core/claude_code.ts";
import { parseRefreshHeader, refreshLabelOf } from "../core/header.ts";
import type { ReceiptEvidence } from "../core/receipts.ts";
import { parseLine } from "../core/transcript_entry.ts";
import type { TranscriptUsage, TranscriptView, ViewQuery } from "../core/view.ts";
import {
  type ByteSource,
  cachedSource,
  countingSource,
  readLinesBackward,
} from "./reverse_lines.ts";

const MAX_SCAN_BYTES = 64 * 1024 * 1024;
const RECEIPT_MAX_BYTES = 8 * 1024 * 1024;
const decoder = new TextDecoder();

type Line = { start: number; line: RolloutLine };

/** The meaningful lines of `source`'s first `size` bytes, newest first, within `maxBytes`. */
function* linesBack(source: ByteSource, size: number, maxBytes: number): Generator<Line> {
  for (const line of readLinesBackward(source, size, { maxBytes })) {
    if (line.oversized) continue;
    const text = decoder.decode(line.bytes);
    if (!ROLLOUT_KEYS.some((key) => text.includes(key))) continue;
    const parsed = rolloutLineOf(parseLine(line.bytes));
    if (parsed) yield { start: line.start, line: parsed };
  }
}

/** The view of one call (`query.toolUseId`: its `call_id`), as `viewOf` gives Claude Code's. */
export function rolloutViewOf(raw: ByteSource, size: number, query: ViewQuery): TranscriptView {
  const source = cachedSource(raw);
  const view: TranscriptView = { size, callPresent: false, promptAfterUsage: false, bytesRead: 0 };
  const { toolUseId } = query;
  let newest: TranscriptUsage | undefined;
  let window: number | undefined;
  let model: string | undefined;
  let settled = toolUseId === undefined;
  // Usage lines read, and whether this Codex records a response's usage before the call's hook.
  let usages = 0;
  let records = false;
  for (const { start, line } of linesBack(source, size, query.maxBytes ?? MAX_SCAN_BYTES)) {
    if (line.kind === "compacted") {
      if (!newest) view.markerAfterUsage = start;
      break;
    }
    if (line.kind === "usage" || line.kind === "window") window ??= line.window;
    if (line.kind === "model") model ??= line.model;
    if (line.kind === "usage") {
      usages++;
      records ||= line.record === true;
      if (!newest) {
        newest = {
          tokens: line.tokens,
          toolUseIds: [],
          matched: false,
          offset: start,
          unanswered: [],
        };
      } // An older response: the call was not among the newest one's.
      else settled = true;
    }
    if (line.kind === "call" && line.callId === toolUseId && !settled) {
      // Written before the newest usage: that usage is its response's. After: not yet written.
      if (newest) newest.matched = true;
      settled = true;
    }
    // Unmatched, one more usage line tells whether this Codex writes records (0.171.0: a record
    // precedes each response's count): without them the call's own usage cannot come in time.
    if (newest && settled && window !== undefined && (newest.matched || usages > 1)) break;
  }
  if (newest) {
    newest.model = model;
    if (window !== undefined) newest.window = window;
    view.usage = newest;
    view.callPresent = newest.matched;
  }
  if (toolUseId !== undefined && !view.callPresent && records) view.ownUsageDue = true;
  if (query.markersFrom !== undefined && view.markerAfterUsage === undefined) {
    Object.assign(view, markersSince(source, size, query.markersFrom));
  }
  if (query.receipts) view.receipts = rolloutReceiptsOf(source, size, query.receipts);
  view.bytesRead = source.bytesRead;
  return view;
}

/** The newest `compacted` line at or after `from`, and whether the whole range was read. */
function markersSince(source: ByteSource, size: number, from: number): Partial<TranscriptView> {
  const start = Math.max(from, size - MAX_SCAN_BYTES);
  for (const { start: at, line } of linesBack(source, size, size - start)) {
    if (at < start) break;
    if (line.kind === "compacted") return { markerSince: at, markersChecked: start === from };
  }
  return { markersChecked: start === from };
}

/**
 * Codex's records of this hook's answers back to `from`: an answer's record comes right before
 * its call's output (a SessionStart answer's before no output), and Codex 0.171.0 records every
 * delivered answer, so `records` is true.
 */
export function rolloutReceiptsOf(
  source: ByteSource,
  size: number,
  query: { from: number; calls: readonly string[]; token: string },
): ReceiptEvidence {
  const results: Record<string, number> = {};
  const answers: Record<string, number[]> = {};
  const responses: number[] = [];
  let from = size;
  let nextOutput: string | undefined;
  for (const { start, line } of linesBack(source, size, RECEIPT_MAX_BYTES)) {
    from = Math.max(start, query.from);
    if (start < query.from) break;
    if (line.kind === "output") {
      nextOutput = line.callId;
      if (query.calls.includes(line.callId)) results[line.callId] ??= start;
      continue;
    }
    if (line.kind === "answer") {
      const call = nextOutput ?? SESSION_START;
      const ours = line.texts.some((text) => refreshLabelOf(text, query.token) !== undefined);
      if (ours && query.calls.includes(call)) (answers[call] ??= []).push(start);
      continue;
    }
    if (line.kind === "usage" && responses.length < 2) responses.push(start);
    if (line.kind === "call" || line.kind === "usage") nextOutput = undefined;
  }
  return { from, results, answers, cancelled: [], responses, records: true };
}

/** This hook's refreshes recorded since the newest compaction, as `historyOf` gives them. */
export function rolloutHistoryOf(raw: ByteSource, size: number, token: string) {
  const source = countingSource(raw);
  const refreshed = new Set<number>();
  let marker: number | undefined;
  for (const { start, line } of linesBack(source, size, MAX_SCAN_BYTES)) {
    if (line.kind === "compacted") {
      marker = start;
      break;
    }
    if (line.kind !== "answer") continue;
    for (const text of line.texts) {
      for (const t of parseRefreshHeader(text, token) ?? []) refreshed.add(t);
    }
  }
  const { bytesRead } = source;
  return {
    ...(marker === undefined ? {} : { marker }),
    refreshed: [...refreshed].sort((a, b) => a - b),
    truncated: marker === undefined && bytesRead >= MAX_SCAN_BYTES && size > bytesRead,
    bytesRead,
  };
}
