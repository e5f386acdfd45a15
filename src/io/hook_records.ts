/**
 * What Claude Code recorded of this hook's runs in a transcript: the lines it wrote to stderr (its
 * debug line with LESSONS_DEBUG=1, a setting's problem), kept in `hook_success` attachments, and
 * runs cancelled at their timeout (`hook_cancelled`). Claude Code shows neither on screen
 * (2.1.332, even with --verbose and ctrl+o): this is where they can be read back.
 */
import { CANCELLED_ATTACHMENT, RAN_ATTACHMENT } from "../core/claude_code.ts";
import { parseLine } from "../core/transcript_entry.ts";
import { fieldOf } from "../schemas/guards.ts";
import { type ByteSource, readLinesBackward } from "./reverse_lines.ts";
import { MAX_SCAN_BYTES } from "./host_lines.ts";

/** One recorded run: when, which hook, and its lines (none for a cancelled run). */
export type HookRecord = NonNullable<ReturnType<typeof recordOf>>;

/** Every line this hook writes to stderr starts so. */
const OWN_PREFIX = "lessons-reinject:";
const decoder = new TextDecoder();

/** The newest `count` records, oldest first, from the transcript's last 64 MiB at most. */
export function hookRecordsOf(source: ByteSource, size: number, count = 8): HookRecord[] {
  const found: HookRecord[] = [];
  for (const line of readLinesBackward(source, size, { maxBytes: MAX_SCAN_BYTES })) {
    if (found.length >= count) break;
    if (line.oversized) continue;
    const text = decoder.decode(line.bytes);
    const ran = text.includes(`"${RAN_ATTACHMENT}"`) && text.includes(OWN_PREFIX);
    if (!ran && !text.includes(`"${CANCELLED_ATTACHMENT}"`)) continue;
    const record = recordOf(parseLine(line.bytes));
    if (record) found.push(record);
  }
  return found.reverse();
}

/** A transcript entry as a record of this hook, or undefined. Pure. */
export function recordOf(entry: unknown) {
  const attachment = fieldOf(entry, "attachment");
  const type = fieldOf(attachment, "type");
  const hook = String(fieldOf(attachment, "hookName") ?? fieldOf(attachment, "hookEvent") ?? "?");
  const time = fieldOf(entry, "timestamp");
  const at = typeof time === "string" ? time : undefined;
  if (type === CANCELLED_ATTACHMENT) return { at, hook, lines: [], cancelled: true };
  const stderr = fieldOf(attachment, "stderr");
  if (type !== RAN_ATTACHMENT || typeof stderr !== "string") return undefined;
  const lines = stderr.split("\n").filter((l) => l.startsWith(OWN_PREFIX));
  return lines.length > 0 ? { at, hook, lines, cancelled: false } : undefined;
}
