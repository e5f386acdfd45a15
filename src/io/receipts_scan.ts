/** Claude Code's records of this hook's answers, read back from a transcript's end. */
import { compareVersions } from "../core/window.ts";
import {
  CANCELLED_ATTACHMENT,
  DELIVERED_ATTACHMENT,
  RAN_ATTACHMENT,
  RECORDS_HOOK_OUTCOMES_FROM,
  RECORDS_IN_SUBAGENT_FILES_FROM,
  SESSION_START,
} from "../core/claude_code.ts";
import type { ReceiptEvidence } from "../core/receipts.ts";
import { mayBeUsage, parseLine, receiptLineOf } from "../core/transcript_entry.ts";
import { type ByteSource, readLinesBackward } from "./reverse_lines.ts";
import { RECEIPT_MAX_BYTES } from "./host_lines.ts";

const decoder = new TextDecoder();

/** Reads back to `query.from`, parsing only lines that can hold a record of `query.calls`. */
export function receiptsOf(
  source: ByteSource,
  size: number,
  query: { from: number; calls: readonly string[]; token: string; sidechainFile: boolean },
): ReceiptEvidence {
  const evidence = {
    from: size,
    results: {} as Record<string, number>,
    answers: {} as Record<string, number[]>,
    cancelled: [] as string[],
    responses: [] as number[],
    records: false,
  };
  let newestVersion: string | undefined;
  let lastMessage: string | undefined;
  const awaited = (call: string) => query.calls.includes(call);
  for (const line of readLinesBackward(source, size, { maxBytes: RECEIPT_MAX_BYTES })) {
    evidence.from = Math.max(line.start, query.from);
    if (line.start < query.from) break;
    if (line.oversized) continue;
    const text = decoder.decode(line.bytes);
    const may = (text.includes(DELIVERED_ATTACHMENT) && text.includes(query.token)) ||
      text.includes(CANCELLED_ATTACHMENT) ||
      (!evidence.records && text.includes(RAN_ATTACHMENT)) ||
      (text.includes('"tool_result"') && query.calls.some((c) => text.includes(c))) ||
      (evidence.responses.length < 2 && mayBeUsage(text));
    if (!may) continue;
    const found = receiptLineOf(parseLine(line.bytes), query.token, query.sidechainFile);
    if (found?.kind === "answer" && awaited(found.call)) {
      (evidence.answers[found.call] ??= []).push(line.start);
    } else if (found?.kind === "cancelled" && awaited(found.call)) {
      evidence.cancelled.push(found.call);
      evidence.records = true;
    } else if (found?.kind === "ran") {
      // SessionStart's record carries an id of its own, not the call's.
      evidence.records ||= awaited(found.call) ||
        (found.event === SESSION_START && awaited(SESSION_START));
    } else if (found?.kind === "result") {
      for (const call of found.calls) if (awaited(call)) evidence.results[call] ??= line.start;
    } else if (found?.kind === "response" && evidence.responses.length < 2) {
      // One response may be split over entries sharing its message id: count it once.
      if (evidence.responses.length === 0 || !found.messageId || found.messageId !== lastMessage) {
        evidence.responses.push(line.start);
        lastMessage = found.messageId;
        newestVersion ??= found.version;
      }
    }
  }
  // Claude Code records hook outcomes from these releases on (core/claude_code.ts).
  if (newestVersion !== undefined) {
    const from = query.sidechainFile ? RECORDS_IN_SUBAGENT_FILES_FROM : RECORDS_HOOK_OUTCOMES_FROM;
    evidence.records ||= compareVersions(newestVersion, from) >= 0;
  }
  return evidence;
}
