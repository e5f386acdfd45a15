/**
 * What one read of a transcript showed a tool call (io/transcript.ts reads it): the newest usage,
 * the compaction markers that end a context, and the records of this hook's answers.
 */
import { markersFrom } from "./facts.ts";
import { type ReceiptEvidence, receiptQuery } from "./receipts.ts";
import type { EntryUsage } from "./transcript_entry.ts";
import type { CompactionEvidence } from "./window.ts";
import type { State } from "../schemas/state.ts";

/** The newest counted usage, and where it sits. */
export interface TranscriptUsage extends EntryUsage {
  /** The entry holds this call's `tool_use` (else it is an earlier response's). */
  matched: boolean;
  offset: number;
  /**
   * Just past the first entry of the same response, when the read saw where that response began:
   * a streamed response is several entries with its first results between them, so everything
   * the next request adds is after this offset.
   */
  firstEnd?: number;
  /** The `tool_use`s of that response whose `tool_result` is not in the file yet. */
  unanswered: string[];
  /** A window the transcript states itself (a `Token usage: X/Y` warning). */
  window?: number;
}

export interface TranscriptView {
  size: number;
  usage?: TranscriptUsage;
  /** A compaction marker newer than any usage: the new context has no reading yet. */
  markerAfterUsage?: number;
  /** The newest marker at or after `ViewQuery.markersFrom`. */
  markerSince?: number;
  /** The whole range from `markersFrom` was searched (it was not too long). */
  markersChecked?: boolean;
  /** What the newest marker records: its trigger and size, and what it compacted. */
  compaction?: CompactionEvidence;
  /** The last usage before a marker newer than any usage: the context that was compacted. */
  compactedUsage?: EntryUsage;
  /** This call's entry is in the file, even if its usage gives no reading (a gateway). */
  callPresent: boolean;
  /** A prompt was written after the newest usage: a new turn, perhaps on another model. */
  promptAfterUsage: boolean;
  receipts?: ReceiptEvidence;
  bytesRead: number;
}

export interface ViewQuery {
  toolUseId?: string | undefined;
  /** Every entry is a subagent's (its own transcript). */
  sidechainFile: boolean;
  /** Look for a compaction marker from this offset on (set once a threshold has fired). */
  markersFrom?: number | undefined;
  /** Read at most this many bytes for the usage (default 64 MiB). */
  maxBytes?: number;
  /** Outstanding deliveries: read back to `from` for their records. */
  receipts?: { from: number; calls: readonly string[]; token: string } | undefined;
}

/** What the call `toolUseId` of the context whose state is `state` looks for. */
export function viewQuery(
  state: State,
  token: string,
  toolUseId: string | undefined,
  sidechainFile: boolean,
): ViewQuery {
  const outstanding = receiptQuery(state);
  const receipts = outstanding && { ...outstanding, token };
  return { toolUseId, sidechainFile, markersFrom: markersFrom(state), receipts };
}
