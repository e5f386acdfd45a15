/**
 * Consecutive readings of real transcripts, for the ceiling (src/core/ceiling.ts): each main-chain
 * response (entries sharing a message id merged) paired with the next one its chain continues, and
 * the transcript bytes between them. Used by tests/unit/core/ceiling_test.ts on the skeletons and
 * by ceiling_margins.ts on any folder of transcripts.
 */
import { join } from "node:path";
import { ceilingTokens } from "../../src/core/ceiling.ts";
import { TOKENS_PER_BYTE } from "../../src/core/claude_code.ts";
import { isCompactionMarker, usageOf } from "../../src/core/transcript_entry.ts";

export interface Response {
  tokens: number;
  outputTokens: number | undefined;
  /** Offset of its first entry, and just past it. */
  start: number;
  firstEnd: number;
  line: number;
  /** Bytes of text (tool results and prompts) in user entries after its first entry. */
  text: number;
  /** Whether an image was written after its first entry. */
  image: boolean;
  /** Its entries' uuids, and where each entry of the file hangs (`parentUuid`) and starts. */
  uuids: string[];
  links: Map<string, { parent: unknown; offset: number }>;
}

/**
 * `next` continues `previous`'s context: its chain of entries leads back to it. Where two Claude
 * Code processes append to one file (v2.1.225-two-processes-one-session), the response before
 * another in the file may be the other process's; the hook then stops answering on the ceiling
 * (core/chains.ts `forked`), so such pairs say nothing of it.
 */
export function continues(previous: Response, next: Response): boolean {
  let id: unknown = next.links.get(next.uuids[0]!)?.parent;
  while (typeof id === "string" && !previous.uuids.includes(id)) {
    const link = next.links.get(id);
    // A parent the file does not hold (v2.1.167 line 61's): the chain cannot be told apart.
    if (!link) return true;
    if (link.offset < previous.start) return false;
    id = link.parent;
  }
  return typeof id === "string";
}

const encoder = new TextEncoder();

/**
 * Bytes of text a user entry adds (tool result contents, prompts), counted as the transcript
 * holds them (JSON-escaped: what the skeletons keep), and whether it has images.
 */
function contentOf(entry: unknown): { text: number; image: boolean } {
  const out = { text: 0, image: false };
  const e = entry as { type?: string; message?: { content?: unknown } } | undefined;
  if (e?.type !== "user") return out;
  const walk = (value: unknown): void => {
    if (typeof value === "string") out.text += encoder.encode(JSON.stringify(value)).length - 2;
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) {
      const v = value as Record<string, unknown>;
      if (v.type === "image") out.image = true;
      else if (typeof v.text === "string") walk(v.text);
      else if (v.content !== undefined) walk(v.content);
    }
  };
  walk(e.message?.content);
  return out;
}

/** Main-chain responses (entries sharing a message id merged) and compaction markers, in order. */
export function responsesOf(bytes: Uint8Array, sidechainFile: boolean): (Response | "marker")[] {
  const decoder = new TextDecoder();
  const out: (Response | "marker")[] = [];
  let current: (Response & { id: string | undefined }) | undefined;
  const links = new Map<string, { parent: unknown; offset: number }>();
  let offset = 0;
  for (let line = 1; offset < bytes.length; line++) {
    let newline = bytes.indexOf(10, offset);
    if (newline < 0) newline = bytes.length;
    let entry: unknown;
    try {
      entry = JSON.parse(decoder.decode(bytes.subarray(offset, newline)));
    } catch {
      entry = undefined;
    }
    if (isCompactionMarker(entry)) {
      out.push("marker");
      current = undefined;
    }
    const { uuid, parentUuid } = (entry ?? {}) as { uuid?: unknown; parentUuid?: unknown };
    if (typeof uuid === "string") links.set(uuid, { parent: parentUuid, offset });
    const usage = usageOf(entry, sidechainFile);
    if (usage) {
      if (current && current.id !== undefined && current.id === usage.messageId) {
        // The newest entry of a response is what the hook reads: its output count is final.
        current.outputTokens = usage.outputTokens;
        if (typeof uuid === "string") current.uuids.push(uuid);
      } else {
        current = {
          id: usage.messageId,
          tokens: usage.tokens,
          outputTokens: usage.outputTokens,
          start: offset,
          firstEnd: newline + 1,
          line,
          text: 0,
          image: false,
          uuids: typeof uuid === "string" ? [uuid] : [],
          links,
        };
        out.push(current);
      }
    } else if (current) {
      const content = contentOf(entry);
      current.text += content.text;
      current.image ||= content.image;
    }
    offset = newline + 1;
  }
  return out;
}

export interface Pair {
  file: string;
  line: number;
  previous: Response;
  next: Response;
  /** Bytes from the end of the previous response's first entry to the next one's start. */
  bytes: number;
}

/** Each reading and the next one of its chain in transcript `bytes` (`file`: its name). */
export function pairsOf(file: string, bytes: Uint8Array): Pair[] {
  const pairs: Pair[] = [];
  const list = responsesOf(bytes, file.includes("subagent"));
  for (let i = 1; i < list.length; i++) {
    const previous = list[i - 1]!;
    const next = list[i]!;
    // Across a compaction the hook sees the marker first and takes no reading at all.
    if (previous === "marker" || next === "marker") continue;
    if (!continues(previous, next)) continue;
    pairs.push({ file, line: next.line, previous, next, bytes: next.start - previous.firstEnd });
  }
  return pairs;
}

/** The pairs of every `.jsonl` file in `folder`, by name. */
export function pairsIn(folder: string): Pair[] {
  const names = [...Deno.readDirSync(folder)].map((e) => e.name).filter((n) => n.endsWith(".jsonl"))
    .sort();
  return names.flatMap((file) => pairsOf(file, Deno.readFileSync(join(folder, file))));
}

/** `file:line: tokens + output out + bytes → next`. */
export function describe(p: Pair): string {
  return `${p.file}:${p.line}: ${p.previous.tokens} + ${p.previous.outputTokens} out + ` +
    `${p.bytes} bytes → ${p.next.tokens}`;
}

/** Tokens a pair gained beyond its previous reading, output and bytes at the measured rate. */
export const excessOf = (p: Pair) =>
  p.next.tokens - p.previous.tokens - (p.previous.outputTokens ?? 0) -
  Math.ceil(TOKENS_PER_BYTE * p.bytes);

/** What the ceiling leaves above the next reading (negative: the reading was above it). */
export const marginOf = (p: Pair) =>
  ceilingTokens(p.previous.tokens, p.previous.outputTokens, p.bytes) - p.next.tokens;
