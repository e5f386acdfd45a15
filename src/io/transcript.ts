/** What a transcript shows one tool call, read backwards from its end: usage, markers, receipts. */
import {
  chainLinkOf,
  compactionOf,
  type EntryUsage,
  holdsToolUse,
  isCompactionMarker,
  mayBeUsage,
  parseLine,
  refreshRecordedIn,
  tokenUsageIn,
  usageOf,
} from "../core/transcript_entry.ts";
import type { TranscriptUsage, TranscriptView, ViewQuery } from "../core/view.ts";
import type { CompactionEvidence } from "../core/window.ts";
import { COMPACTION_MARKER_TEXTS, DELIVERED_ATTACHMENT, TOOL_SEARCH } from "../core/claude_code.ts";
import { messageOf } from "../core/errors.ts";
import { fail, type Failure } from "../core/result.ts";
import { fieldOf } from "../schemas/guards.ts";
import { chainFrom } from "./chain_walk.ts";
import { receiptsOf } from "./receipts_scan.ts";
import {
  type ByteSource,
  cachedSource,
  countingSource,
  fileSource,
  readLinesBackward,
} from "./reverse_lines.ts";

/** The usage scan, the marker search and the history walk read at most this much. */
const MAX_SCAN_BYTES = 64 * 1024 * 1024;
const SEARCH_CHUNK = 1024 * 1024;
/** Lines before a summary entry in which its `compact_boundary` is looked for. */
const PAIR_LINES = 8;

const decoder = new TextDecoder();
const mayMark = (text: string) => COMPACTION_MARKER_TEXTS.some((marker) => text.includes(marker));

/** A command's transcripts, kept open: it reads one in several steps, opening it once. */
let kept: Map<string, Deno.FsFile> | undefined;

/** From now on this process opens each transcript once (the commands: not the hook's call). */
export function keepTranscriptsOpen(): void {
  kept ??= new Map();
}

/** Opens `path` and runs `read` on it; a missing or unreadable file is the reason there is none. */
export function withTranscript<T>(
  path: string,
  read: (source: ByteSource, size: number) => T,
): T | Failure {
  let file = kept?.get(path);
  try {
    file ??= Deno.openSync(path);
    kept?.set(path, file);
    // Stated afresh on every read: the file grows while a session runs.
    const { isFile, size } = file.statSync();
    return isFile ? read(fileSource(file), size) : fail(`transcript ${path} is not a file`);
  } catch (error) {
    const missing = error instanceof Deno.errors.NotFound;
    return fail(`transcript ${path}: ${messageOf(error)}`, missing ? "missing" : "invalid");
  } finally {
    if (!kept) file?.close();
  }
}

/**
 * The newest usage (through every entry of its response), read back to a compaction marker at
 * most; then, as asked, the markers since `markersFrom` and the receipts, from the same chunks.
 */
export function viewOf(raw: ByteSource, size: number, query: ViewQuery): TranscriptView {
  const source = cachedSource(raw);
  const view: TranscriptView = { size, callPresent: false, promptAfterUsage: false, bytesRead: 0 };
  const { toolUseId, sidechainFile } = query;
  const results = new Set<string>();
  let newest: TranscriptUsage | undefined;
  let sawStart = false;
  let lowest = size;
  let marker: number | undefined;
  let searched: number | undefined;
  // This call's own entry, where the walk along its chain starts.
  let own: { link: ReturnType<typeof chainLinkOf>; at: number } | undefined;
  for (
    const line of readLinesBackward(source, size, { maxBytes: query.maxBytes ?? MAX_SCAN_BYTES })
  ) {
    lowest = line.start;
    if (line.oversized) continue;
    const text = decoder.decode(line.bytes);
    searched ??= TOOL_SEARCH.test(text) ? line.start + line.bytes.length + 1 : undefined;
    // Results written since the newest response began (the walk stops before it).
    const result = text.includes('"tool_result"');
    if (result) { for (const m of text.matchAll(/"tool_use_id":"([^"]+)"/g)) results.add(m[1]!); }
    const marks = mayMark(text);
    const warning = text.includes("Token usage:") ? tokenUsageIn(text) : undefined;
    if (!marks && !mayBeUsage(text) && !warning) {
      if (!newest && !result && text.includes('"type":"user"')) view.promptAfterUsage = true;
      continue;
    }
    const entry = parseLine(line.bytes);
    if (marks && isCompactionMarker(entry)) {
      marker = line.start;
      if (!newest) view.markerAfterUsage = line.start;
      const { compaction, last } = compactionEvidence(source, line.start, entry);
      if (compaction) view.compaction = compaction;
      if (last && !newest) view.compactedUsage = last;
      break;
    }
    const usage: EntryUsage | undefined = warning
      ? { tokens: warning.used, toolUseIds: [] }
      : usageOf(entry, sidechainFile);
    if (!usage) {
      if (!newest && toolUseId && text.includes(toolUseId) && holdsToolUse(entry, toolUseId)) {
        view.callPresent = true;
      }
      continue;
    }
    const matched = toolUseId !== undefined && usage.toolUseIds.includes(toolUseId);
    if (matched) own = { link: chainLinkOf(entry), at: line.start };
    const end = line.start + line.bytes.length + 1;
    if (!newest) {
      newest = { ...usage, matched, offset: line.start, firstEnd: end, unanswered: [] };
      if (warning) newest.window = warning.window;
      if (matched || toolUseId === undefined || warning) break;
      continue;
    }
    // One response is split over entries sharing its message id: look through all of them.
    if (usage.messageId === undefined || usage.messageId !== newest.messageId) {
      sawStart = true;
      break;
    }
    newest = { ...newest, firstEnd: end, toolUseIds: [...usage.toolUseIds, ...newest.toolUseIds] };
    if (matched) {
      newest.matched = true;
      break;
    }
  }
  if (newest) {
    if (!(sawStart || marker !== undefined || lowest === 0)) delete newest.firstEnd;
    newest.unanswered = newest.toolUseIds.filter((id) => !results.has(id));
    // The schemas a ToolSearch since the response began loads reach the next request, not the file.
    if ((searched ?? -1) >= (newest.firstEnd ?? Infinity)) newest.loadsTools = true;
    if (newest.matched) view.promptAfterUsage = false;
    view.usage = newest;
    view.callPresent ||= newest.matched;
  }
  if (query.markersFrom !== undefined && view.markerAfterUsage === undefined) {
    Object.assign(view, markersSince(source, size, query.markersFrom));
  }
  if (own?.link && query.chainTips) {
    view.chain = chainFrom(source, size, own.at, own.link, new Set(query.chainTips));
  }
  if (query.receipts) {
    view.receipts = receiptsOf(source, size, { ...query.receipts, sidechainFile });
  }
  view.bytesRead = source.bytesRead;
  return view;
}

/** The longest marker text: chunks overlap by one less, so a text across two is not missed. */
const MARKER_LENGTH = Math.max(...COMPACTION_MARKER_TEXTS.map((text) => text.length));

/** The newest marker in `from`..`size`: a text search first, a walk back only on a hit. */
function markersSince(source: ByteSource, size: number, from: number): Partial<TranscriptView> {
  const start = Math.max(from, size - MAX_SCAN_BYTES);
  const markersChecked = start === from;
  let found = false;
  for (let at = start; at < size && !found; at += SEARCH_CHUNK) {
    const lo = Math.max(start, at - MARKER_LENGTH + 1);
    // Searched natively: a JavaScript byte loop costs a cold process its compiling.
    found = mayMark(decoder.decode(source.readAt(lo, Math.min(size, at + SEARCH_CHUNK) - lo)));
  }
  if (!found) return { markersChecked };
  for (const line of readLinesBackward(source, size, { maxBytes: size - start })) {
    if (line.start < start) break;
    if (line.oversized || !mayMark(decoder.decode(line.bytes))) continue;
    const entry = parseLine(line.bytes);
    if (!isCompactionMarker(entry)) continue;
    const { compaction } = compactionEvidence(source, line.start, entry);
    return { markerSince: line.start, markersChecked, ...(compaction ? { compaction } : {}) };
  }
  return { markersChecked };
}

/** The compaction marked at `at` (2.x: its boundary a few lines up; 1.0.x none), its last usage. */
function compactionEvidence(
  source: ByteSource,
  at: number,
  entry: unknown,
): { compaction?: CompactionEvidence; last?: EntryUsage } {
  let boundary = compactionOf(entry);
  let looked = 0;
  for (const line of readLinesBackward(source, at, { maxBytes: 1024 * 1024 })) {
    if (line.oversized) continue;
    const text = decoder.decode(line.bytes);
    if (boundary === undefined && ++looked <= PAIR_LINES && text.includes("compact_boundary")) {
      boundary = compactionOf(parseLine(line.bytes));
      continue;
    }
    if (!mayBeUsage(text)) continue;
    // Sidechain entries too: a subagent's own file is all sidechain.
    const last = usageOf(parseLine(line.bytes), true);
    if (!last) continue;
    return boundary
      ? { compaction: { ...boundary, model: last.model, version: last.version }, last }
      : { last };
  }
  return boundary ? { compaction: boundary } : {};
}

/** `refreshed`: thresholds of this hook's refreshes since `marker`; `truncated`: out of bytes. */
interface History {
  marker?: number;
  refreshed: number[];
  truncated: boolean;
  bytesRead: number;
}

/**
 * Walks back through the first `size` bytes to the newest compaction marker, collecting this
 * hook's refreshes (headers carrying `token`). With `upToUuid`, only that entry and what precedes
 * it count (a fork's parent up to the fork point); none when no entry has it.
 */
export function historyOf(
  raw: ByteSource,
  size: number,
  token: string,
  upToUuid?: string,
  maxBytes = MAX_SCAN_BYTES,
): History {
  // One pass back over up to 64 MiB: a cache would hold every chunk until the end.
  const source = countingSource(raw);
  const refreshed = new Set<number>();
  let reached = upToUuid === undefined;
  let marker: number | undefined;
  for (const line of readLinesBackward(source, size, { maxBytes })) {
    if (line.oversized) continue;
    const text = decoder.decode(line.bytes);
    if (!reached) {
      if (!text.includes(upToUuid!) || fieldOf(parseLine(line.bytes), "uuid") !== upToUuid) {
        continue;
      }
      reached = true;
    }
    const marks = mayMark(text);
    if (!marks && !(text.includes(DELIVERED_ATTACHMENT) && text.includes(token))) continue;
    const entry = parseLine(line.bytes);
    if (marks && isCompactionMarker(entry)) {
      marker = line.start;
      break;
    }
    for (const t of refreshRecordedIn(entry, token) ?? []) refreshed.add(t);
  }
  const { bytesRead } = source;
  return {
    ...(marker === undefined ? {} : { marker }),
    refreshed: reached ? [...refreshed].sort((a, b) => a - b) : [],
    truncated: marker === undefined && bytesRead >= maxBytes && size > bytesRead,
    bytesRead,
  };
}
