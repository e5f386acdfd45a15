/**
 * Hand-written checks for the shapes validated on every hook call (stdin payload, state file,
 * statusline record), so a call builds no zod schema. The zod schemas beside this file stay the
 * truth: tests/unit/schemas/guards_test.ts checks on a large seeded corpus (valid, mutated,
 * hostile) that each guard accepts exactly what its schema accepts.
 */
import type { ContextWindow, HookPayload } from "./payload.ts";
import type { State } from "./state.ts";
import type { StatuslineInput, StatuslineRecord } from "./statusline.ts";

type Fields = { [key: string]: unknown };
type Check = (value: unknown) => boolean;

/** zod's object test: any non-null object that is not an array (a Map or Date passes too). */
function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value[key]` when `value` is a plain object with that key of its own, else undefined. */
export function fieldOf(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** zod's `z.number()`: finite numbers only. */
const isNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);
/** `z.number().check(z.int(), z.nonnegative())`: zod's int is a safe integer. */
const isCount = (value: unknown) => isNumber(value) && Number.isSafeInteger(value) && value >= 0;
const isString = (value: unknown) => typeof value === "string";
const nonEmpty = (value: unknown) => typeof value === "string" && value.length > 0;
/** `z.nullable(...)`: null or what `check` accepts. */
const orNull = (check: Check) => (value: unknown) => value === null || check(value);

/** Every `keys` of `fields` absent (undefined) or passing `check`: `z.optional(...)`. */
function optional(fields: Fields, keys: readonly string[], check: Check): boolean {
  return keys.every((key) => fields[key] === undefined || check(fields[key]));
}

/** A dense array whose every item passes `check` (zod reads a hole as undefined). */
function isArrayOf(value: unknown, check: Check): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!check(value[i])) return false;
  return true;
}

const PAYLOAD_STRINGS = ("transcript_path cwd tool_name tool_use_id agent_id agent_type " +
  "agent_transcript_path source prompt_id").split(" ");

/** Same as `HookPayloadSchema.safeParse(value).success` (src/schemas/payload.ts). */
export function isHookPayload(value: unknown): value is HookPayload {
  return isObject(value) && nonEmpty(value.session_id) && nonEmpty(value.hook_event_name) &&
    optional(value, PAYLOAD_STRINGS, isString);
}

const USAGE_NUMBERS = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"];

/** Same as `ContextWindowSchema.safeParse(value).success` (src/schemas/payload.ts). */
export function isContextWindow(value: unknown): value is ContextWindow {
  if (!isObject(value)) return false;
  if (!optional(value, ["used_percentage", "context_window_size"], orNull(isNumber))) return false;
  const current = value.current_usage;
  if (current === undefined || current === null || isNumber(current)) return true;
  return isObject(current) && optional(current, USAGE_NUMBERS, isNumber);
}

const STATE_COUNTS = "epoch firedAt checkedTo provenWindow compactedAt".split(" ");
const STATE_STRINGS = "compactPrompt claudeSettings provenModel provenVersion agentTranscript"
  .split(" ");
const DELIVERY_STATUSES: readonly unknown[] = ["pending", "delivered", "given up"];

/** Same as `DeliverySchema.safeParse(value).success` (src/schemas/state.ts). */
function isDelivery(d: unknown): boolean {
  return isObject(d) && isString(d.refresh) && isString(d.call) && isCount(d.at) &&
    isCount(d.sent) && DELIVERY_STATUSES.includes(d.status) && optional(d, ["reason"], isString);
}

/** Same as `StateSchema.safeParse(value).success` (src/schemas/state.ts). */
export function isState(value: unknown): value is State {
  return isObject(value) && isArrayOf(value.fired, isNumber) && isCount(value.toolCount) &&
    optional(value, STATE_COUNTS, isCount) && optional(value, STATE_STRINGS, isString) &&
    optional(value, ["firedPercent"], isNumber) &&
    optional(value, ["afterCompact"], (v) => v === "pending" || v === "delivered") &&
    // `z.record(z.string(), z.number())`
    optional(value, ["firedWindow"], (v) => isObject(v) && Object.values(v).every(isNumber)) &&
    optional(value, ["deliveries"], (v) => isArrayOf(v, isDelivery));
}

/** Same as `StatuslineRecordSchema.safeParse(value).success` (src/schemas/statusline.ts). */
export function isStatuslineRecord(value: unknown): value is StatuslineRecord {
  return isObject(value) && isString(value.sessionId) && isNumber(value.recordedAt) &&
    isNumber(value.percent) && optional(value, ["tokens", "window", "transcriptSize"], isNumber) &&
    optional(value, ["model", "transcriptPath"], isString);
}

/** Same as `StatuslineInputSchema.safeParse(value).success` (src/schemas/statusline.ts). */
export function isStatuslineInput(value: unknown): value is StatuslineInput {
  return isObject(value) && nonEmpty(value.session_id) &&
    optional(value, ["transcript_path"], orNull(isString)) &&
    optional(value, ["model"], orNull((m) => isObject(m) && optional(m, ["id"], orNull(isString))));
}

/** The state of a context nothing has happened in. */
export const EMPTY_STATE: State = { fired: [], toolCount: 0, epoch: 0 };
