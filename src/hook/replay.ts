/**
 * A session replayed through the hook's steps (`status --timeline`): each main-chain tool call on
 * the transcript cut past its entry, each compaction as SessionStart(compact) (a subagent's send
 * none); at a context's end, its last refreshes' receipts.
 */
import type { Result } from "../core/result.ts";
import {
  CANCELLED_ATTACHMENT,
  COMPACTION_MARKER_TEXTS,
  DELIVERED_ATTACHMENT,
} from "../core/claude_code.ts";
import { labelIn, type RefreshCause } from "../core/header.ts";
import type { CompactSettings } from "../core/compaction_point.ts";
import { decideReset, type DecideSettings, decideToolCall, type Decision } from "../core/decide.ts";
import {
  COMPACT_LABEL,
  type DeliveryReport,
  labelsOf,
  settleDeliveries,
} from "../core/receipts.ts";
import { EMPTY_STATE, type State } from "../schemas/state.ts";
import { compactionFacts, measure, type MeasureSettings } from "../core/measure.ts";
import type { NoReading, Reading } from "../core/reading.ts";
import { isCompactionMarker, recordLineOf } from "../core/transcript_entry.ts";
import { viewQuery } from "../core/view.ts";
import { type ByteSource, joinLastFirst } from "../io/reverse_lines.ts";
import { withTranscript } from "../io/transcript.ts";
import { readerFor } from "../io/hosts.ts";
import type { RolloutPoint } from "../core/codex.ts";
import { parseLine, text } from "../core/transcript_entry.ts";
import { isObject } from "../schemas/guards.ts";

/** Where the hook runs: just past a tool call's entry (`end`), or past a compaction marker. */
type Point =
  | {
    kind: "call";
    end: number;
    toolUseId: string;
    tool: string;
    time: string | undefined;
    /** Where its entry starts: what a hook that ran before the entry was written read. */
    start?: number;
  }
  | { kind: "compaction"; end: number; trigger: string | undefined; preTokens: number | undefined };

/** A tool call or a compaction as the hook met it, or a context's receipts at its end. */
export type Replayed =
  | (Extract<Point, { kind: "call" }> & {
    reading: Reading | NoReading;
    decision: Decision;
    /** What the decision called for that the transcript records no answer of on this call. */
    withheld?: RefreshCause;
  })
  | (Extract<Point, { kind: "compaction" }> & { decision: Decision })
  | { kind: "settled"; end: number; deliveries: DeliveryReport[] };

const decoder = new TextDecoder();

/**
 * The lines of the first `size` bytes, first to last, read a MiB at a time so that a transcript of
 * any size is never held whole; `end` is where the line's newline is (or `size`, for a last line
 * without one). It lives here, not beside readLinesBackward: io/reverse_lines.ts is compiled
 * eagerly into every hook call's bundle, and only this replay reads forward.
 */
function* linesForward(source: ByteSource, size: number) {
  const CHUNK = 1 << 20;
  let carry: Uint8Array[] = [];
  for (let at = 0; at < size; at += CHUNK) {
    const chunk = source.readAt(at, Math.min(CHUNK, size - at));
    let from = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
      yield { line: joined([...carry, chunk.subarray(from, nl)]), end: at + nl };
      carry = [];
      from = nl + 1;
    }
    if (from < chunk.length) carry.push(chunk.subarray(from));
  }
  if (carry.length > 0) yield { line: joined(carry), end: size };
}

const joined = (pieces: Uint8Array[]) =>
  joinLastFirst(pieces.toReversed(), pieces.reduce((n, piece) => n + piece.length, 0));

/**
 * What the transcript records of this hook's answers (`token`'s): the labels answered on each
 * call, the calls whose hook Claude Code cancelled, and where each restatement after a
 * compaction was recorded. `present`: the hook answered at least once in this transcript.
 */
interface Answered {
  labels: Map<string, string[]>;
  cancelled: Set<string>;
  compact: number[];
  present: boolean;
}

const noAnswers = (): Answered => ({
  labels: new Map(),
  cancelled: new Set(),
  compact: [],
  present: false,
});

/** `label` answered on `call` (none: SessionStart's, after a compaction) at `end`. */
function recordAnswer(answered: Answered, call: string | undefined, label: string, end: number) {
  answered.present = true;
  if (label === COMPACT_LABEL) answered.compact.push(end);
  if (call) answered.labels.set(call, [...answered.labels.get(call) ?? [], ...label.split(",")]);
}

/**
 * The main chain's tool calls and compaction markers in file order, and the hook's answers
 * (one forward pass).
 */
function pointsOf(source: ByteSource, size: number, sidechainFile: boolean, token: string) {
  const points: Point[] = [];
  const answered = noAnswers();
  const seen = new Set<string>();
  for (const { line, end } of linesForward(source, size)) {
    const head = decoder.decode(line.subarray(0, 4096));
    const marker = COMPACTION_MARKER_TEXTS.some((text) => head.includes(text));
    const record = head.includes(DELIVERED_ATTACHMENT) || head.includes(CANCELLED_ATTACHMENT);
    if (
      !marker && !record &&
      !(head.includes('"assistant"') && decoder.decode(line).includes('"tool_use"'))
    ) {
      continue;
    }
    const entry = parseLine(line);
    if (!isObject(entry)) continue;
    const found = record ? recordLineOf(entry) : undefined;
    const receipt = found?.sidechain && !sidechainFile ? undefined : found;
    const label = receipt?.kind === "answer" ? labelIn(receipt.texts, token) : undefined;
    if (receipt?.kind === "answer" && receipt.call && label) {
      recordAnswer(answered, receipt.call, label, end);
    } else if (receipt?.kind === "cancelled") answered.cancelled.add(receipt.call);
    else if (isCompactionMarker(entry)) {
      // 2.x writes the boundary and then its summary: one compaction.
      if (entry.type === "user" && points.at(-1)?.kind === "compaction") continue;
      const meta = entry.compactMetadata as Record<string, unknown> | undefined;
      const { trigger, preTokens } = meta ?? {};
      points.push({
        kind: "compaction",
        end: end + 1,
        trigger: text(trigger),
        preTokens: typeof preTokens === "number" ? preTokens : undefined,
      });
    } else if (entry.type === "assistant" && (entry.isSidechain !== true || sidechainFile)) {
      const content = (entry.message as { content?: unknown } | undefined)?.content;
      for (const block of Array.isArray(content) ? content : []) {
        if (block?.type !== "tool_use" || typeof block.id !== "string" || seen.has(block.id)) {
          continue;
        }
        seen.add(block.id);
        const time = text(entry.timestamp);
        const tool = text(block.name) ?? "?";
        const start = end - line.length;
        points.push({ kind: "call", end: end + 1, toolUseId: block.id, tool, time, start });
      }
    }
  }
  return { points, answered };
}

/** A rollout's points, each answer of `token`'s taken as the last call's (or the compaction's). */
function rolloutAnswered(all: RolloutPoint[], token: string) {
  const answered = noAnswers();
  const points: Point[] = [];
  for (const point of all) {
    if (point.kind !== "answer") {
      points.push(point);
      continue;
    }
    const label = labelIn(point.texts, token);
    const last = points.at(-1);
    const call = last?.kind === "call" ? last.toolUseId : undefined;
    if (label) recordAnswer(answered, call, label, point.end);
  }
  return { points, answered };
}

/**
 * Replays a whole transcript for the context whose refresh headers carry `token`; `ran`: the
 * hook ran in it.
 */
export function replaySession(
  path: string,
  token: string,
  settings: MeasureSettings & DecideSettings,
  files: CompactSettings | undefined,
  sidechainFile = false,
  ran = false,
): Result<Replayed[]> {
  return withTranscript(path, (source, size): Replayed[] => {
    const out: Replayed[] = [];
    const reader = readerFor(path);
    const { viewOf } = reader;
    const { points, answered } = reader.pointsOf
      ? rolloutAnswered(reader.pointsOf(linesForward(source, size), parseLine), token)
      : pointsOf(source, size, sidechainFile, token);
    // Where the hook ran (`ran`: it kept state for this context) or the transcript records its
    // answers, the story is what it sent (a call whose entry came late was answered on the
    // reading before it); else what it would have done.
    // (`ran` counts for Claude Code's transcripts, whose every answer is recorded on its call.)
    const told = answered.present || (ran && !reader.pointsOf) ? answered : undefined;
    let state = EMPTY_STATE;
    let found = false;
    /** The receipts of `state`'s outstanding deliveries as the file stands at `end`. */
    const settle = (state: State, end: number) => {
      const { receipts } = viewOf(source, end, viewQuery(state, token, undefined, sidechainFile));
      if (receipts) {
        out.push({ kind: "settled", end, deliveries: settleDeliveries(state, receipts).report });
      }
    };
    points.forEach((point, i) => {
      if (point.kind === "compaction") {
        if (sidechainFile) return;
        settle(state, point.end);
        // Claude Code's SessionStart(compact): it restated what the transcript records it did,
        // here or on a later call that sent it again (nothing: only CLAUDE.md had rules).
        const until = points.find((p, j) => j > i && p.kind === "compaction")?.end ?? Infinity;
        const restate = told
          ? told.compact.some((at) => at >= point.end && at < until)
          : settings.refreshAfterCompact;
        const view = viewOf(source, point.end, { sidechainFile, markersFrom: 0 });
        const decision = decideReset({
          event: "compact",
          state,
          facts: compactionFacts(view.compaction, state, settings, files),
          promptId: undefined,
          restate,
          answerAt: point.end,
        });
        out.push({ ...point, decision });
        state = decision.state;
      } else {
        const id = point.toolUseId;
        /** The hook's steps on the file cut at `end`. */
        const decideAt = (end: number) => {
          const view = viewOf(source, end, viewQuery(state, token, id, sidechainFile));
          const { reading, facts } = measure({ view, state, settings, files });
          const receipts = view.receipts;
          const claim = { call: id, at: view.size };
          const input = { state, stateFound: found, reading, facts, receipts, claim, settings };
          return { reading, decision: decideToolCall(input) };
        };
        // What the transcript records this call's hook sent: a cancelled one sent something.
        const agrees = ({ decision: { cause } }: ReturnType<typeof decideAt>) =>
          told?.cancelled.has(id)
            ? cause !== undefined
            : (cause ? labelsOf(cause) : []).join() === (told?.labels.get(id) ?? []).join();
        const full = decideAt(point.end);
        // Where the entry came after the hook had read the file, it read the reading before.
        const early = told && !agrees(full) && point.start !== undefined
          ? decideAt(point.start)
          : undefined;
        const { reading, decision } = early && agrees(early) ? early : full;
        const sent = !told || told.labels.has(id) || told.cancelled.has(id);
        if (decision.cause && !sent) {
          // Crossed here, sent on a later call: the hook's reading of this call came before it.
          const held = { ...decision, cause: undefined, state: decision.known };
          out.push({ ...point, reading, decision: held, withheld: decision.cause });
          state = decision.known;
        } else {
          const withheld = decision === full.decision ? undefined : full.decision.cause;
          out.push({ ...point, reading, decision, ...(withheld && { withheld }) });
          state = decision.state;
        }
      }
      found = true;
    });
    settle(state, size);
    return out;
  });
}
