/**
 * What the Codex and Gemini readers share: a JSON-lines file read backwards into a host's own line
 * kinds, the newest compaction marker in a range, and this hook's refreshes since the last one.
 */
import { parseRefreshHeader } from "../core/header.ts";
import { parseLine } from "../core/transcript_entry.ts";
import { type ByteSource, countingSource, readLinesBackward } from "./reverse_lines.ts";

/** How far back a reader looks: the same bound as Claude Code's transcript reader. */
export const MAX_SCAN_BYTES = 64 * 1024 * 1024;
const decoder = new TextDecoder();

/** A host's line: its kind, `compacted` for a compaction marker. */
export type HostLine = { kind: string };
export type LinesBack<L> = (
  source: ByteSource,
  size: number,
  maxBytes: number,
) => Generator<{ start: number; line: L }>;

/** The meaningful lines, newest first: those naming one of `keys`, as `lineOf` reads them. */
export function linesBackOf<L extends HostLine>(
  keys: readonly string[],
  lineOf: (raw: unknown) => L | undefined,
): LinesBack<L> {
  return function* (source, size, maxBytes) {
    for (const line of readLinesBackward(source, size, { maxBytes })) {
      if (line.oversized) continue;
      const text = decoder.decode(line.bytes);
      if (!keys.some((key) => text.includes(key))) continue;
      const parsed = lineOf(parseLine(line.bytes));
      if (parsed) yield { start: line.start, line: parsed };
    }
  };
}

/** The newest compaction marker at or after `from`, and whether the whole range was read. */
export function markersSince<L extends HostLine>(
  linesBack: LinesBack<L>,
  source: ByteSource,
  size: number,
  from: number,
): { markerSince?: number; markersChecked: boolean } {
  const start = Math.max(from, size - MAX_SCAN_BYTES);
  for (const { start: at, line } of linesBack(source, size, size - start)) {
    if (at < start) break;
    if (line.kind === "compacted") return { markerSince: at, markersChecked: start === from };
  }
  return { markersChecked: start === from };
}

/** This hook's refreshes since the newest compaction (`answersOf`: a line's answer texts). */
export function refreshHistory<L extends HostLine>(
  linesBack: LinesBack<L>,
  answersOf: (line: L) => readonly string[],
  raw: ByteSource,
  size: number,
  token: string,
) {
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
