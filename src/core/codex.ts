/**
 * Codex CLI facts, each with its release, and what one rollout line means to this hook;
 * docs/maintainers/codex-facts.md says how each was measured (0.171.0, 2026-12-04).
 */
import { count, text } from "./transcript_entry.ts";
import { type Fields, isObject } from "../schemas/guards.ts";

/** Sessions' rollouts are under it: `$CODEX_HOME/sessions/YYYY/MM/DD/`. */
export const SESSIONS_DIR = "sessions";

/** The instruction files Codex reads in each folder, the override first; and in `$CODEX_HOME`. */
export const AGENTS_FILES: readonly string[] = ["AGENTS.override.md", "AGENTS.md"];

/** A hook answer Codex delivered is recorded as a developer message of this kind. */
export const HOOK_CONTEXT_KIND = "hooks.additional_context";

/** The text every compaction line of a rollout holds (its `type`). */
export const COMPACTED_KEY = '"compacted"';

/** Texts a line must hold to mean anything here: tested before parsing, which costs more. */
export const ROLLOUT_KEYS: readonly string[] = [
  '"token_count"',
  '"token_usage_record"',
  '"model_context_window"',
  COMPACTED_KEY,
  '_call"', // function_call, custom_tool_call, local_shell_call
  '_call_output"',
  HOOK_CONTEXT_KIND,
  '"turn_context"',
  '"session_meta"',
];

/** A session's rollout: `rollout-<time>-<session id>.jsonl`. */
export const isRolloutPath = (path: string | undefined): boolean =>
  path !== undefined && /(?:^|[\\/])rollout-[^\\/]*\.jsonl$/.test(path);

/** What one rollout line says; `usage`: a response's input tokens (the cached ones among them). */
export type RolloutLine =
  | { kind: "usage"; tokens: number; window?: number | undefined; record?: true }
  | { kind: "window"; window: number }
  | { kind: "call"; callId: string }
  | { kind: "output"; callId: string }
  | { kind: "answer"; texts: string[] }
  | { kind: "compacted" }
  | { kind: "model"; model: string }
  | { kind: "meta"; cwd: string | undefined; version: string | undefined };

/** `{timestamp, ordinal, type, payload}` as this hook reads it; anything else is undefined. */
export function rolloutLineOf(entry: unknown): RolloutLine | undefined {
  if (!isObject(entry) || !isObject(entry.payload)) return undefined;
  const payload = entry.payload;
  switch (entry.type) {
    case "compacted":
      return { kind: "compacted" };
    case "token_usage_record": {
      // Written before the call's hook (0.171.0); releases without it write only the count after.
      const found = usage(payload.usage, undefined);
      return found?.kind === "usage" ? { ...found, record: true } : found;
    }
    case "turn_context":
      return text(payload.model) ? { kind: "model", model: payload.model as string } : undefined;
    case "session_meta":
      return { kind: "meta", cwd: text(payload.cwd), version: text(payload.cli_version) };
    case "event_msg":
      return eventOf(payload);
    case "response_item":
      return itemOf(payload);
  }
  return undefined;
}

function usage(value: unknown, window: number | undefined): RolloutLine | undefined {
  const tokens = isObject(value) ? count(value.input_tokens) : undefined;
  if (tokens === undefined) return undefined;
  // A compaction writes a count of 0 for the new context: a window, not a reading.
  if (tokens === 0) return window ? { kind: "window", window } : undefined;
  return { kind: "usage", tokens, window };
}

function eventOf(payload: Fields): RolloutLine | undefined {
  if (payload.type === "token_count") {
    const info = isObject(payload.info) ? payload.info : undefined;
    const window = count(info?.model_context_window) || undefined;
    return info && usage(info.last_token_usage, window);
  }
  const window = count(payload.model_context_window);
  return payload.type === "task_started" && window ? { kind: "window", window } : undefined;
}

function itemOf(payload: Fields): RolloutLine | undefined {
  const callId = text(payload.call_id);
  const type = String(payload.type);
  if (callId && /_call_output$/.test(type)) return { kind: "output", callId };
  if (callId && /_call$/.test(type)) return { kind: "call", callId };
  if (payload.type !== "message" || payload.role !== "developer") return undefined;
  const meta = payload.internal_chat_message_metadata_passthrough;
  const kinds = isObject(meta) && Array.isArray(meta.content_item_kinds)
    ? meta.content_item_kinds
    : [];
  if (!kinds.includes(HOOK_CONTEXT_KIND) || !Array.isArray(payload.content)) return undefined;
  const texts = payload.content.flatMap((part) =>
    isObject(part) && text(part.text) ? [part.text as string] : []
  );
  return { kind: "answer", texts };
}

/** Where Codex runs a hook in a rollout read forward (`status --timeline`); as hook/replay.ts's. */
export type RolloutPoint =
  | { kind: "call"; end: number; toolUseId: string; tool: string; time: string | undefined }
  | { kind: "compaction"; end: number; trigger: string | undefined; preTokens: undefined }
  | { kind: "answer"; end: number; texts: string[] };

/**
 * Each call's hook runs once its response's usage is written (a `token_usage_record`, or before
 * 0.171.0 its `token_count`): the point is just past that line; a `compacted` line is a compaction;
 * a hook's answer is recorded after the call it answers (or the compaction, for SessionStart's).
 */
export function rolloutPointsOf(
  lines: Iterable<{ line: Uint8Array; end: number }>,
  parse: (bytes: Uint8Array) => unknown,
): RolloutPoint[] {
  const points: RolloutPoint[] = [];
  let pending: { id: string; time: string | undefined }[] = [];
  const flush = (end: number) => {
    for (const { id, time } of pending) {
      points.push({ kind: "call", end, toolUseId: id, tool: "Bash", time });
    }
    pending = [];
  };
  for (const { line, end } of lines) {
    const entry = parse(line);
    const found = rolloutLineOf(entry);
    if (found?.kind === "call") {
      const time = isObject(entry) ? text(entry.timestamp) : undefined;
      pending.push({ id: found.callId, time });
    } else if (found?.kind === "usage") flush(end + 1);
    else if (found?.kind === "answer") points.push({ kind: "answer", end, texts: found.texts });
    else if (found?.kind === "compacted") {
      flush(end + 1);
      points.push({ kind: "compaction", end: end + 1, trigger: "auto", preTokens: undefined });
    }
  }
  if (pending.length > 0) flush(points.at(-1)?.end ?? 0);
  return points;
}

/**
 * Codex keeps 95 % of the configured `model_context_window` as the window it states, and without
 * `model_auto_compact_token_limit` compacts at 90 % of the configured one (0.171.0: 178,000 of a
 * stated 190,000 did not compact, 184,000 did): 90/95 of the stated window.
 */
export const DEFAULT_COMPACT_SHARE = 0.9 / 0.95;

/** `model_auto_compact_token_limit` from a config.toml's top level (before its first table). */
export function autoCompactLimitOf(toml: string): number | undefined {
  const top = toml.split(/^\s*\[/m)[0] ?? "";
  const match = /^\s*model_auto_compact_token_limit\s*=\s*([0-9_]+)\s*(?:#.*)?$/m.exec(top);
  const value = match ? Number(match[1]!.replaceAll("_", "")) : NaN;
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
