/**
 * What one parsed transcript line means to this hook: a context-size reading, a compaction
 * marker, or a refresh this hook injected earlier. Pure; the rules are the measured ones in
 * claude-code-facts.md (top-level assistant entries only, no API errors, no all-zero usage).
 */
import * as z from "zod/mini";
import { parseRefreshHeader } from "./header.ts";

const count = z.optional(z.nullable(z.number()));

const AssistantEntrySchema = z.looseObject({
  type: z.literal("assistant"),
  isSidechain: z.optional(z.nullable(z.boolean())),
  isApiErrorMessage: z.optional(z.nullable(z.boolean())),
  timestamp: z.optional(z.string()),
  message: z.looseObject({
    id: z.optional(z.string()),
    model: z.optional(z.string()),
    content: z.optional(z.unknown()),
    usage: z.looseObject({
      input_tokens: count,
      cache_creation_input_tokens: count,
      cache_read_input_tokens: count,
    }),
  }),
});

// Built on first use (`z.lazy`): most calls never meet a marker or a refresh attachment.
const MarkerSchema = z.lazy(() =>
  z.union([
    z.looseObject({ type: z.literal("system"), subtype: z.literal("compact_boundary") }),
    z.looseObject({ type: z.literal("user"), isCompactSummary: z.literal(true) }),
  ])
);

const RefreshAttachmentSchema = z.lazy(() =>
  z.looseObject({
    type: z.literal("attachment"),
    attachment: z.looseObject({ type: z.literal("hook_additional_context") }),
  })
);

/** A context-size reading taken from one assistant entry. */
export interface EntryUsage {
  /** `input + cache_creation + cache_read` tokens: Claude Code's own formula. */
  tokens: number;
  model: string | undefined;
  messageId: string | undefined;
  toolUseIds: string[];
  timestamp: string | undefined;
}

/**
 * The usage an entry reports, or undefined when it must not count: not a top-level assistant
 * entry, a sidechain entry (unless `sidechainFile`, a subagent's own transcript), an API error,
 * the `<synthetic>` model, or all-zero usage (in-flight entries preserved across a compaction).
 */
export function usageOf(entry: unknown, sidechainFile: boolean): EntryUsage | undefined {
  const parsed = AssistantEntrySchema.safeParse(entry);
  if (!parsed.success) return undefined;
  const { isSidechain, isApiErrorMessage, message, timestamp } = parsed.data;
  if (isSidechain === true && !sidechainFile) return undefined;
  if (isApiErrorMessage === true || message.model === "<synthetic>") return undefined;
  const { usage } = message;
  const tokens = (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0);
  if (!(tokens > 0)) return undefined;
  return {
    tokens,
    model: message.model,
    messageId: message.id,
    toolUseIds: toolUseIdsOf(message.content),
    timestamp,
  };
}

function toolUseIdsOf(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  const ids: string[] = [];
  for (const block of content) {
    if (typeof block === "object" && block !== null && "type" in block && "id" in block) {
      if (block.type === "tool_use" && typeof block.id === "string") ids.push(block.id);
    }
  }
  return ids;
}

/**
 * True for a compaction marker: a `compact_boundary` system entry (2.x) or a compact-summary user
 * entry (the only marker 1.0.x writes). `summary` entries are session titles, not markers.
 */
export function isCompactionMarker(entry: unknown): boolean {
  return MarkerSchema.safeParse(entry).success;
}

/**
 * The thresholds named by a refresh this hook injected, when `entry` is the transcript's record
 * of it (a `hook_additional_context` attachment whose text starts with a header carrying
 * `token`); otherwise undefined.
 */
export function refreshRecordedIn(entry: unknown, token: string): number[] | undefined {
  const parsed = RefreshAttachmentSchema.safeParse(entry);
  if (!parsed.success) return undefined;
  for (const text of stringsIn(parsed.data.attachment, 3)) {
    const thresholds = parseRefreshHeader(text, token);
    if (thresholds) return thresholds;
  }
  return undefined;
}

function* stringsIn(value: unknown, depth: number): Generator<string> {
  if (typeof value === "string") yield value;
  else if (depth > 0 && typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) yield* stringsIn(item, depth - 1);
  }
}

const TOKEN_USAGE = /<system_warning>Token usage: (\d+)\/(\d+)/;

/**
 * A `Token usage: X/Y` warning in a line's raw text. Claude Code writes none to transcripts
 * today (measured), but a reading there would be exact, so it is honoured if one ever appears.
 */
export function tokenUsageIn(line: string): { used: number; window: number } | undefined {
  const match = TOKEN_USAGE.exec(line);
  if (!match) return undefined;
  const used = Number(match[1]);
  const window = Number(match[2]);
  return window > 0 ? { used, window } : undefined;
}
