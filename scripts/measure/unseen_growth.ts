/**
 * What a request gained that the transcript does not show: for two consecutive main-chain
 * requests, the new content of the second (new messages, changed system prompt, new tools) is
 * looked for in the transcript bytes written between the two responses. Used by
 * measure_unseen_growth.ts; its results are the fixture tests/unit/core/ceiling_test.ts pins.
 */
import { TOKENS_PER_BYTE } from "../../src/core/claude_code.ts";
import type { RecordedRequest } from "../loopback/api_stub.ts";
import {
  imageTokens,
  requestBytes,
  type RequestParts,
  requestParts,
} from "../loopback/request_size.ts";

/** Where the recorded pairs live, relative to the repository root. */
export const UNSEEN_GROWTH_FIXTURE = "tests/fixtures/unseen-growth/pairs-2.1.328.jsonl";

/** One pair of consecutive main-chain requests, measured. */
export interface GrowthPair {
  /** The source of growth the session exercised. */
  source: string;
  /** Whether Claude Code wrote its request-replay records (`api-request-*` lines). */
  replay: boolean;
  /** Position of the first request among the session's main-chain requests. */
  index: number;
  /** The first request's context (usage from its size) and its response's output tokens. */
  tokensBefore: number;
  outputTokens: number;
  /** The second request's context. */
  tokensAfter: number;
  /** Bytes the request grew by (requestBytes), and of that the first response's own message. */
  requestGrowth: number;
  responseBytes: number;
  /**
   * Transcript bytes from the end of the first response's first entry to the second's first
   * entry: what the ceiling counts (src/io/transcript.ts).
   */
  transcriptBytes: number;
  /**
   * Of those, the bytes that were on disk when the earliest hook of the second response's tool
   * calls started, when its own entry was not there yet. Negative: not even the first response's
   * first entry was on disk.
   */
  hookBytes?: number;
  /** Bytes of new content not found in those transcript bytes (images: their tokens as bytes). */
  unseenBytes: number;
  /** The same, by kind of content. */
  unseen: Record<string, number>;
  /** Bytes of new content by kind, shown or not: what the step exercised. */
  added: Record<string, number>;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();
type Json = Record<string, unknown>;

interface Line {
  start: number;
  end: number;
  entry: Json | undefined;
}

function linesOf(bytes: Uint8Array): Line[] {
  const lines: Line[] = [];
  for (let start = 0; start < bytes.length;) {
    let newline = bytes.indexOf(10, start);
    if (newline < 0) newline = bytes.length;
    let entry: Json | undefined;
    try {
      entry = JSON.parse(decoder.decode(bytes.subarray(start, newline)));
    } catch {
      entry = undefined;
    }
    lines.push({ start, end: newline + 1, entry });
    start = newline + 1;
  }
  return lines;
}

/**
 * Main-chain assistant entries by message id: where the first starts and ends, where the last
 * ends, and the tool calls they hold. A streamed response is written as several entries, and the
 * results of its first tool calls can land between them.
 */
function responsesOf(lines: Line[]) {
  const found = new Map<
    string,
    { start: number; firstEnd: number; end: number; toolIds: string[] }
  >();
  for (const line of lines) {
    const e = line.entry;
    if (e?.type !== "assistant" || e.isSidechain === true) continue;
    const message = e.message as Json | undefined;
    const id = typeof message?.id === "string" ? message.id : undefined;
    if (!id) continue;
    const record = found.get(id) ??
      { start: line.start, firstEnd: line.end, end: line.end, toolIds: [] };
    record.end = line.end;
    for (const block of Array.isArray(message?.content) ? message.content as Json[] : []) {
      if (block.type === "tool_use" && typeof block.id === "string") record.toolIds.push(block.id);
    }
    found.set(id, record);
  }
  return found;
}

/** Every string value in a JSON value. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => stringsOf(v, out));
  else if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) stringsOf(v, out);
  }
  return out;
}

const CHUNK = 48;

/**
 * The share of `piece`'s text missing from `region`: its string values, JSON-escaped as a
 * transcript line holds them, cut in 48-character chunks, each looked for in the region.
 */
function missingShare(piece: unknown, region: string): number {
  let total = 0;
  let missing = 0;
  for (const text of stringsOf(piece)) {
    const escaped = JSON.stringify(text).slice(1, -1);
    for (let i = 0; i < escaped.length; i += CHUNK) {
      const chunk = escaped.slice(i, i + CHUNK);
      total += chunk.length;
      if (!region.includes(chunk)) missing += chunk.length;
    }
  }
  return total === 0 ? 0 : missing / total;
}

/** The part of `after` that differs from `before` (common prefix and suffix removed). */
function changedPart(before: string, after: string): string {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start && end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  ) end++;
  return after.slice(start, after.length - end);
}

/** A piece of new content: its kind, its bytes, and the JSON value whose text is looked for. */
interface Piece {
  kind: string;
  bytes: number;
  value: unknown;
  /** For images: the tokens the pixels cost and the bytes of their data. */
  image?: { tokens: number; data: string };
}

const bytesOf = (text: string) => encoder.encode(text).length;

/**
 * Kind of a text block: a prompt, a reminder named by its first words, or a message in the
 * `system` role (Claude Code's mid-turn notes).
 */
function textKind(text: string, role: unknown): string {
  if (role === "system") return "system message";
  const reminder = /^<system-reminder>\s*/.exec(text);
  const tagged = /^<([a-z-]+)>/.exec(text)?.[1];
  if (!reminder) return tagged ? `<${tagged}>` : "prompt text";
  const body = text.slice(reminder[0].length).replace(/\/[^\s]*/g, "…");
  return `reminder: ${body.split(/[.:\n]/)[0]!.slice(0, 40).trim()}`;
}

/** The blocks of a message body (string content is one text block). */
function blocksOf(message: Json): Json[] {
  const content = message.content;
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content as Json[] : [];
}

function piecesOfBlock(block: Json, toolNames: Map<string, string>, role: unknown): Piece[] {
  const json = JSON.stringify(block);
  if (block.type === "image") {
    const data = String((block.source as Json | undefined)?.data ?? "");
    return [{ kind: "image", bytes: 0, value: [], image: { tokens: imageTokens(block), data } }];
  }
  if (block.type === "tool_result") {
    const name = toolNames.get(String(block.tool_use_id)) ?? "tool";
    const pieces: Piece[] = [];
    const content = Array.isArray(block.content) ? block.content as Json[] : undefined;
    const images = content?.filter((b) => b.type === "image") ?? [];
    for (const image of images) pieces.push(...piecesOfBlock(image, toolNames, role));
    const rest = content ? { ...block, content: content.filter((b) => b.type !== "image") } : block;
    // A tool_result's text may carry reminders after the output: count them apart.
    const text = typeof rest.content === "string" ? rest.content : undefined;
    const split = text?.indexOf("\n\n<system-reminder>") ?? -1;
    if (text !== undefined && split >= 0) {
      pieces.push({
        kind: `result: ${name}`,
        bytes: bytesOf(JSON.stringify({ ...rest, content: text.slice(0, split) })),
        value: text.slice(0, split),
      });
      for (const reminder of text.slice(split + 2).split(/\n\n(?=<system-reminder>)/)) {
        pieces.push({
          kind: textKind(reminder, role),
          bytes: bytesOf(JSON.stringify(reminder)),
          value: reminder,
        });
      }
      return pieces;
    }
    pieces.push({ kind: `result: ${name}`, bytes: bytesOf(JSON.stringify(rest)), value: rest });
    return pieces;
  }
  if (block.type === "text" && typeof block.text === "string") {
    return [{ kind: textKind(block.text, role), bytes: bytesOf(json), value: block.text }];
  }
  return [{ kind: `block: ${block.type}`, bytes: bytesOf(json), value: block }];
}

/** New content of `after` over `before`; `response` is the first request's answer. */
function newPieces(
  before: Json,
  after: Json,
  partsBefore: RequestParts,
  partsAfter: RequestParts,
  toolNames: Map<string, string>,
): { pieces: Piece[]; responseBytes: number } {
  const pieces: Piece[] = [];
  let responseBytes = 0;
  if (partsAfter.system !== partsBefore.system) {
    const part = changedPart(partsBefore.system, partsAfter.system);
    pieces.push({ kind: "system prompt", bytes: bytesOf(part), value: part });
  }
  for (const [name, tool] of partsAfter.tools) {
    const old = partsBefore.tools.get(name);
    if (old === tool) continue;
    const value = old === undefined ? JSON.parse(tool) : changedPart(old, tool);
    const kind = name.startsWith("mcp__") ? "tool schema: MCP" : `tool schema: ${name}`;
    pieces.push({ kind, bytes: bytesOf(old === undefined ? tool : String(value)), value });
  }
  const oldMessages = (Array.isArray(before.messages) ? before.messages : []) as Json[];
  const newMessages = (Array.isArray(after.messages) ? after.messages : []) as Json[];
  newMessages.forEach((message, i) => {
    const old = oldMessages[i];
    const oldJson = old === undefined ? undefined : partsBefore.messages[i];
    const newJson = partsAfter.messages[i]!;
    if (oldJson === newJson) return;
    if (message.role === "assistant" && old === undefined) {
      responseBytes += bytesOf(newJson);
      return;
    }
    if (old !== undefined && oldJson !== undefined && old.role === message.role) {
      // A message the second request changed (Claude Code appends to the last user message, and
      // moves its cache markers, which requestParts leaves out).
      const oldBlocks = blocksOf(JSON.parse(oldJson)).map((b) => JSON.stringify(b));
      for (const block of blocksOf(JSON.parse(newJson))) {
        if (!oldBlocks.includes(JSON.stringify(block))) {
          pieces.push(...piecesOfBlock(block, toolNames, message.role));
        }
      }
      return;
    }
    for (const block of blocksOf(message)) {
      pieces.push(...piecesOfBlock(block, toolNames, message.role));
    }
  });
  return { pieces, responseBytes };
}

/** Tool names by tool_use id, from every assistant message of a request. */
function toolNamesOf(body: Json): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of (Array.isArray(body.messages) ? body.messages : []) as Json[]) {
    for (const block of blocksOf(message)) {
      if (block.type === "tool_use") names.set(String(block.id), String(block.name));
    }
  }
  return names;
}

/** Measures every consecutive pair of a session's main-chain requests. */
export function analyseSession(session: {
  source: string;
  replay: boolean;
  /** The main-chain requests, in order, with the message id and usage that answered each. */
  requests: RecordedRequest[];
  transcript: Uint8Array;
  /** Transcript size when a tool call's hooks started, by tool_use_id. */
  hookSizes: Map<string, number>;
}): GrowthPair[] {
  const lines = linesOf(session.transcript);
  const responses = responsesOf(lines);
  const pairs: GrowthPair[] = [];
  for (let k = 0; k + 1 < session.requests.length; k++) {
    const first = session.requests[k]!;
    const second = session.requests[k + 1]!;
    const a = first.messageId ? responses.get(first.messageId) : undefined;
    const b = second.messageId ? responses.get(second.messageId) : undefined;
    if (!a || !b || !first.usage || !second.usage || b.start < a.end) continue;
    // The hook counts the bytes after the first entry of the previous response: results written
    // between its entries are part of what the next request adds.
    const region = decoder.decode(session.transcript.subarray(a.firstEnd, b.start));
    const partsBefore = requestParts(first.body);
    const partsAfter = requestParts(second.body);
    const { pieces, responseBytes } = newPieces(
      first.body,
      second.body,
      partsBefore,
      partsAfter,
      toolNamesOf(second.body),
    );
    const unseen: Record<string, number> = {};
    const added: Record<string, number> = {};
    for (const piece of pieces) {
      const size = piece.image ? piece.image.data.length : piece.bytes;
      added[piece.kind] = (added[piece.kind] ?? 0) + size;
      let missing: number;
      if (piece.image) {
        // An image costs its pixels' tokens; what the transcript shows of it is its data.
        const shown = piece.image.data && region.includes(piece.image.data.slice(0, 4096))
          ? piece.image.data.length * TOKENS_PER_BYTE
          : 0;
        missing = Math.max(0, Math.ceil((piece.image.tokens - shown) / TOKENS_PER_BYTE));
      } else {
        missing = Math.round(piece.bytes * missingShare(piece.value, region));
      }
      if (missing > 0) unseen[piece.kind] = (unseen[piece.kind] ?? 0) + missing;
    }
    // The earliest hook of the second response's calls that started before its own entry.
    const early = b.toolIds.map((id) => session.hookSizes.get(id))
      .filter((size): size is number => size !== undefined && size < b.firstEnd)
      .map((size) => size - a.firstEnd);
    pairs.push({
      source: session.source,
      replay: session.replay,
      index: k,
      tokensBefore: first.usage.tokens,
      outputTokens: first.usage.outputTokens,
      tokensAfter: second.usage.tokens,
      requestGrowth: requestBytes(partsAfter) - requestBytes(partsBefore),
      responseBytes,
      transcriptBytes: b.start - a.firstEnd,
      ...(early.length ? { hookBytes: Math.min(...early) } : {}),
      unseenBytes: Object.values(unseen).reduce((n, v) => n + v, 0),
      unseen,
      added,
    });
  }
  return pairs;
}

/** Tokens that `bytes` carry at the measured rate. */
export const tokensOf = (bytes: number) => Math.ceil(bytes * TOKENS_PER_BYTE);

/**
 * Room the ceiling leaves a pair without any margin: the first reading, its output and the bytes
 * the hook saw at the measured rate, less the second reading. Negative: the pair needs margin.
 */
export function roomOf(pair: GrowthPair): number {
  const bytes = pair.hookBytes ?? pair.transcriptBytes;
  return pair.tokensBefore + pair.outputTokens + tokensOf(bytes) - pair.tokensAfter;
}

const figure = (n: number) => n.toLocaleString("en-US");

/**
 * The table docs/maintainers/claude-code-facts.md shows: per source, the largest step, the largest
 * content the transcript did not show (with the request records on and off), and the least room a
 * pair left the ceiling without its margin.
 */
export function growthTable(pairs: GrowthPair[], what: Map<string, string>): string {
  const rows = [
    "| source | what the session did | pairs | largest step, request bytes | unseen, records on | unseen, records off | least room, tokens |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  ];
  const unseen = (list: GrowthPair[]) => {
    const bytes = Math.max(0, ...list.map((p) => p.unseenBytes));
    return `${figure(bytes)} B (${figure(tokensOf(bytes))})`;
  };
  for (const [source, description] of what) {
    const of = pairs.filter((p) => p.source === source);
    if (of.length === 0) continue;
    rows.push(
      `| ${source} | ${description} | ${of.length} | ${
        figure(Math.max(...of.map((p) => p.requestGrowth)))
      } | ${unseen(of.filter((p) => p.replay))} | ${unseen(of.filter((p) => !p.replay))} | ${
        figure(Math.min(...of.map(roomOf)))
      } |`,
    );
  }
  return rows.join("\n");
}
