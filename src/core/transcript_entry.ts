/**
 * What one parsed transcript line means to this hook: a context-size reading, a compaction
 * marker, a fork's parent, or a record of this hook's answers. Pure; checked by hand, not with
 * zod, since a few lines are examined on every tool call.
 */
import { parseRefreshHeader, refreshLabelOf } from "./header.ts";
import {
  CANCELLED_ATTACHMENT,
  COMPACT_BOUNDARY,
  DELIVERED_ATTACHMENT,
  FORK_CONTEXT_REF,
  RAN_ATTACHMENT,
} from "./claude_code.ts";
import type { Threshold } from "./numbers.ts";

type Fields = Record<string, unknown>;

const decoder = new TextDecoder();

/** A transcript line as JSON; undefined when it is not. */
export function parseLine(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}

/** A line's raw text may hold a usage: checked before parsing, which costs more. */
export const mayBeUsage = (text: string) =>
  text.includes('"assistant"') && text.includes('"usage"');

function isRecord(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Absent, or of the given primitive type (or null when `nullable`). */
function optional(value: unknown, type: "string" | "number" | "boolean", nullable = false) {
  return value === undefined || (nullable && value === null) || typeof value === type;
}

/** A context-size reading taken from one assistant entry. */
export interface EntryUsage {
  /** `input + cache_creation + cache_read` tokens: Claude Code's own formula. */
  tokens: number;
  toolUseIds: string[];
  model?: string | undefined;
  messageId?: string | undefined;
  timestamp?: string | undefined;
  /** `usage.output_tokens`, when a number. */
  outputTokens?: number | undefined;
  /** The Claude Code release that wrote the entry. */
  version?: string | undefined;
}

/**
 * The usage an entry reports, or undefined when it must not count: not a top-level assistant
 * entry, a sidechain entry (unless `sidechainFile`, a subagent's own transcript), an API error,
 * the `<synthetic>` model, or all-zero usage (in-flight entries kept across a compaction).
 */
export function usageOf(entry: unknown, sidechainFile: boolean): EntryUsage | undefined {
  if (!isRecord(entry) || entry.type !== "assistant") return undefined;
  const { isSidechain, isApiErrorMessage, message, timestamp, version } = entry;
  if (!optional(isSidechain, "boolean", true) || !optional(isApiErrorMessage, "boolean", true)) {
    return undefined;
  }
  if (!optional(timestamp, "string") || !isRecord(message)) return undefined;
  const { id, model, usage } = message;
  if (!optional(id, "string") || !optional(model, "string") || !isRecord(usage)) return undefined;
  const parts = [
    usage.input_tokens,
    usage.cache_creation_input_tokens,
    usage.cache_read_input_tokens,
  ];
  if (!parts.every((part) => optional(part, "number", true))) return undefined;
  if (isSidechain === true && !sidechainFile) return undefined;
  if (isApiErrorMessage === true || model === "<synthetic>") return undefined;
  const tokens = parts.reduce<number>((sum, p) => sum + (typeof p === "number" ? p : 0), 0);
  if (!(tokens > 0)) return undefined;
  return {
    tokens,
    model: typeof model === "string" ? model : undefined,
    messageId: typeof id === "string" ? id : undefined,
    toolUseIds: toolUseIdsOf(message.content),
    timestamp: typeof timestamp === "string" ? timestamp : undefined,
    outputTokens: typeof usage.output_tokens === "number" && Number.isFinite(usage.output_tokens)
      ? usage.output_tokens
      : undefined,
    version: typeof version === "string" ? version : undefined,
  };
}

/** `entry` is an assistant entry holding `toolUseId`, whatever its usage (a gateway writes 0s). */
export function holdsToolUse(entry: unknown, toolUseId: string): boolean {
  if (!isRecord(entry) || entry.type !== "assistant" || !isRecord(entry.message)) return false;
  return toolUseIdsOf(entry.message.content).includes(toolUseId);
}

function toolUseIdsOf(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) =>
    isRecord(block) && block.type === "tool_use" && typeof block.id === "string" ? [block.id] : []
  );
}

/** A `compact_boundary`'s trigger and the context size it compacted, or undefined. */
export function compactionOf(
  entry: unknown,
): { trigger: string | undefined; preTokens: number } | undefined {
  if (!isRecord(entry) || entry.type !== "system" || entry.subtype !== COMPACT_BOUNDARY) {
    return undefined;
  }
  const meta = entry.compactMetadata;
  if (!isRecord(meta) || typeof meta.preTokens !== "number" || !(meta.preTokens > 0)) {
    return undefined;
  }
  return {
    trigger: typeof meta.trigger === "string" ? meta.trigger : undefined,
    preTokens: meta.preTokens,
  };
}

/**
 * True for a compaction marker: a `compact_boundary` system entry (2.x) or a compact-summary user
 * entry (the only marker 1.0.x writes). `summary` entries are session titles, not markers.
 */
export function isCompactionMarker(entry: unknown): boolean {
  if (!isRecord(entry)) return false;
  return (entry.type === "system" && entry.subtype === COMPACT_BOUNDARY) ||
    (entry.type === "user" && entry.isCompactSummary === true);
}

/**
 * The parent session a fork's first line (`fork-context-ref`) names, and the last entry the fork
 * took from it; undefined for other entries.
 */
export function forkReferenceOf(
  entry: unknown,
): { parentSessionId: string; parentLastUuid: string } | undefined {
  if (!isRecord(entry) || entry.type !== FORK_CONTEXT_REF) return undefined;
  const { parentSessionId, parentLastUuid } = entry;
  if (typeof parentSessionId !== "string" || parentSessionId === "") return undefined;
  if (typeof parentLastUuid !== "string" || parentLastUuid === "") return undefined;
  return { parentSessionId, parentLastUuid };
}

/**
 * The thresholds named by a refresh this hook injected, when `entry` is Claude Code's record of
 * it (a `hook_additional_context` attachment whose text starts with a header carrying `token`).
 */
export function refreshRecordedIn(entry: unknown, token: string): Threshold[] | undefined {
  if (!isRecord(entry) || entry.type !== "attachment") return undefined;
  const attachment = entry.attachment;
  if (!isRecord(attachment) || attachment.type !== DELIVERED_ATTACHMENT) return undefined;
  for (const text of stringsIn(attachment, 3)) {
    const thresholds = parseRefreshHeader(text, token);
    if (thresholds) return thresholds;
  }
  return undefined;
}

/** What one transcript line says about the delivery of this hook's answers (core/receipts.ts). */
type ReceiptLine =
  /** Claude Code delivered this hook's answer to `call`. */
  | { kind: "answer"; call: string; label: string }
  /** Claude Code killed the hook of `call` at its timeout. */
  | { kind: "cancelled"; call: string }
  /** A hook of `call` (of `event`) ran to its end: this Claude Code records hook outcomes. */
  | { kind: "ran"; call: string; event: string | undefined }
  /** The results of these tool calls: their hooks have finished. */
  | { kind: "result"; calls: string[] }
  /** A model response (an entry whose usage counts), and the release that wrote it. */
  | { kind: "response"; messageId: string | undefined; version: string | undefined };

/**
 * What `entry` says about deliveries of the answers headed with `token`; undefined for every
 * other line. Sidechain entries count only in a subagent's own file.
 */
export function receiptLineOf(
  entry: unknown,
  token: string,
  sidechainFile: boolean,
): ReceiptLine | undefined {
  if (!isRecord(entry) || (entry.isSidechain === true && !sidechainFile)) return undefined;
  if (entry.type === "attachment") {
    const attachment = entry.attachment;
    if (!isRecord(attachment) || typeof attachment.toolUseID !== "string") return undefined;
    if (attachment.type === CANCELLED_ATTACHMENT) {
      return { kind: "cancelled", call: attachment.toolUseID };
    }
    if (attachment.type === RAN_ATTACHMENT) {
      const event = typeof attachment.hookEvent === "string" ? attachment.hookEvent : undefined;
      return { kind: "ran", call: attachment.toolUseID, event };
    }
    if (attachment.type !== DELIVERED_ATTACHMENT) return undefined;
    for (const text of stringsIn(attachment.content, 1)) {
      const label = refreshLabelOf(text, token);
      if (label !== undefined) return { kind: "answer", call: attachment.toolUseID, label };
    }
    return undefined;
  }
  if (entry.type === "user") {
    const message = entry.message;
    if (!isRecord(message) || !Array.isArray(message.content)) return undefined;
    const calls = message.content.flatMap((block) =>
      isRecord(block) && block.type === "tool_result" && typeof block.tool_use_id === "string"
        ? [block.tool_use_id]
        : []
    );
    return calls.length > 0 ? { kind: "result", calls } : undefined;
  }
  const usage = usageOf(entry, sidechainFile);
  return usage
    ? { kind: "response", messageId: usage.messageId, version: usage.version }
    : undefined;
}

function* stringsIn(value: unknown, depth: number): Generator<string> {
  if (typeof value === "string") yield value;
  else if (depth > 0 && typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) yield* stringsIn(item, depth - 1);
  }
}

const TOKEN_USAGE = /<system_warning>Token usage: (\d+)\/(\d+)/;

/**
 * A `Token usage: X/Y` warning in a line's raw text: the PRD's second source. No release measured
 * writes one to transcripts, but such a reading would be exact.
 */
export function tokenUsageIn(line: string): { used: number; window: number } | undefined {
  const match = TOKEN_USAGE.exec(line);
  if (!match) return undefined;
  const used = Number(match[1]);
  const window = Number(match[2]);
  return window > 0 ? { used, window } : undefined;
}
