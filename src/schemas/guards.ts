/**
 * Hand-written checks for the shapes validated on every hook call (stdin payload, state file,
 * statusline record), so a call builds no zod schema. The zod schemas beside this file stay the
 * source of truth: tests/unit/schemas/guards_test.ts checks on a large seeded corpus (valid,
 * mutated, hostile) that each guard accepts exactly what its schema accepts.
 */
import type { ContextWindow, HookPayload } from "./payload.ts";
import type { State } from "./state.ts";
import type { StatuslineInput, StatuslineRecord } from "./statusline.ts";

type Fields = { [key: string]: unknown };

/** zod's object test: any non-null object that is not an array (a Map or Date passes too). */
function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** zod's `z.number()`: finite numbers only. */
function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** `z.number().check(z.int(), z.nonnegative())`: zod's int is a safe integer. */
function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

function optionalNumber(value: unknown): boolean {
  return value === undefined || isNumber(value);
}

function nullableNumber(value: unknown): boolean {
  return value === undefined || value === null || isNumber(value);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

/** A dense array of finite numbers (zod reads a hole as undefined, which is not a number). */
function isNumberArray(value: unknown): value is number[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!isNumber(value[i])) return false;
  return true;
}

/** Same as `HookPayloadSchema.safeParse(value).success` (src/schemas/payload.ts). */
export function isHookPayload(value: unknown): value is HookPayload {
  if (!isObject(value)) return false;
  return nonEmptyString(value.session_id) && nonEmptyString(value.hook_event_name) &&
    optionalString(value.transcript_path) && optionalString(value.cwd) &&
    optionalString(value.tool_name) && optionalString(value.tool_use_id) &&
    optionalString(value.agent_id) && optionalString(value.agent_type) &&
    optionalString(value.agent_transcript_path) && optionalString(value.source) &&
    optionalString(value.prompt_id);
}

/** Same as `ContextWindowSchema.safeParse(value).success` (src/schemas/payload.ts). */
export function isContextWindow(value: unknown): value is ContextWindow {
  if (!isObject(value)) return false;
  if (!nullableNumber(value.used_percentage) || !nullableNumber(value.context_window_size)) {
    return false;
  }
  const current = value.current_usage;
  if (current === undefined || current === null || isNumber(current)) return true;
  return isObject(current) && optionalNumber(current.input_tokens) &&
    optionalNumber(current.cache_creation_input_tokens) &&
    optionalNumber(current.cache_read_input_tokens);
}

/** Same as `StateSchema.safeParse(value).success` (src/schemas/state.ts). */
export function isState(value: unknown): value is State {
  if (!isObject(value)) return false;
  return isNumberArray(value.fired) && isCount(value.toolCount) &&
    (value.epoch === undefined || isCount(value.epoch)) &&
    (value.firedAt === undefined || isCount(value.firedAt)) &&
    optionalNumber(value.firedPercent) &&
    (value.checkedTo === undefined || isCount(value.checkedTo)) &&
    (value.afterCompact === undefined || value.afterCompact === "pending" ||
      value.afterCompact === "delivered") &&
    optionalString(value.compactPrompt) &&
    (value.firedWindow === undefined || isNumberRecord(value.firedWindow)) &&
    (value.provenWindow === undefined || isCount(value.provenWindow)) &&
    (value.compactedAt === undefined || isCount(value.compactedAt)) &&
    optionalString(value.claudeSettings) &&
    optionalString(value.provenModel) && optionalString(value.provenVersion) &&
    optionalString(value.agentTranscript) &&
    (value.deliveries === undefined || isDeliveryArray(value.deliveries));
}

const DELIVERY_STATUSES: readonly unknown[] = ["pending", "delivered", "given up", "unrecorded"];

/** Same as `z.array(DeliverySchema)` (src/schemas/state.ts), holes rejected as zod does. */
function isDeliveryArray(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const d: unknown = value[i];
    if (
      !isObject(d) || typeof d.refresh !== "string" || typeof d.call !== "string" ||
      !isCount(d.at) || !isCount(d.sent) || !DELIVERY_STATUSES.includes(d.status) ||
      !optionalString(d.reason)
    ) return false;
  }
  return true;
}

/** A plain object whose every own value is a number (`z.record(z.string(), z.number())`). */
function isNumberRecord(value: unknown): boolean {
  return isObject(value) && Object.values(value).every((v) => isNumber(v));
}

/** Same as `StatuslineRecordSchema.safeParse(value).success` (src/schemas/statusline.ts). */
export function isStatuslineRecord(value: unknown): value is StatuslineRecord {
  if (!isObject(value)) return false;
  return typeof value.sessionId === "string" && isNumber(value.recordedAt) &&
    isNumber(value.percent) && optionalNumber(value.tokens) && optionalNumber(value.window) &&
    optionalString(value.model) && optionalString(value.transcriptPath) &&
    optionalNumber(value.transcriptSize);
}

/** Same as `StatuslineInputSchema.safeParse(value).success` (src/schemas/statusline.ts). */
export function isStatuslineInput(value: unknown): value is StatuslineInput {
  if (!isObject(value) || !nonEmptyString(value.session_id)) return false;
  const path = value.transcript_path;
  if (path !== undefined && path !== null && typeof path !== "string") return false;
  const model = value.model;
  if (model === undefined || model === null) return true;
  return isObject(model) && (model.id === undefined || model.id === null ||
    typeof model.id === "string");
}

/** The state of a context nothing has happened in. */
export const EMPTY_STATE: State = { fired: [], toolCount: 0, epoch: 0 };
