/**
 * What every host's reader shares: a JSON-lines file read backwards into a host's own line kinds,
 * the newest compaction marker in a range, this hook's refreshes since the last one, and the bounds
 * every reader reads back within.
 */
import { labelIn, parseRefreshHeader } from "../core/header.ts";
import { parseLine } from "../core/transcript_entry.ts";
import type { TranscriptView, ViewQuery } from "../core/view.ts";
import type { ReceiptEvidence } from "../core/receipts.ts";
import type { CompactionEvidence } from "../core/window.ts";
import { type ByteSource, countingSource, readLinesBackward } from "./reverse_lines.ts";

/** How far back a reader looks for the usage, a compaction marker and this hook's refreshes. */
export const MAX_SCAN_BYTES = 64 * 1024 * 1024;
/** How far back the receipts are looked for (a few kilobytes are usually enough). */
export const RECEIPT_MAX_BYTES = 8 * 1024 * 1024;
/** A range is searched for marker texts this much at a time, natively, before any walk. */
const SEARCH_CHUNK = 1024 * 1024;
const decoder = new TextDecoder();

/** What a host's view asks its receipts reader: back to `from`, for `calls`, headed `token`. */
export type ReceiptQuery = NonNullable<ViewQuery["receipts"]>;

/** What a host's line records, told to the receipts scan; calls not asked about are passed over. */
export interface ReceiptFinds {
  /** The result of `call` is on this line. */
  result(call: string): void;
  /** `texts` answered `call` on this line; an answer counts when one of them is this hook's. */
  answer(call: string, texts: readonly string[]): void;
  /** A model response is on this line (the newest two are kept). */
  response(): void;
  /** Claude Code: the hook of `call` was cancelled (a record: this release records outcomes). */
  cancelled(call: string): void;
  /** Claude Code: the hook of `call` ran, and this release records it. */
  ran(call: string): void;
}

/** Which lines a walk back parses (`holds`: by their text), and where it stops (`from`). */
type Walk = { holds?: (text: string) => boolean; from?: number; read?: { lowest: number } };

/** What a host's lines record, as the shared reading asks it. */
interface HostLines<L extends { kind: string }> {
  /** Texts a meaningful line holds: tested before parsing, which costs more. */
  keys: readonly string[];
  /** Texts one of which every compaction marker holds. */
  markers: readonly string[];
  /** What a line is (`compacted`: a compaction marker). */
  lineOf(raw: unknown): L | undefined;
  /** The texts of this hook's answers a line records. */
  answersOf(line: L): readonly string[];
  /** What the compaction marked by `line` at `at` is known to be, where the host says. */
  compactionAt?(source: ByteSource, at: number, line: L): CompactionEvidence | undefined;
}

/** A host's file read backwards, each reading in the host's own terms. */
export function hostLines<L extends { kind: string }>(host: HostLines<L>) {
  const { keys, markers } = host;
  /** `text` holds one of the host's compaction marker texts (a line worth parsing for one). */
  const marks = (text: string) => markers.some((marker) => text.includes(marker));
  /** The longest marker text: search pieces overlap by one less, so none is cut in two. */
  const markerLength = Math.max(...markers.map((text) => text.length));

  const holdsKey = (text: string) => keys.some((key) => text.includes(key));

  /**
   * The meaningful lines (`holds` tells by their text), newest first, within `maxBytes`, and back
   * to the first line that starts before `from`; `read.lowest`: where the last line read starts.
   */
  function* linesBack(
    source: ByteSource,
    size: number,
    maxBytes: number,
    { holds = holdsKey, from = 0, read }: Walk = {},
  ) {
    for (const line of readLinesBackward(source, size, { maxBytes })) {
      if (read) read.lowest = line.start;
      if (line.start < from) return;
      if (line.oversized) continue;
      const text = decoder.decode(line.bytes);
      if (!holds(text)) continue;
      const parsed = host.lineOf(parseLine(line.bytes));
      if (parsed) yield { start: line.start, line: parsed };
    }
  }

  /**
   * The newest compaction marker in `from`..`size` within {@link MAX_SCAN_BYTES} of the end (and
   * whether the whole range was read): a native search for the marker texts first, as a byte
   * loop costs a cold process its compiling; a walk back only on a hit.
   */
  function markersSince(source: ByteSource, size: number, from: number): Partial<TranscriptView> {
    const start = Math.max(from, size - MAX_SCAN_BYTES);
    const markersChecked = start === from;
    let found = false;
    for (let at = start; at < size && !found; at += SEARCH_CHUNK) {
      const lo = Math.max(start, at - markerLength + 1);
      found = marks(decoder.decode(source.readAt(lo, Math.min(size, at + SEARCH_CHUNK) - lo)));
    }
    if (!found) return { markersChecked };
    const walk = { holds: marks, from: start };
    for (const { start: at, line } of linesBack(source, size, size - start, walk)) {
      if (line.kind !== "compacted") continue;
      const compaction = host.compactionAt?.(source, at, line);
      return { markerSince: at, markersChecked, ...(compaction ? { compaction } : {}) };
    }
    return { markersChecked };
  }

  /**
   * `view` finished as every host's is: the newest compaction marker at or after `markersFrom`
   * (and whether the whole range was read), the receipts `receiptsOf` finds, the bytes read.
   */
  function finishView(
    view: TranscriptView,
    source: ByteSource & { bytesRead: number },
    query: ViewQuery,
    receiptsOf: (source: ByteSource, size: number, query: ReceiptQuery) => ReceiptEvidence,
  ): TranscriptView {
    const { size } = view;
    if (query.markersFrom !== undefined && view.markerAfterUsage === undefined) {
      Object.assign(view, markersSince(source, size, query.markersFrom));
    }
    if (query.receipts) view.receipts = receiptsOf(source, size, query.receipts);
    view.bytesRead = source.bytesRead;
    return view;
  }

  /**
   * The receipts of `query.calls` back to `query.from`, within {@link RECEIPT_MAX_BYTES}: `visit`
   * tells what each line records, in the host's own terms; `records`: the host records every
   * delivered answer (else it is learnt from the lines); `mayRecord`: which lines are worth parsing,
   * given what was found (else those holding a key).
   */
  function receiptsBack(
    source: ByteSource,
    size: number,
    query: ReceiptQuery,
    visit: (line: L, finds: ReceiptFinds) => void,
    { records = true, mayRecord }: {
      records?: boolean;
      mayRecord?: (text: string, found: ReceiptEvidence) => boolean;
    } = {},
  ): ReceiptEvidence {
    const results: Record<string, number> = {};
    const answers: Record<string, number[]> = {};
    const [responses, cancelled]: [number[], string[]] = [[], []];
    const found = { from: size, results, answers, cancelled, responses, records };
    let at = size;
    const asked = (call: string) => query.calls.includes(call);
    const finds: ReceiptFinds = {
      result: (call) => {
        if (asked(call)) results[call] ??= at;
      },
      answer: (call, texts) => {
        if (labelIn(texts, query.token) !== undefined && asked(call)) {
          (answers[call] ??= []).push(at);
        }
      },
      response: () => {
        if (responses.length < 2) responses.push(at);
      },
      cancelled: (call) => {
        if (!asked(call)) return;
        cancelled.push(call);
        found.records = true;
      },
      ran: (call) => {
        found.records ||= asked(call);
      },
    };
    const holds = mayRecord ? (text: string) => mayRecord(text, found) : holdsKey;
    const read = { lowest: size };
    const walk = { holds, from: query.from, read };
    for (const { start, line } of linesBack(source, size, RECEIPT_MAX_BYTES, walk)) {
      at = start;
      visit(line, finds);
    }
    found.from = Math.max(read.lowest, query.from);
    return found;
  }

  /**
   * Walks back through the first `size` bytes to the newest compaction marker, collecting this
   * hook's refreshes (headers carrying `token`); `truncated`: `maxBytes` ran out first.
   */
  function historyOf(raw: ByteSource, size: number, token: string, maxBytes = MAX_SCAN_BYTES) {
    // One pass back over up to 64 MiB: a cache would hold every chunk until the end.
    const source = countingSource(raw);
    const refreshed = new Set<number>();
    let marker: number | undefined;
    for (const { start, line } of linesBack(source, size, maxBytes)) {
      if (line.kind === "compacted") {
        marker = start;
        break;
      }
      for (const text of host.answersOf(line)) {
        for (const t of parseRefreshHeader(text, token) ?? []) refreshed.add(t);
      }
    }
    const { bytesRead } = source;
    return {
      ...(marker === undefined ? {} : { marker }),
      refreshed: [...refreshed].sort((a, b) => a - b),
      truncated: marker === undefined && bytesRead >= maxBytes && size > bytesRead,
      bytesRead,
    };
  }

  return { linesBack, finishView, receiptsBack, historyOf, marks };
}
