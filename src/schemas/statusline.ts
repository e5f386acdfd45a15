/**
 * The statusLine command's stdin as the bridge reads it, and the record it keeps per session; and
 * their guards. Unknown fields are kept and ignored.
 */
import { allOptional, isNumber, isObject, isString, nonEmpty, optional, orNull } from "./guards.ts";

/** What the statusline bridge recorded of a session's last reading. */
export interface StatuslineRecord {
  sessionId: string;
  recordedAt: number; // ms since the epoch
  percent: number;
  tokens?: number | undefined;
  window?: number | undefined;
  model?: string | undefined;
  transcriptPath?: string | undefined;
  transcriptSize?: number | undefined; // entries starting before it were written already
}

/** The statusLine command's stdin, as far as the bridge reads it. */
export interface StatuslineInput {
  session_id: string; // not empty
  transcript_path?: string | null | undefined;
  model?: { id?: string | null | undefined } | null | undefined;
  context_window?: unknown;
}

const RECORD_NUMBERS = ["tokens", "window", "transcriptSize"];
const RECORD_STRINGS = ["model", "transcriptPath"];

/** Whether `value` is a {@link StatuslineRecord}: its numbers finite, its fields typed. */
export function isStatuslineRecord(value: unknown): value is StatuslineRecord {
  return isObject(value) && isString(value.sessionId) && isNumber(value.recordedAt) &&
    isNumber(value.percent) && allOptional(value, RECORD_NUMBERS, isNumber) &&
    allOptional(value, RECORD_STRINGS, isString);
}

const isNullableString = orNull(isString);
const isModel = orNull((m) => isObject(m) && optional(m.id, isNullableString));

/** Whether `value` is a {@link StatuslineInput}: a `session_id`, the rest absent, null or typed. */
export function isStatuslineInput(value: unknown): value is StatuslineInput {
  return isObject(value) && nonEmpty(value.session_id) &&
    optional(value.transcript_path, isNullableString) && optional(value.model, isModel);
}
