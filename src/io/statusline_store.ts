/**
 * The statusline bridge's record: the context reading Claude Code hands its `statusLine` command,
 * kept per session in the state folder so the hook can prefer it while it is fresh.
 */
import { join } from "../core/path.ts";
import type { Reading } from "../core/decide.ts";
import { absurdFigure, figuresOf } from "../core/context_window.ts";
import { percentOf } from "../core/window.ts";
import { isContextWindow, isStatuslineInput, isStatuslineRecord } from "../schemas/guards.ts";
import type { StatuslineRecord } from "../schemas/statusline.ts";
import { sessionKeyOf, writeJsonAtomically } from "./state_store.ts";
import { STATUSLINE_MAX_AGE_MS } from "../core/claude_code.ts";

export type { StatuslineRecord } from "../schemas/statusline.ts";

const MAX_RECORD_BYTES = 16 * 1024;

/**
 * The record for a statusLine stdin, or why there is none (no session, no reading yet: Claude
 * Code sends `used_percentage: null` before the first response). Pure.
 */
export function recordFromStatusline(
  input: unknown,
  recordedAt: number,
  transcriptSize: number | undefined,
): { record: StatuslineRecord } | { error: string } {
  // Guards proven equal to the schemas in src/schemas/statusline.ts: no schema built per call.
  if (!isStatuslineInput(input)) {
    return { error: "stdin is not a statusLine payload with a session_id" };
  }
  const cw = input.context_window;
  if (!isContextWindow(cw)) return { error: "context_window is missing or not an object" };
  const absurd = absurdFigure(cw);
  if (absurd !== undefined) return { error: `not a reading Claude Code sends: ${absurd}` };
  const figures = figuresOf(cw);
  if (figures === undefined) {
    return { error: "no context reading yet (used_percentage is null)" };
  }
  const { percent, tokens, window } = figures;
  const record: StatuslineRecord = { sessionId: input.session_id, recordedAt, percent };
  if (tokens !== undefined) record.tokens = tokens;
  if (window !== undefined) record.window = window;
  const model = input.model?.id;
  if (model) record.model = model;
  if (input.transcript_path) record.transcriptPath = input.transcript_path;
  if (transcriptSize !== undefined) record.transcriptSize = transcriptSize;
  return { record };
}

/** The record's path for a session. */
// deno-lint-ignore require-await
export async function statuslinePath(dir: string, sessionId: string): Promise<string> {
  return statuslinePathFor(dir, sessionKeyOf(sessionId));
}

/** The record's path from the session's key (`StatePaths.sessionKey`). */
export function statuslinePathFor(dir: string, sessionKey: string): string {
  return join(dir, `lessons-${sessionKey}-statusline.json`);
}

/** Writes `record` atomically, like the state file. */
export async function saveStatusline(dir: string, record: StatuslineRecord): Promise<string> {
  const path = await statuslinePath(dir, record.sessionId);
  writeJsonAtomically(path, record);
  return path;
}

/** The session's record, or undefined when absent, unreadable or malformed. */
export async function loadStatusline(
  dir: string,
  sessionId: string,
  sessionKey?: string,
): Promise<StatuslineRecord | undefined> {
  try {
    // `sessionKey` (from statePaths) saves hashing the session id again.
    const path = sessionKey === undefined
      ? await statuslinePath(dir, sessionId)
      : statuslinePathFor(dir, sessionKey);
    // Sync: this runs on every hook call, where an async op's thread hop costs more.
    const info = Deno.lstatSync(path);
    if (!info.isFile || info.size > MAX_RECORD_BYTES) return undefined;
    const record: unknown = JSON.parse(Deno.readTextFileSync(path));
    return isStatuslineRecord(record) && record.sessionId === sessionId ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Where the transcript's newest usage sits, to tell whether the record is newer. */
export interface UsageMark {
  /** Byte offset of the usage entry. */
  offset: number;
  timestamp?: string | undefined;
}

/**
 * True when the record may be used now: at most `maxAgeMs` old and not older than the
 * transcript's newest usage (recorded after that entry was written). Pure.
 */
export function isFresh(
  record: StatuslineRecord,
  now: number,
  usage: UsageMark | undefined,
  maxAgeMs = STATUSLINE_MAX_AGE_MS,
): boolean {
  const age = now - record.recordedAt;
  if (age < 0 || age > maxAgeMs) return false;
  if (usage === undefined) return true;
  if (record.transcriptSize !== undefined) return record.transcriptSize > usage.offset;
  const written = usage.timestamp === undefined ? NaN : Date.parse(usage.timestamp);
  return Number.isFinite(written) && written <= record.recordedAt;
}

/** The record as a reading; `windowOverride` (LESSONS_CONTEXT_WINDOW) still wins. */
export function statuslineToReading(
  record: StatuslineRecord,
  windowOverride: number | undefined,
): Reading {
  if (windowOverride !== undefined && record.tokens !== undefined) {
    return {
      kind: "reading",
      source: "statusline",
      percent: percentOf(record.tokens, windowOverride),
      tokens: record.tokens,
      window: windowOverride,
      windowSource: "env LESSONS_CONTEXT_WINDOW",
      model: record.model,
    };
  }
  return {
    kind: "reading",
    source: "statusline",
    percent: record.percent,
    tokens: record.tokens,
    window: record.window,
    windowSource: record.window === undefined ? undefined : "reported by Claude Code",
    model: record.model,
  };
}

/**
 * The statusline reading for a main-thread call when a fresh one exists (a subagent's context is
 * not the one the statusline shows), else undefined.
 */
export async function bridgedReading(
  dir: string,
  sessionId: string,
  agentId: string | undefined,
  windowOverride: number | undefined,
  usage: UsageMark | undefined,
  now = Date.now(),
  sessionKey?: string,
): Promise<Reading | undefined> {
  if (agentId) return undefined;
  const record = await loadStatusline(dir, sessionId, sessionKey);
  if (!record || !isFresh(record, now, usage)) return undefined;
  return statuslineToReading(record, windowOverride);
}
