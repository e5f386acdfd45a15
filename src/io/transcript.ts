/** What a transcript shows one tool call, read backwards from its end: usage, markers, receipts. */
import {
  chainLinkOf,
  compactionOf,
  type EntryUsage,
  holdsToolUse,
  isCompactionMarker,
  mayBeUsage,
  parseLine,
  recordLineOf,
  tokenUsageIn,
  usageOf,
} from "../core/transcript_entry.ts";
import type { TranscriptUsage, TranscriptView, ViewQuery } from "../core/view.ts";
import { type CompactionEvidence, compareVersions } from "../core/window.ts";
import {
  CANCELLED_ATTACHMENT,
  COMPACTION_MARKER_TEXTS,
  DELIVERED_ATTACHMENT,
  RAN_ATTACHMENT,
  RECORDS_HOOK_OUTCOMES_FROM,
  RECORDS_IN_SUBAGENT_FILES_FROM,
  SESSION_START,
  TOOL_SEARCH,
} from "../core/claude_code.ts";
import { messageOf } from "../core/errors.ts";
import { fail, type Failure } from "../core/result.ts";
import { fieldOf } from "../schemas/guards.ts";
import { chainFrom } from "./chain_walk.ts";
import { type ByteSource, cachedSource, fileSource, readLinesBackward } from "./reverse_lines.ts";
import { hostLines, MAX_SCAN_BYTES, type ReceiptQuery } from "./host_lines.ts";

/** Lines before a summary entry in which its `compact_boundary` is looked for. */
const PAIR_LINES = 8;

const decoder = new TextDecoder();

/** Claude Code's lines as the walks shared with the other hosts read them. */
const lines = hostLines({
  keys: [...COMPACTION_MARKER_TEXTS, DELIVERED_ATTACHMENT],
  markers: COMPACTION_MARKER_TEXTS,
  lineOf: recordLineOf,
  answersOf: (line) => line.kind === "answer" ? line.texts : [],
  compactionAt: (source, at, line) =>
    line.kind === "compacted"
      ? compactionEvidence(source, at, line.boundary).compaction
      : undefined,
});

/**
 * Walks back through the first `size` bytes to the newest compaction marker, collecting this
 * hook's refreshes (headers carrying `token`); `truncated`: out of bytes.
 */
export const historyOf = lines.historyOf;

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
    const marks = lines.marks(text);
    const warning = text.includes("Token usage:") ? tokenUsageIn(text) : undefined;
    if (!marks && !mayBeUsage(text) && !warning) {
      if (!newest && !result && text.includes('"type":"user"')) view.promptAfterUsage = true;
      continue;
    }
    const entry = parseLine(line.bytes);
    if (marks && isCompactionMarker(entry)) {
      marker = line.start;
      if (!newest) view.markerAfterUsage = line.start;
      const { compaction, last } = compactionEvidence(source, line.start, compactionOf(entry));
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
  if (own?.link && query.chainTips) {
    view.chain = chainFrom(source, size, own.at, own.link, new Set(query.chainTips));
  }
  const receipts = (source: ByteSource, size: number, asked: ReceiptQuery) =>
    receiptsOf(source, size, asked, sidechainFile);
  return lines.finishView(view, source, query, receipts);
}

/**
 * Claude Code's records of this hook's answers back to `query.from`, parsing only lines that can
 * hold a record of `query.calls`; whether this release records them at all (core/claude_code.ts).
 */
function receiptsOf(source: ByteSource, size: number, query: ReceiptQuery, sidechainFile: boolean) {
  const { calls, token } = query;
  let newestVersion: string | undefined;
  let lastMessage: string | undefined;
  let responses = 0;
  const evidence = lines.receiptsBack(source, size, query, (line, finds) => {
    if (line.sidechain && !sidechainFile) return;
    if (line.kind === "answer" && line.call !== undefined) finds.answer(line.call, line.texts);
    else if (line.kind === "cancelled") finds.cancelled(line.call);
    else if (line.kind === "ran") {
      finds.ran(line.call);
      // SessionStart's record carries an id of its own, not the call's.
      if (line.event === SESSION_START) finds.ran(SESSION_START);
    } else if (line.kind === "result") {
      for (const call of line.calls) finds.result(call);
    } else if (line.kind === "response") {
      // One response may be split over entries sharing its message id: count it once.
      if (responses++ === 0 || !line.messageId || line.messageId !== lastMessage) {
        finds.response();
        lastMessage = line.messageId;
        newestVersion ??= line.version;
      }
    }
  }, {
    records: false,
    mayRecord: (text, found) =>
      (text.includes(DELIVERED_ATTACHMENT) && text.includes(token)) ||
      text.includes(CANCELLED_ATTACHMENT) ||
      (!found.records && text.includes(RAN_ATTACHMENT)) ||
      (text.includes('"tool_result"') && calls.some((c) => text.includes(c))) ||
      (found.responses.length < 2 && mayBeUsage(text)),
  });
  // Claude Code records hook outcomes from these releases on (core/claude_code.ts).
  if (newestVersion !== undefined) {
    const from = sidechainFile ? RECORDS_IN_SUBAGENT_FILES_FROM : RECORDS_HOOK_OUTCOMES_FROM;
    evidence.records ||= compareVersions(newestVersion, from) >= 0;
  }
  return evidence;
}

/** The compaction marked at `at` (2.x: its boundary a few lines up; 1.0.x none), its last usage. */
function compactionEvidence(
  source: ByteSource,
  at: number,
  marked: CompactionEvidence | undefined,
): { compaction?: CompactionEvidence; last?: EntryUsage } {
  let boundary = marked;
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

/**
 * This hook's refreshes (headers carrying `token`) as `historyOf` finds them, counting only the
 * entry `uuid` and what precedes it (a fork's parent up to the fork point); none without it.
 */
export function historyUpTo(source: ByteSource, size: number, token: string, uuid: string) {
  for (const line of readLinesBackward(source, size, { maxBytes: MAX_SCAN_BYTES })) {
    if (line.oversized || !decoder.decode(line.bytes).includes(uuid)) continue;
    if (fieldOf(parseLine(line.bytes), "uuid") !== uuid) continue;
    return historyOf(source, line.start + line.bytes.length, token);
  }
  return undefined;
}
