/**
 * Gemini CLI facts, each with its release, and what one line of its conversation file means to
 * this hook; docs/maintainers/gemini-facts.md says how each was measured (0.61.0, 2026-12-07).
 */
import type { RolloutPoint } from "./codex.ts";
import { count, text } from "./transcript_entry.ts";
import { isObject } from "../schemas/guards.ts";

/** The tool-call event: a tool's result, before it is sent (0.61.0 has no failure event). */
export const AFTER_TOOL = "AfterTool";

/** Gemini's folder under the home (`GEMINI_CLI_HOME`, else the user's home). */
export const GEMINI_DIR = ".gemini";

/** The instruction file Gemini reads in each folder and in `~/.gemini`, unless `context.fileName`. */
export const CONTEXT_FILES: readonly string[] = ["GEMINI.md"];

/** The window by model: 1,048,576 for the Gemini models, 256,000 for Gemma 4 (`tokenLimit()`). */
export function windowOf(model: string | undefined): number {
  return model?.startsWith("gemma-4") ? 256_000 : 1_048_576;
}

/** A chat is compressed before a request whose previous prompt reached this share of the window. */
export const COMPRESSION_THRESHOLD = 0.5;

/** A compression's summary: the first message of the history that replaces the old one. */
export const SNAPSHOT_TAG = "<state_snapshot>";

/** A delivered `additionalContext` is appended to the tool's result inside these tags. */
export const HOOK_CONTEXT = /<hook_context>([\s\S]*?)<\/hook_context>/g;

/** Texts a line must hold to mean anything here: tested before parsing, which costs more. */
export const CHAT_KEYS: readonly string[] = [
  '"tokens"',
  SNAPSHOT_TAG,
  "functionResponse",
];

/** A session's conversation: `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`. */
export const isChatPath = (path: string | undefined): boolean =>
  path !== undefined && /(?:^|[\\/])chats[\\/]session-[^\\/]*\.jsonl$/.test(path);

/** What one line of the conversation file says. */
export type ChatLine =
  | { kind: "usage"; tokens: number; model: string | undefined; id: string }
  | { kind: "results"; results: { id: string; answers: string[] }[] }
  | { kind: "compacted" };

/** A user message's tool results: each call's id and the hook answers in its `<hook_context>`. */
function resultsOf(content: unknown): { id: string; answers: string[] }[] {
  return (Array.isArray(content) ? content : []).flatMap((part) => {
    const result = isObject(part) && isObject(part.functionResponse) && part.functionResponse;
    if (!result || !text(result.id)) return [];
    const output = isObject(result.response) ? text(result.response.output) ?? "" : "";
    return [{
      id: result.id as string,
      answers: [...output.matchAll(HOOK_CONTEXT)].map((m) => m[1]!),
    }];
  });
}

/**
 * A line as this hook reads it: a `gemini` message's `tokens.input` (its request's prompt, the
 * cached part included); a user message's tool results, with the hook answers delivered in them;
 * a `$set` of `messages` that starts with a snapshot (a compression).
 */
export function chatLineOf(entry: unknown): ChatLine | undefined {
  if (!isObject(entry)) return undefined;
  if (isObject(entry.$set)) {
    const messages = entry.$set.messages;
    const snapshot = Array.isArray(messages) &&
      messages.some((m) =>
        isObject(m) && m.type === "user" && Array.isArray(m.content) &&
        m.content.some((p) => isObject(p) && text(p.text)?.startsWith(SNAPSHOT_TAG))
      );
    return snapshot ? { kind: "compacted" } : undefined;
  }
  if (entry.type === "gemini" && isObject(entry.tokens)) {
    const tokens = count(entry.tokens.input);
    if (!tokens) return undefined;
    return { kind: "usage", tokens, model: text(entry.model), id: String(entry.id) };
  }
  if (entry.type === "user") {
    const results = resultsOf(entry.content);
    return results.length > 0 ? { kind: "results", results } : undefined;
  }
  return undefined;
}

/** `model.compressionThreshold` and `context.fileName` from a settings.json's value. */
export function settingsOf(raw: unknown): { threshold?: number; files?: string[] } {
  if (!isObject(raw)) return {};
  const out: { threshold?: number; files?: string[] } = {};
  const threshold = isObject(raw.model) ? count(raw.model.compressionThreshold) : undefined;
  if (threshold && threshold < 1) out.threshold = threshold;
  const name = isObject(raw.context) ? raw.context.fileName : undefined;
  const names = (Array.isArray(name) ? name : [name]).filter((n) => text(n)) as string[];
  if (names.length > 0) out.files = names;
  return out;
}

/** Where Gemini runs a call's AfterTool hook, in a file read forward (`status --timeline`). */
export type ChatPoint = Extract<RolloutPoint, { kind: "call" }>;

/**
 * Each call's hook runs once its response's message is written, before the message is written
 * again with its tool calls: a call's point is just past that first copy. A compression is no
 * point: the next call finds its marker, as the hook does.
 */
export function chatPointsOf(
  lines: Iterable<{ line: Uint8Array; end: number }>,
  parse: (bytes: Uint8Array) => unknown,
): ChatPoint[] {
  const points: ChatPoint[] = [];
  const firstEnd = new Map<string, number>();
  const done = new Set<string>();
  for (const { line, end } of lines) {
    const entry = parse(line);
    if (!isObject(entry) || entry.type !== "gemini" || !text(entry.id)) continue;
    const id = entry.id as string;
    if (!firstEnd.has(id)) firstEnd.set(id, end + 1);
    for (const call of Array.isArray(entry.toolCalls) ? entry.toolCalls : []) {
      if (!isObject(call) || !text(call.id) || done.has(call.id as string)) continue;
      done.add(call.id as string);
      const tool = text(call.name) ?? "tool";
      const time = text(entry.timestamp);
      points.push({
        kind: "call",
        end: firstEnd.get(id)!,
        toolUseId: call.id as string,
        tool,
        time,
      });
    }
  }
  return points;
}
