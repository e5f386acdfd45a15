/**
 * The subset of Claude Code's hook payload this program reads, and its guards; loose, so new
 * fields never break it (unknown fields are kept and ignored).
 */
import { allOptional, isNumber, isObject, isString, nonEmpty, optional, orNull } from "./guards.ts";

/** `context_window` as the statusLine stdin carries it (and PostToolUse might one day). */
export interface ContextWindow {
  used_percentage?: number | null | undefined;
  context_window_size?: number | null | undefined;
  current_usage?: number | Usage | null | undefined;
  total_input_tokens?: unknown; // read only when `current_usage` is absent, and only if a number
}

/** `context_window.current_usage` when it is an object. */
interface Usage {
  input_tokens?: number | undefined;
  cache_creation_input_tokens?: number | undefined;
  cache_read_input_tokens?: number | undefined;
}

/** Every hook event shares these; only `session_id` and `hook_event_name` are required. */
export interface HookPayload {
  session_id: string; // not empty
  hook_event_name: string; // not empty
  transcript_path?: string | undefined;
  cwd?: string | undefined;
  tool_name?: string | undefined;
  tool_use_id?: string | undefined;
  agent_id?: string | undefined;
  agent_type?: string | undefined;
  agent_transcript_path?: string | undefined;
  source?: string | undefined;
  prompt_id?: string | undefined;
  model?: unknown;
  context_window?: unknown;
  tool_response?: unknown; // PostToolUse's result: sized, never read
  error?: unknown; // PostToolUseFailure's, likewise
}

const PAYLOAD_STRINGS = ("transcript_path cwd tool_name tool_use_id agent_id agent_type " +
  "agent_transcript_path source prompt_id").split(" ");

/** Whether `value` is a {@link HookPayload}: an object with the required and typed fields. */
export function isHookPayload(value: unknown): value is HookPayload {
  return isObject(value) && nonEmpty(value.session_id) && nonEmpty(value.hook_event_name) &&
    allOptional(value, PAYLOAD_STRINGS, isString);
}

const USAGE = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"];
const isNullableNumber = orNull(isNumber);

/** Whether `value` is a {@link ContextWindow}: each field absent, null or a finite number. */
export function isContextWindow(value: unknown): value is ContextWindow {
  if (!isObject(value) || !optional(value.used_percentage, isNullableNumber)) return false;
  if (!optional(value.context_window_size, isNullableNumber)) return false;
  const current = value.current_usage;
  if (current === undefined || current === null || isNumber(current)) return true;
  return isObject(current) && allOptional(current, USAGE, isNumber);
}
