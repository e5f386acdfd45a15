/** The statusline bridge's record: Claude Code's own reading, kept per session while fresh. */
import { join } from "../core/path.ts";
import { absurdFigure, figuresOf } from "../core/reading.ts";
import { fieldOf } from "../schemas/guards.ts";
import { isContextWindow } from "../schemas/payload.ts";
import {
  isStatuslineInput,
  isStatuslineRecord,
  type StatuslineRecord,
} from "../schemas/statusline.ts";
import { fail, type Failure } from "../core/result.ts";
import { sessionKeyOf, writeJsonAtomically } from "./state_store.ts";

const MAX_RECORD_BYTES = 16 * 1024;

/** The record for a statusLine stdin, or why there is none (`early`: none yet, as at startup). Pure. */
export function recordFromStatusline(
  input: unknown,
  recordedAt: number,
  transcriptSize: number | undefined,
): StatuslineRecord | Failure & { early?: true } {
  if (!isStatuslineInput(input)) {
    return fail("stdin is not a statusLine payload with a session_id");
  }
  const cw = input.context_window;
  if (!isContextWindow(cw)) return fail("context_window is missing or not an object");
  const absurd = absurdFigure(cw);
  if (absurd !== undefined) return fail(`not a reading Claude Code sends: ${absurd}`);
  const version = fieldOf(input, "version");
  const figures = figuresOf(cw, typeof version === "string" ? version : undefined);
  // At startup, until the first reply, Claude Code has no figure: a normal start, not a fault.
  if (figures === undefined) {
    return { ...fail("used_percentage is null (before the session's first reply)"), early: true };
  }
  const { percent, tokens, window } = figures;
  const record: StatuslineRecord = { sessionId: input.session_id, recordedAt, percent };
  if (tokens !== undefined) record.tokens = tokens;
  if (window !== undefined) record.window = window;
  if (input.model?.id) record.model = input.model.id;
  if (input.transcript_path) record.transcriptPath = input.transcript_path;
  if (transcriptSize !== undefined) record.transcriptSize = transcriptSize;
  return record;
}

const statuslinePath = (dir: string, sessionId: string) =>
  join(dir, `lessons-${sessionKeyOf(sessionId)}-statusline.json`);

/** Writes `record` atomically; returns its path. */
export function saveStatusline(dir: string, record: StatuslineRecord): string {
  const path = statuslinePath(dir, record.sessionId);
  writeJsonAtomically(path, record);
  return path;
}

/** The session's record, or undefined when absent, unreadable or malformed. */
export function loadStatusline(dir: string, sessionId: string): StatuslineRecord | undefined {
  try {
    const path = statuslinePath(dir, sessionId);
    const info = Deno.lstatSync(path);
    if (!info.isFile || info.size > MAX_RECORD_BYTES) return undefined;
    const record: unknown = JSON.parse(Deno.readTextFileSync(path));
    return isStatuslineRecord(record) && record.sessionId === sessionId ? record : undefined;
  } catch {
    return undefined;
  }
}
