/**
 * Reads context-size readings and compaction history from a Claude Code transcript, walking
 * backwards from its end so that a call costs the same on a 1 MB and a 1 GB file.
 */
import {
  compactionOf,
  type EntryUsage,
  holdsToolUse,
  isCompactionMarker,
  receiptLineOf,
  refreshRecordedIn,
  tokenUsageIn,
  usageOf,
} from "../core/transcript_entry.ts";
import type { ReceiptEvidence } from "../core/receipts.ts";
import {
  type BackwardLine,
  type ByteSource,
  fileSource,
  readLinesBackward,
} from "./reverse_lines.ts";
import { messageOf } from "../core/errors.ts";
import {
  CANCELLED_ATTACHMENT,
  COMPACT_BOUNDARY_SUBTYPE,
  COMPACTION_MARKER_TEXTS,
  DELIVERED_ATTACHMENT,
} from "../core/claude_code.ts";
import type { CompactionEvidence } from "../core/window.ts";
import { pauseSync } from "./pause.ts";

/** The usage found for this call. */
export interface TranscriptUsage extends EntryUsage {
  /** The entry holds this call's `tool_use` block (else it is the newest main-chain usage). */
  matched: boolean;
  /** Byte offset of the entry. */
  offset: number;
  /** Byte offset just past the entry's line (its newline included). */
  end: number;
  /**
   * Byte offset just past the first entry of the same response (entries sharing its message
   * id), when the scan saw where that response began. A streamed response is written as several
   * entries, and the results of its first tool calls are written between them: everything the
   * next request adds is after this offset, not after `end`.
   */
  firstEnd?: number;
  /** A window stated by the transcript itself (a `Token usage: X/Y` warning). */
  window?: number;
}

export interface UsageScan {
  /** File size when read. */
  size: number;
  usage?: TranscriptUsage;
  /** Offset of a compaction marker newer than any usage: the new context has no reading yet. */
  markerAfterUsage?: number;
  /** The compaction the scan stopped at, when it records its size (window evidence). */
  compaction?: CompactionEvidence;
  /**
   * The entry holding this call's `tool_use` is in the file, even if its usage is all zero (a
   * gateway): waiting longer cannot give a better reading.
   */
  callPresent?: boolean;
  /**
   * A user's prompt was written after the newest usage: a new turn, which may have switched the
   * model (`/model`), so that usage's window says nothing about this call's.
   */
  promptAfterUsage?: boolean;
  /** What the transcript shows about outstanding deliveries, when asked (`UsageQuery.receipts`). */
  receipts?: ReceiptEvidence;
  bytesRead: number;
}

export interface UsageQuery {
  toolUseId?: string | undefined;
  /** The file is a subagent's own transcript, where every entry is a sidechain entry. */
  sidechainFile?: boolean;
  /** Give up after reading this many bytes. Default 64 MiB. */
  maxBytes?: number;
  /** Also read the receipts of these outstanding deliveries, from the same bytes where it can. */
  receipts?: ReceiptQuery | undefined;
}

/** The deliveries to look for (core/receipts.ts receiptQuery), and how their answers are told. */
export interface ReceiptQuery {
  /** Read back to this offset: the oldest outstanding claim. */
  from: number;
  /** The calls whose answers are awaited (`tool_use_id`s, or `SessionStart`). */
  calls: readonly string[];
  /** The token of this context's refresh headers. */
  token: string;
  /** Read at most this many bytes. Default {@link RECEIPT_MAX_BYTES}. */
  maxBytes?: number;
}

/**
 * A receipt check reads at most this much: the bytes written since the oldest outstanding claim,
 * usually a few kilobytes (one call's result, its hooks' records, the next response).
 */
export const RECEIPT_MAX_BYTES = 8 * 1024 * 1024;

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const decoder = new TextDecoder();

/** Counts the bytes a source hands out; `bytesRead` is how tests and the bench see the cost. */
export function countingSource(inner: ByteSource): ByteSource & { bytesRead: number } {
  const counted = {
    bytesRead: 0,
    // A plain arrow, so that the release bundle compiles it eagerly (fileSource's note).
    readAt: (offset: number, length: number) =>
      inner.readAt(offset, length).then((bytes) => {
        counted.bytesRead += bytes.length;
        return bytes;
      }),
  };
  return counted;
}

/** Parses a line, or undefined for invalid UTF-8 noise, partial writes and non-JSON. */
function parseLine(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Finds the usage for this call in `source`: the assistant entry holding `toolUseId`, else the
 * newest counted usage. Stops at the first compaction marker (usage before it describes a context
 * that no longer exists).
 */
export async function scanUsage(
  source: ByteSource,
  size: number,
  query: UsageQuery = {},
): Promise<UsageScan> {
  const counted = countingSource(source);
  // The receipt check walks back over the same last chunks: read from disk once.
  const cached = cachingSource(counted);
  const maxBytes = query.maxBytes ?? DEFAULT_MAX_BYTES;
  const toolUseId = query.toolUseId;
  let newest: TranscriptUsage | undefined;
  let callPresent = false;
  let promptAfterUsage = false;
  // Where the newest response's first entry ends, and whether the scan saw past its start.
  let firstEnd: number | undefined;
  let sawStart = false;
  let lowest = size;
  // A declaration, not an async arrow, so that the release bundle compiles it eagerly.
  async function done(marker?: { start: number; entry: unknown }): Promise<UsageScan> {
    const compaction = marker ? await compactionEvidence(cached, marker) : undefined;
    const scan: UsageScan = { size, bytesRead: 0 };
    if (newest) {
      const known = sawStart || marker !== undefined || lowest === 0;
      scan.usage = known && firstEnd !== undefined ? { ...newest, firstEnd } : newest;
    } else if (marker) scan.markerAfterUsage = marker.start;
    if (compaction) scan.compaction = compaction;
    if (callPresent || newest?.matched) scan.callPresent = true;
    if (promptAfterUsage && !newest?.matched) scan.promptAfterUsage = true;
    if (query.receipts) {
      scan.receipts = await scanReceipts(cached, size, {
        ...query.receipts,
        sidechainFile: query.sidechainFile ?? false,
      });
    }
    scan.bytesRead = counted.bytesRead;
    return scan;
  }
  for await (const line of readLinesBackward(cached, size, { maxBytes })) {
    lowest = line.start;
    const found = interpretForUsage(line, query.sidechainFile ?? false, toolUseId);
    if (found === undefined) continue;
    if ("marker" in found) return await done({ start: line.start, entry: found.marker });
    if ("prompt" in found) {
      if (!newest) promptAfterUsage = true;
      continue;
    }
    if ("zeroCall" in found) {
      // This call's entry, with no usable usage: keep looking back for a reading, never wait.
      if (!newest) callPresent = true;
      continue;
    }
    const matched = toolUseId !== undefined && found.toolUseIds.includes(toolUseId);
    const end = line.start + line.bytes.length + 1;
    if (!newest) {
      newest = { ...found, matched, offset: line.start, end };
      firstEnd = end;
      if (matched || toolUseId === undefined || found.window !== undefined) break;
      continue;
    }
    // One response is split over entries sharing its message id: look through all of them.
    if (found.messageId === undefined || found.messageId !== newest.messageId) {
      sawStart = true;
      break;
    }
    firstEnd = end;
    if (matched) {
      newest = { ...newest, matched: true };
      break;
    }
  }
  return await done();
}

/** Remembers the chunks handed out, so a second backward walk from the same end reads none. */
function cachingSource(inner: ByteSource): ByteSource {
  const chunks = new Map<string, Uint8Array>();
  return {
    // A plain arrow, so that the release bundle compiles it eagerly (fileSource's note).
    readAt: (offset: number, length: number) => {
      const key = `${offset}:${length}`;
      const known = chunks.get(key);
      if (known) return Promise.resolve(known);
      return inner.readAt(offset, length).then((bytes) => {
        chunks.set(key, bytes);
        return bytes;
      });
    },
  };
}

/**
 * Reads back from the end to `query.from` for what tells whether this hook's answers to
 * `query.calls` were delivered (core/receipts.ts judges it): their `tool_result` entries, Claude
 * Code's records of the answers, cancelled hooks, and the newest responses. Parses only lines
 * that can hold one of those.
 */
export async function scanReceipts(
  source: ByteSource,
  size: number,
  query: ReceiptQuery & { sidechainFile?: boolean },
): Promise<ReceiptEvidence> {
  const results: Record<string, number> = {};
  const answers: Record<string, number[]> = {};
  const cancelled: string[] = [];
  const responses: number[] = [];
  let lastMessage: string | undefined;
  let from = size;
  const maxBytes = query.maxBytes ?? RECEIPT_MAX_BYTES;
  const awaited = (call: string) => query.calls.includes(call);
  for await (const line of readLinesBackward(source, size, { maxBytes })) {
    if (line.start < query.from) {
      from = query.from;
      break;
    }
    from = line.start;
    if (line.oversized) continue;
    const text = decoder.decode(line.bytes);
    const mayAnswer = text.includes(DELIVERED_ATTACHMENT) && text.includes(query.token);
    const mayCancel = text.includes(CANCELLED_ATTACHMENT);
    const mayResult = text.includes('"tool_result"') && query.calls.some((c) => text.includes(c));
    const mayRespond = responses.length < 2 && text.includes('"assistant"') &&
      text.includes('"usage"');
    if (!mayAnswer && !mayCancel && !mayResult && !mayRespond) continue;
    const found = receiptLineOf(parseLine(text), query.token, query.sidechainFile ?? false);
    if (found === undefined) continue;
    if (found.kind === "answer" && awaited(found.call)) {
      (answers[found.call] ??= []).push(line.start);
    } else if (found.kind === "cancelled" && awaited(found.call)) {
      cancelled.push(found.call);
    } else if (found.kind === "result") {
      for (const call of found.calls) if (awaited(call)) results[call] ??= line.start;
    } else if (found.kind === "response" && responses.length < 2) {
      // One response may be split over entries sharing its message id: count it once.
      if (
        responses.length === 0 || found.messageId === undefined || found.messageId !== lastMessage
      ) {
        responses.push(line.start);
        lastMessage = found.messageId;
      }
    }
  }
  return { from, results, answers, cancelled, responses };
}

/**
 * Lines before a summary entry in which its `compact_boundary` is looked for: 1 to 3 apart in every
 * transcript read (2.1.112, 2.1.185: the line before; 2.1.328: 3 before an auto-compaction's).
 */
const PAIR_LINES = 8;

/** How far before a compaction marker to look for its boundary and the last usage it compacted. */
const LOOK_BEHIND_BYTES = 1024 * 1024;

/**
 * What the compaction whose marker sits at `marker` proves: its boundary's trigger and size (2.x
 * writes the `compact_boundary` and then the summary entry, so a scan walking back meets the
 * summary first and finds the boundary on the line before it), and the model and version of the
 * compacted context's last usage, which that size speaks for. Undefined for a marker with no
 * boundary (1.0.x writes only the summary).
 */
async function compactionEvidence(
  source: ByteSource,
  marker: { start: number; entry: unknown },
): Promise<CompactionEvidence | undefined> {
  let boundary = compactionOf(marker.entry);
  let looked = 0;
  for await (
    const line of readLinesBackward(source, marker.start, { maxBytes: LOOK_BEHIND_BYTES })
  ) {
    if (boundary === undefined) {
      // 2.1.328 writes attachments between the two (an auto-compaction's boundary sat 3 lines
      // before its summary): look a few lines back, then give up.
      if (++looked > PAIR_LINES) return undefined;
      if (line.oversized) continue;
      const text = decoder.decode(line.bytes);
      if (text.includes(COMPACT_BOUNDARY_SUBTYPE)) boundary = compactionOf(parseLine(text));
      continue;
    }
    if (line.oversized) continue;
    const text = decoder.decode(line.bytes);
    if (!text.includes('"assistant"') || !text.includes('"usage"')) continue;
    // Sidechain entries too: a subagent's own file is all sidechain, and a main transcript of 2.x
    // has none.
    const usage = usageOf(parseLine(text), true);
    if (usage) return { ...boundary!, model: usage.model, version: usage.version };
  }
  return boundary;
}

function interpretForUsage(
  line: BackwardLine,
  sidechainFile: boolean,
  toolUseId: string | undefined,
):
  | { marker: unknown }
  | { zeroCall: true }
  | { prompt: true }
  | (EntryUsage & { window?: number })
  | undefined {
  if (line.oversized) return undefined;
  const text = decoder.decode(line.bytes);
  const mayBeMarker = COMPACTION_MARKER_TEXTS.some((marker) => text.includes(marker));
  const mayBeUsage = text.includes('"assistant"') && text.includes('"usage"');
  const warning = text.includes("Token usage:") ? tokenUsageIn(text) : undefined;
  if (!mayBeMarker && !mayBeUsage && !warning) {
    // A user entry that is not a tool's result: a prompt, a new turn. Judged on the text alone
    // (a rare false one only makes the call wait for its entry).
    return text.includes('"type":"user"') && !text.includes('"tool_result"')
      ? { prompt: true }
      : undefined;
  }
  const entry = parseLine(text);
  if (mayBeMarker && isCompactionMarker(entry)) return { marker: entry };
  if (warning) {
    return {
      tokens: warning.used,
      window: warning.window,
      model: undefined,
      messageId: undefined,
      toolUseIds: [],
      timestamp: undefined,
    };
  }
  if (!mayBeUsage) return undefined;
  const usage = usageOf(entry, sidechainFile);
  if (usage) return usage;
  return toolUseId !== undefined && text.includes(toolUseId) && holdsToolUse(entry, toolUseId)
    ? { zeroCall: true }
    : undefined;
}

export interface HistoryScan {
  /** Offset of the newest compaction marker at or after `stopBelow`, if one was found. */
  marker?: number;
  /** That marker's trigger and size, when it records them (window evidence). */
  compaction?: CompactionEvidence;
  /** Thresholds named by this hook's own refreshes since that marker (or `stopBelow`). */
  refreshed: number[];
  /** The scan ran out of byte budget before reaching a marker or `stopBelow`. */
  truncated: boolean;
  bytesRead: number;
}

export interface HistoryQuery {
  /** Stop at lines starting before this offset. Default 0 (the whole file). */
  stopBelow?: number;
  /** When set, collect the thresholds of refreshes whose header carries this token. */
  token?: string;
  /**
   * Look only at the entry with this `uuid` and what precedes it (a fork's parent up to the fork
   * point): later lines, compaction markers included, are passed over. When no entry has it,
   * nothing is collected.
   */
  upToUuid?: string;
  maxBytes?: number;
}

/**
 * Walks back from the end to the newest compaction marker (or `stopBelow`), collecting this
 * hook's earlier refreshes. Used when the state file is gone, and to notice a compaction that no
 * SessionStart or PostCompact event reported.
 */
export async function scanHistory(
  source: ByteSource,
  size: number,
  query: HistoryQuery = {},
): Promise<HistoryScan> {
  const counted = countingSource(source);
  const maxBytes = query.maxBytes ?? DEFAULT_MAX_BYTES;
  const stopBelow = query.stopBelow ?? 0;
  if (query.token === undefined && query.upToUuid === undefined && size - stopBelow <= maxBytes) {
    // Looking only for a marker, as every call after a threshold fired does: a search of the
    // range in native code, where walking it line by line runs as cold script in every process
    // (35 M instructions on a measured call of a real session). Nothing there, nothing to walk.
    if (!await mayHoldMarker(counted, stopBelow, size)) {
      return { refreshed: [], truncated: false, bytesRead: counted.bytesRead };
    }
  }
  const refreshed = new Set<number>();
  const upTo = query.upToUuid;
  let reached = upTo === undefined;
  for await (const line of readLinesBackward(counted, size, { maxBytes })) {
    if (line.start < stopBelow) break;
    if (line.oversized) continue;
    const text = decoder.decode(line.bytes);
    if (!reached) {
      if (!text.includes(upTo!)) continue;
      const entry = parseLine(text);
      if (typeof entry !== "object" || entry === null || !("uuid" in entry)) continue;
      if (entry.uuid !== upTo) continue;
      reached = true;
    }
    const mayBeMarker = COMPACTION_MARKER_TEXTS.some((marker) => text.includes(marker));
    const mayBeRefresh = query.token !== undefined && text.includes("hook_additional_context") &&
      text.includes(query.token);
    if (!mayBeMarker && !mayBeRefresh) continue;
    const entry = parseLine(text);
    if (mayBeMarker && isCompactionMarker(entry)) {
      const compaction = await compactionEvidence(counted, { start: line.start, entry });
      return {
        marker: line.start,
        ...(compaction ? { compaction } : {}),
        refreshed: sorted(refreshed),
        truncated: false,
        bytesRead: counted.bytesRead,
      };
    }
    if (mayBeRefresh && query.token !== undefined) {
      for (const t of refreshRecordedIn(entry, query.token) ?? []) refreshed.add(t);
    }
  }
  // Stopped by the byte budget before the start of the file (or of the range asked for)?
  const truncated = counted.bytesRead >= maxBytes && size - counted.bytesRead > stopBelow;
  if (!reached) return { refreshed: [], truncated, bytesRead: counted.bytesRead };
  return { refreshed: sorted(refreshed), truncated, bytesRead: counted.bytesRead };
}

/** Bytes searched at a time for a marker's text, so a long range never sits in memory whole. */
export const MARKER_SEARCH_CHUNK = 1024 * 1024;

/** The longest marker text less one: the overlap that finds a text split between two pieces. */
const MARKER_OVERLAP = Math.max(...COMPACTION_MARKER_TEXTS.map((text) => text.length)) - 1;

/**
 * True when a compaction marker's text occurs in bytes `from` to `to`: a line there may be a
 * marker. Decoded a piece at a time (the texts are ASCII, so a character split between pieces
 * cannot hide one), each piece overlapping the one before by the longest text less one.
 */
async function mayHoldMarker(source: ByteSource, from: number, to: number): Promise<boolean> {
  for (let at = from; at < to; at += MARKER_SEARCH_CHUNK) {
    const start = Math.max(from, at - MARKER_OVERLAP);
    const end = Math.min(to, at + MARKER_SEARCH_CHUNK);
    const text = decoder.decode(await source.readAt(start, end - start));
    if (COMPACTION_MARKER_TEXTS.some((marker) => text.includes(marker))) return true;
  }
  return false;
}

function sorted(values: Set<number>): number[] {
  return [...values].sort((a, b) => a - b);
}

/**
 * Opens `path` and runs `scan` on it. Missing, unreadable or non-file paths become an error
 * string; the hook degrades to its next source instead of throwing.
 */
export async function withTranscript<T>(
  path: string,
  scan: (source: ByteSource, size: number) => Promise<T>,
): Promise<T | { error: string; missing?: boolean }> {
  let file: Deno.FsFile | undefined;
  try {
    // Sync: each async op hops to a worker thread, which a 20 ms process feels.
    file = Deno.openSync(path, { read: true });
    const info = file.statSync();
    if (!info.isFile) return { error: `transcript ${path} is not a file` };
    return await scan(fileSource(file), info.size);
  } catch (error) {
    const missing = error instanceof Deno.errors.NotFound;
    return { error: `transcript ${path}: ${messageOf(error)}`, ...(missing ? { missing } : {}) };
  } finally {
    file?.close();
  }
}

/** The size of the transcript at `path`, or undefined when it cannot be read. */
export function transcriptSize(path: string | undefined): number | undefined {
  if (path === undefined) return undefined;
  try {
    return Deno.statSync(path).size;
  } catch {
    return undefined;
  }
}

export interface WaitOptions {
  /** How long to wait for this call's entry to appear. Default 250 ms. */
  waitMs?: number;
  /** Pause between reads while waiting. Default 10 ms. */
  pollMs?: number;
  /** True when this scan already decides the call, so its own entry need not be waited for. */
  enough?: (scan: UsageScan) => boolean;
}

/**
 * Reads the usage for this call, waiting up to `waitMs` for the entry holding `toolUseId`,
 * because Claude Code writes the transcript asynchronously (measured lag 10-15 ms, 1 call in 4).
 * After the wait, the newest usage is used.
 */
export async function readUsageWaiting(
  path: string,
  query: UsageQuery,
  options: WaitOptions = {},
): Promise<UsageScan | { error: string }> {
  const deadline = performance.now() + (options.waitMs ?? 250);
  const pollMs = options.pollMs ?? 10;
  while (true) {
    const scan = await withTranscript(path, (source, size) => scanUsage(source, size, query));
    // A marker newer than any usage does not settle it: this call's own entry, written after the
    // boundary, may still be on its way (seen in the e2e /compact scenario under load: the call
    // read "no reading", and the new context's first reading came one call late).
    // A subagent's own file is created asynchronously too: its first call may start before it
    // exists (seen in the e2e subagent scenario), so a missing one is waited for like an entry.
    const settled = "error" in scan
      ? !(scan.missing === true && query.sidechainFile === true)
      : scan.usage?.matched === true || scan.callPresent === true ||
        scan.usage?.window !== undefined || query.toolUseId === undefined ||
        options.enough?.(scan) === true;
    if (settled || performance.now() + pollMs > deadline) return scan;
    pauseSync(pollMs);
  }
}
