/**
 * Hand-written checks of the shapes every hook call validates, so a call builds no zod schema.
 * The zod schemas stay the truth: tests/unit/schemas/guards_test.ts proves on a seeded corpus that
 * each guard accepts exactly what its schema accepts.
 */
import type { ContextWindow, HookPayload } from "./payload.ts";
import type { State } from "./state.ts";
import type { StatuslineInput, StatuslineRecord } from "./statusline.ts";

type Fields = { [key: string]: unknown };
type Check = (value: unknown) => boolean;

/** zod's object test: any non-null object that is not an array (a Map or Date passes too). */
export function isObject(value: unknown): value is Fields {
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
export const isString = (value: unknown) => typeof value === "string";
const nonEmpty = (value: unknown) => typeof value === "string" && value.length > 0;
/** `z.nullable(...)`: null or what `check` accepts. */
const orNull = (check: Check) => (value: unknown) => value === null || check(value);
/** `z.optional(...)`: absent (undefined) or what `check` accepts. */
const optional = (value: unknown, check: Check) => value === undefined || check(value);

/** Each of `keys` in `fields` absent or passing `check`. */
function allOptional(fields: Fields, keys: readonly string[], check: Check): boolean {
  for (let i = 0; i < keys.length; i++) if (!optional(fields[keys[i]!], check)) return false;
  return true;
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
    allOptional(value, PAYLOAD_STRINGS, isString);
}

const USAGE = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"];
const isNullableNumber = orNull(isNumber);

/** Same as `ContextWindowSchema.safeParse(value).success` (src/schemas/payload.ts). */
export function isContextWindow(value: unknown): value is ContextWindow {
  if (!isObject(value) || !optional(value.used_percentage, isNullableNumber)) return false;
  if (!optional(value.context_window_size, isNullableNumber)) return false;
  const current = value.current_usage;
  if (current === undefined || current === null || isNumber(current)) return true;
  return isObject(current) && allOptional(current, USAGE, isNumber);
}

const STATE_COUNTS = "epoch firedAt checkedTo provenWindow compactedAt compactedFrom".split(" ");
const STATE_STRINGS = "compactPrompt claudeSettings provenModel provenVersion agentTranscript"
  .split(" ");
const DELIVERY_STATUSES: readonly unknown[] = ["pending", "delivered", "given up", "unrecorded"];

/** Same as `DeliverySchema.safeParse(value).success` (src/schemas/state.ts). */
function isDelivery(d: unknown): boolean {
  return isObject(d) && isString(d.refresh) && isString(d.call) && isCount(d.at) &&
    isCount(d.sent) && DELIVERY_STATUSES.includes(d.status) && optional(d.reason, isString);
}
const isDeliveries = (value: unknown) => isArrayOf(value, isDelivery);
function isChain(c: unknown): boolean {
  return isObject(c) && isString(c.tip) && optional(c.message, isString) &&
    isArrayOf(c.fired, isNumber) && optional(c.anchor, (a) => typeof a === "boolean");
}
const isAfterCompact = (value: unknown) => value === "pending" || value === "delivered";
/** `z.record(z.string(), z.number())` */
const isNumberRecord = (value: unknown) =>
  isObject(value) && isArrayOf(Object.values(value), isNumber);

/** Same as `StateSchema.safeParse(value).success` (src/schemas/state.ts). */
export function isState(value: unknown): value is State {
  return isObject(value) && isArrayOf(value.fired, isNumber) && isCount(value.toolCount) &&
    allOptional(value, STATE_COUNTS, isCount) && allOptional(value, STATE_STRINGS, isString) &&
    optional(value.firedPercent, isNumber) && optional(value.afterCompact, isAfterCompact) &&
    optional(value.firedWindow, isNumberRecord) && optional(value.deliveries, isDeliveries) &&
    optional(value.results, isNumberRecord) &&
    optional(value.chains, (v) => isArrayOf(v, isChain)) &&
    optional(value.forked, (v) => typeof v === "boolean");
}

const RECORD_NUMBERS = ["tokens", "window", "transcriptSize"];
const RECORD_STRINGS = ["model", "transcriptPath"];

/** Same as `StatuslineRecordSchema.safeParse(value).success` (src/schemas/statusline.ts). */
export function isStatuslineRecord(value: unknown): value is StatuslineRecord {
  return isObject(value) && isString(value.sessionId) && isNumber(value.recordedAt) &&
    isNumber(value.percent) && allOptional(value, RECORD_NUMBERS, isNumber) &&
    allOptional(value, RECORD_STRINGS, isString);
}

const isNullableString = orNull(isString);
const isModel = orNull((m) => isObject(m) && optional(m.id, isNullableString));

/** Same as `StatuslineInputSchema.safeParse(value).success` (src/schemas/statusline.ts). */
export function isStatuslineInput(value: unknown): value is StatuslineInput {
  return isObject(value) && nonEmpty(value.session_id) &&
    optional(value.transcript_path, isNullableString) && optional(value.model, isModel);
}

/** The state of a context nothing has happened in. */
export const EMPTY_STATE: State = { fired: [], toolCount: 0, epoch: 0 };
