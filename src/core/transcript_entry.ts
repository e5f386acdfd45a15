/** What one transcript line means to this hook; checked by hand, not zod: it runs on every call. */
import { CANCELLED_ATTACHMENT, COMPACT_BOUNDARY, DELIVERED_ATTACHMENT } from "./claude_code.ts";
import { FORK_CONTEXT_REF, RAN_ATTACHMENT } from "./claude_code.ts";
import { isObject } from "../schemas/guards.ts";

const decoder = new TextDecoder();

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

export const text = (value: unknown) => typeof value === "string" ? value : undefined;

/** A finite number of at least 0 (a token count, a share), else undefined. */
export const count = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;

function optional(value: unknown, type: "string" | "number" | "boolean", nullable = false) {
  return value === undefined || (nullable && value === null) || typeof value === type;
}

/** `tokens`: `input + cache_creation + cache_read`, Claude Code's own formula. */
export interface EntryUsage {
  tokens: number;
  toolUseIds: string[];
  model?: string | undefined;
  messageId?: string | undefined;
  timestamp?: string | undefined;
  outputTokens?: number | undefined;
  version?: string | undefined;
}

/**
 * The usage of an assistant entry that counts: not a sidechain's (unless `sidechainFile`), an API
 * error, `<synthetic>`, or all zeros (in-flight entries kept across a compaction).
 */
export function usageOf(entry: unknown, sidechainFile: boolean): EntryUsage | undefined {
  if (!isObject(entry) || entry.type !== "assistant") return undefined;
  const { isSidechain, isApiErrorMessage, message, timestamp, version } = entry;
  if (!optional(isSidechain, "boolean", true) || !optional(isApiErrorMessage, "boolean", true)) {
    return undefined;
  }
  if (!optional(timestamp, "string") || !isObject(message)) return undefined;
  const { id, model, usage } = message;
  if (!optional(id, "string") || !optional(model, "string") || !isObject(usage)) return undefined;
  const parts = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"]
    .map((key) => usage[key]);
  if (!parts.every((part) => optional(part, "number", true))) return undefined;
  if (isSidechain === true && !sidechainFile) return undefined;
  if (isApiErrorMessage === true || model === "<synthetic>") return undefined;
  const tokens = parts.reduce<number>((sum, p) => sum + (typeof p === "number" ? p : 0), 0);
  if (!(tokens > 0)) return undefined;
  return {
    tokens,
    model: text(model),
    messageId: text(id),
    toolUseIds: idsOf(message.content, "tool_use", "id"),
    timestamp: text(timestamp),
    outputTokens: typeof usage.output_tokens === "number" && Number.isFinite(usage.output_tokens)
      ? usage.output_tokens
      : undefined,
    version: text(version),
  };
}

/** `entry` is an assistant entry holding `toolUseId`, whatever its usage (a gateway writes 0s). */
export function holdsToolUse(entry: unknown, toolUseId: string): boolean {
  if (!isObject(entry) || entry.type !== "assistant" || !isObject(entry.message)) return false;
  return idsOf(entry.message.content, "tool_use", "id").includes(toolUseId);
}

/** The `key` of each block of `type` in a message's content. */
function idsOf(content: unknown, type: string, key: string): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) => {
    const id = isObject(block) && block.type === type ? block[key] : undefined;
    return typeof id === "string" ? [id] : [];
  });
}

/** An entry's place in its chain: ids, and whether it is a user's turn (no tool result) or a marker. */
export function chainLinkOf(entry: unknown) {
  if (!isObject(entry) || typeof entry.uuid !== "string") return undefined;
  const message = isObject(entry.message) ? entry.message : {};
  return {
    uuid: entry.uuid,
    parent: text(entry.parentUuid),
    message: entry.type === "assistant" ? text(message.id) : undefined,
    turn: entry.type === "user" &&
      idsOf(message.content, "tool_result", "tool_use_id").length === 0,
    marker: isCompactionMarker(entry),
  };
}

/** A `compact_boundary`'s trigger and the context size it compacted. */
export function compactionOf(entry: unknown) {
  if (!isObject(entry) || entry.type !== "system" || entry.subtype !== COMPACT_BOUNDARY) return;
  const meta = entry.compactMetadata;
  if (!isObject(meta) || typeof meta.preTokens !== "number" || !(meta.preTokens > 0)) return;
  return { trigger: text(meta.trigger), preTokens: meta.preTokens };
}

/** A compaction marker (`summary` entries are session titles, not markers). */
export function isCompactionMarker(entry: unknown): boolean {
  if (!isObject(entry)) return false;
  return (entry.type === "system" && entry.subtype === COMPACT_BOUNDARY) ||
    (entry.type === "user" && entry.isCompactSummary === true);
}

/** The parent session a fork's first line names, and the last entry the fork took from it. */
export function forkReferenceOf(entry: unknown) {
  if (!isObject(entry) || entry.type !== FORK_CONTEXT_REF) return undefined;
  const { parentSessionId, parentLastUuid } = entry;
  if (typeof parentSessionId !== "string" || parentSessionId === "") return undefined;
  if (typeof parentLastUuid !== "string" || parentLastUuid === "") return undefined;
  return { parentSessionId, parentLastUuid };
}

/** What one line records of a compaction or of hook answers. */
type RecordLine =
  | { kind: "compacted"; boundary: ReturnType<typeof compactionOf> }
  | { kind: "answer"; call: string | undefined; texts: string[] }
  | { kind: "cancelled"; call: string }
  | { kind: "ran"; call: string; event: string | undefined }
  | { kind: "result"; calls: string[] }
  | { kind: "response"; messageId: string | undefined; version: string | undefined };

/**
 * What a line records, as the walks back shared with the other hosts (io/host_lines.ts) and the
 * replay read it: a compaction marker (and its boundary, when it is one), a hook's answer (its
 * texts), its cancellation or its run, tool results, or a response; `sidechain`: a subagent's.
 */
export function recordLineOf(entry: unknown): (RecordLine & { sidechain?: true }) | undefined {
  const line = recordOf(entry);
  return line && isObject(entry) && entry.isSidechain === true
    ? { ...line, sidechain: true }
    : line;
}

function recordOf(entry: unknown): RecordLine | undefined {
  if (isCompactionMarker(entry)) return { kind: "compacted", boundary: compactionOf(entry) };
  if (!isObject(entry)) return undefined;
  if (entry.type === "attachment") {
    const attachment = entry.attachment;
    if (!isObject(attachment)) return undefined;
    const call = text(attachment.toolUseID);
    if (attachment.type === DELIVERED_ATTACHMENT) {
      return { kind: "answer", call, texts: [...stringsIn(attachment, 3)] };
    }
    if (call === undefined) return undefined;
    if (attachment.type === CANCELLED_ATTACHMENT) return { kind: "cancelled", call };
    if (attachment.type === RAN_ATTACHMENT) {
      return { kind: "ran", call, event: text(attachment.hookEvent) };
    }
    return undefined;
  }
  if (entry.type === "user") {
    const message = isObject(entry.message) ? entry.message : {};
    const calls = idsOf(message.content, "tool_result", "tool_use_id");
    return calls.length > 0 ? { kind: "result", calls } : undefined;
  }
  // Sidechain entries too: the reader tells a subagent's own file.
  const usage = usageOf(entry, true);
  return usage && { kind: "response", messageId: usage.messageId, version: usage.version };
}

function* stringsIn(value: unknown, depth: number): Generator<string> {
  if (typeof value === "string") yield value;
  else if (depth > 0 && typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) yield* stringsIn(item, depth - 1);
  }
}

const TOKEN_USAGE = /<system_warning>Token usage: (\d+)\/(\d+)/;

/** A `Token usage: X/Y` warning (PRD 005's second source): written by no release, but exact. */
export function tokenUsageIn(line: string): { used: number; window: number } | undefined {
  const match = TOKEN_USAGE.exec(line);
  const [used, window] = [Number(match?.[1]), Number(match?.[2])];
  return window > 0 ? { used, window } : undefined;
}
