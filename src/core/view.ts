/** What one read of a transcript showed: the newest usage, compaction markers, receipts. */
import { type ChainFacts, chainTips as chainTipsOf } from "./chains.ts";
import { markersFrom } from "./facts.ts";
import { type ReceiptEvidence, receiptQuery } from "./receipts.ts";
import type { EntryUsage } from "./transcript_entry.ts";
import type { CompactionEvidence } from "./window.ts";
import type { State } from "../schemas/state.ts";

export interface TranscriptUsage extends EntryUsage {
  /** The entry holds this call's `tool_use`. */
  matched: boolean;
  offset: number;
  /** Just past the response's first entry (it may stream as several): what comes next is after. */
  firstEnd?: number;
  /** A ToolSearch call or result since its first entry: deferred schemas no byte shows load. */
  loadsTools?: boolean;
  /** The response's `tool_use`s whose `tool_result` is not in the file yet. */
  unanswered: string[];
  /** A window the transcript states (a `Token usage: X/Y` warning), and how, when not so. */
  window?: number;
  windowSource?: string;
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
  compaction?: CompactionEvidence;
  /** The last usage before a marker newer than any usage: the context that was compacted. */
  compactedUsage?: EntryUsage;
  /** This call's entry is in the file, even if its usage gives no reading (a gateway). */
  callPresent: boolean;
  /** This call's response is not recorded yet (a Codex rollout): worth waiting for. */
  ownUsageDue?: boolean;
  /** A prompt was written after the newest usage: a new turn, perhaps on another model. */
  promptAfterUsage: boolean;
  receipts?: ReceiptEvidence;
  /** This call's entry, and the chain tip its walk back met (io/chain_walk.ts). */
  chain?: ChainFacts;
  bytesRead: number;
}

export interface ViewQuery {
  toolUseId?: string | undefined;
  /** Every entry is a subagent's (its own transcript). */
  sidechainFile: boolean;
  markersFrom?: number | undefined;
  /** Read at most this many bytes for the usage (default 64 MiB). */
  maxBytes?: number;
  /** Outstanding deliveries: read back to `from` for their records. */
  receipts?: { from: number; calls: readonly string[]; token: string } | undefined;
  /** Chain tips and their responses' ids: the call's walk back stops at the first it meets. */
  chainTips?: readonly string[];
}

/** What the call `toolUseId` looks for in its context's transcript. */
export function viewQuery(
  state: State,
  token: string,
  toolUseId: string | undefined,
  sidechainFile: boolean,
): ViewQuery {
  const outstanding = receiptQuery(state);
  const receipts = outstanding && { ...outstanding, token };
  const chainTips = chainTipsOf(state);
  return { toolUseId, sidechainFile, markersFrom: markersFrom(state), receipts, chainTips };
}
