/**
 * What the Codex and Gemini readers share: a JSON-lines file read backwards into a host's own line
 * kinds, the newest compaction marker in a range, and this hook's refreshes since the last one;
 * and the bounds every reader, Claude Code's too, reads back within.
 */
import { parseRefreshHeader, refreshLabelOf } from "../core/header.ts";
import { parseLine } from "../core/transcript_entry.ts";
import type { TranscriptView, ViewQuery } from "../core/view.ts";
import type { ReceiptEvidence } from "../core/receipts.ts";
import { type ByteSource, countingSource, readLinesBackward } from "./reverse_lines.ts";

/** How far back a reader looks: the same bound as Claude Code's transcript reader. */
export const MAX_SCAN_BYTES = 64 * 1024 * 1024;
/** How far back the receipts are looked for (a few kilobytes are usually enough). */
export const RECEIPT_MAX_BYTES = 8 * 1024 * 1024;
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
}

/**
 * A host's file read backwards: `keys`, texts a meaningful line names (tested before parsing,
 * which costs more); `lineOf`, what a line is (`compacted`: a compaction marker); `answersOf`,
 * the hook answers a line records.
 */
export function hostLines<L extends { kind: string }>(
  keys: readonly string[],
  lineOf: (raw: unknown) => L | undefined,
  answersOf: (line: L) => readonly string[],
) {
  /** The meaningful lines, newest first, within `maxBytes` of the end. */
  function* linesBack(source: ByteSource, size: number, maxBytes: number) {
    for (const line of readLinesBackward(source, size, { maxBytes })) {
      if (line.oversized) continue;
      const text = decoder.decode(line.bytes);
      if (!keys.some((key) => text.includes(key))) continue;
      const parsed = lineOf(parseLine(line.bytes));
      if (parsed) yield { start: line.start, line: parsed };
    }
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
    const from = query.markersFrom;
    if (from !== undefined && view.markerAfterUsage === undefined) {
      const start = Math.max(from, size - MAX_SCAN_BYTES);
      view.markersChecked = start === from;
      for (const { start: at, line } of linesBack(source, size, size - start)) {
        if (at < start) break;
        if (line.kind !== "compacted") continue;
        view.markerSince = at;
        break;
      }
    }
    if (query.receipts) view.receipts = receiptsOf(source, size, query.receipts);
    view.bytesRead = source.bytesRead;
    return view;
  }

  /**
   * The receipts of `query.calls` back to `query.from`, within {@link RECEIPT_MAX_BYTES}: `visit`
   * tells what each line records, in the host's own terms (its record is always kept: `records`).
   */
  function receiptsBack(
    source: ByteSource,
    size: number,
    query: ReceiptQuery,
    visit: (line: L, finds: ReceiptFinds) => void,
  ): ReceiptEvidence {
    const results: Record<string, number> = {};
    const answers: Record<string, number[]> = {};
    const responses: number[] = [];
    let from = size;
    let at = size;
    const asked = (call: string) => query.calls.includes(call);
    const finds: ReceiptFinds = {
      result: (call) => {
        if (asked(call)) results[call] ??= at;
      },
      answer: (call, texts) => {
        const ours = texts.some((text) => refreshLabelOf(text, query.token) !== undefined);
        if (ours && asked(call)) (answers[call] ??= []).push(at);
      },
      response: () => {
        if (responses.length < 2) responses.push(at);
      },
    };
    for (const { start, line } of linesBack(source, size, RECEIPT_MAX_BYTES)) {
      from = Math.max(start, query.from);
      if (start < query.from) break;
      at = start;
      visit(line, finds);
    }
    return { from, results, answers, cancelled: [], responses, records: true };
  }

  /** This hook's refreshes since the newest compaction, as io/transcript.ts's `historyOf`. */
  function historyOf(raw: ByteSource, size: number, token: string) {
    const source = countingSource(raw);
    const refreshed = new Set<number>();
    let marker: number | undefined;
    for (const { start, line } of linesBack(source, size, MAX_SCAN_BYTES)) {
      if (line.kind === "compacted") {
        marker = start;
        break;
      }
      for (const text of answersOf(line)) {
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

  return { linesBack, finishView, receiptsBack, historyOf };
}
