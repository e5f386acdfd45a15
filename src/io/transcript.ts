/**
 * Reads context-size readings and compaction history from a Claude Code transcript, walking
 * backwards from its end so that a call costs the same on a 1 MB and a 1 GB file.
 */
import {
  compactionOf,
  type EntryUsage,
  holdsToolUse,
  isCompactionMarker,
  refreshRecordedIn,
  tokenUsageIn,
  usageOf,
} from "../core/transcript_entry.ts";
import {
  type BackwardLine,
  type ByteSource,
  fileSource,
  readLinesBackward,
} from "./reverse_lines.ts";
import { messageOf } from "../core/errors.ts";
import { COMPACTION_MARKER_TEXTS } from "../core/claude_code.ts";

/** The usage found for this call. */
export interface TranscriptUsage extends EntryUsage {
  /** The entry holds this call's `tool_use` block (else it is the newest main-chain usage). */
  matched: boolean;
  /** Byte offset of the entry. */
  offset: number;
  /** Byte offset just past the entry's line (its newline included). */
  end: number;
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
  compaction?: { trigger: string | undefined; preTokens: number };
  /**
   * The entry holding this call's `tool_use` is in the file, even if its usage is all zero (a
   * gateway): waiting longer cannot give a better reading.
   */
  callPresent?: boolean;
  bytesRead: number;
}

export interface UsageQuery {
  toolUseId?: string | undefined;
  /** The file is a subagent's own transcript, where every entry is a sidechain entry. */
  sidechainFile?: boolean;
  /** Give up after reading this many bytes. Default 64 MiB. */
  maxBytes?: number;
}

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
  const maxBytes = query.maxBytes ?? DEFAULT_MAX_BYTES;
  const toolUseId = query.toolUseId;
  let newest: TranscriptUsage | undefined;
  let callPresent = false;
  const done = (marker?: { start: number; entry: unknown }): UsageScan => {
    const scan: UsageScan = { size, bytesRead: counted.bytesRead };
    if (newest) scan.usage = newest;
    else if (marker) scan.markerAfterUsage = marker.start;
    const compaction = marker ? compactionOf(marker.entry) : undefined;
    if (compaction) scan.compaction = compaction;
    if (callPresent || newest?.matched) scan.callPresent = true;
    return scan;
  };
  for await (const line of readLinesBackward(counted, size, { maxBytes })) {
    const found = interpretForUsage(line, query.sidechainFile ?? false, toolUseId);
    if (found === undefined) continue;
    if ("marker" in found) return done({ start: line.start, entry: found.marker });
    if ("zeroCall" in found) {
      // This call's entry, with no usable usage: keep looking back for a reading, never wait.
      if (!newest) callPresent = true;
      continue;
    }
    const matched = toolUseId !== undefined && found.toolUseIds.includes(toolUseId);
    if (!newest) {
      newest = { ...found, matched, offset: line.start, end: line.start + line.bytes.length + 1 };
      if (matched || toolUseId === undefined || found.window !== undefined) break;
      continue;
    }
    // One response is split over entries sharing its message id: look through all of them.
    if (found.messageId === undefined || found.messageId !== newest.messageId) break;
    if (matched) {
      newest = { ...newest, matched: true };
      break;
    }
  }
  return done();
}

function interpretForUsage(
  line: BackwardLine,
  sidechainFile: boolean,
  toolUseId: string | undefined,
): { marker: unknown } | { zeroCall: true } | (EntryUsage & { window?: number }) | undefined {
  if (line.oversized) return undefined;
  const text = decoder.decode(line.bytes);
  const mayBeMarker = COMPACTION_MARKER_TEXTS.some((marker) => text.includes(marker));
  const mayBeUsage = text.includes('"assistant"') && text.includes('"usage"');
  const warning = text.includes("Token usage:") ? tokenUsageIn(text) : undefined;
  if (!mayBeMarker && !mayBeUsage && !warning) return undefined;
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
  compaction?: { trigger: string | undefined; preTokens: number };
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
  const refreshed = new Set<number>();
  for await (const line of readLinesBackward(counted, size, { maxBytes })) {
    if (line.start < stopBelow) break;
    if (line.oversized) continue;
    const text = decoder.decode(line.bytes);
    const mayBeMarker = COMPACTION_MARKER_TEXTS.some((marker) => text.includes(marker));
    const mayBeRefresh = query.token !== undefined && text.includes("hook_additional_context") &&
      text.includes(query.token);
    if (!mayBeMarker && !mayBeRefresh) continue;
    const entry = parseLine(text);
    if (mayBeMarker && isCompactionMarker(entry)) {
      const compaction = compactionOf(entry);
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
  return { refreshed: sorted(refreshed), truncated, bytesRead: counted.bytesRead };
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

export interface WaitOptions {
  /** How long to wait for this call's entry to appear. Default 250 ms. */
  waitMs?: number;
  /** Pause between reads while waiting. Default 20 ms. */
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
  const pollMs = options.pollMs ?? 20;
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
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
