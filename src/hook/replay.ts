/**
 * A whole session replayed through the hook's own steps, call by call: at each main-chain tool
 * call the transcript is cut where the hook saw it (just past the call's entry), observed,
 * measured and decided on the state the calls before left; at each compaction of a session's
 * transcript the event Claude Code sends (SessionStart, compact) is decided too; a subagent's own
 * compactions send none. What `status --timeline` draws.
 */
import type { CompactSettings } from "../core/compaction_point.ts";
import { decide, type Decision } from "../core/decide.ts";
import { compactionFacts, measure, type MeasureSettings } from "../core/measure.ts";
import type { NoReading, Reading } from "../core/reading.ts";
import { receiptQuery } from "../core/receipts.ts";
import { markersFrom } from "../core/facts.ts";
import { isCompactionMarker } from "../core/transcript_entry.ts";
import type { DecideSettings } from "../core/decide.ts";
import { EMPTY_STATE } from "../schemas/guards.ts";
import type { State } from "../schemas/state.ts";
import type { ByteSource } from "../io/reverse_lines.ts";
import { viewOf } from "../io/transcript.ts";

/** One tool call, or one compaction, as the hook met it. */
export type Replayed =
  | {
    kind: "call";
    toolUseId: string;
    tool: string;
    time: string | undefined;
    reading: Reading | NoReading;
    decision: Decision;
  }
  | {
    kind: "compaction";
    trigger: string | undefined;
    preTokens: number | undefined;
    decision: Decision;
  };

/** A point the hook runs at: after a tool call's entry, or after a compaction marker. */
type Point =
  | { kind: "call"; end: number; toolUseId: string; tool: string; time: string | undefined }
  | { kind: "marker"; end: number; trigger: string | undefined; preTokens: number | undefined };

const decoder = new TextDecoder();

/** The main chain's tool calls and compaction markers, in file order (one forward pass). */
function pointsOf(bytes: Uint8Array, sidechainFile: boolean): Point[] {
  const points: Point[] = [];
  const seen = new Set<string>();
  for (let start = 0; start < bytes.length;) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    const line = bytes.subarray(start, end);
    start = end + 1;
    const head = decoder.decode(line.subarray(0, 4096));
    const marker = head.includes("compact_boundary") || head.includes("isCompactSummary");
    if (!marker && !(head.includes('"assistant"') && decoder.decode(line).includes('"tool_use"'))) {
      continue;
    }
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(decoder.decode(line));
    } catch {
      continue;
    }
    if (isCompactionMarker(entry)) {
      const meta = entry.compactMetadata as Record<string, unknown> | undefined;
      // 2.x writes the boundary and then its summary: one compaction.
      if (entry.type === "user" && points.at(-1)?.kind === "marker") continue;
      points.push({
        kind: "marker",
        end: start,
        trigger: typeof meta?.trigger === "string" ? meta.trigger : undefined,
        preTokens: typeof meta?.preTokens === "number" ? meta.preTokens : undefined,
      });
      continue;
    }
    if (entry.type !== "assistant" || (entry.isSidechain === true && !sidechainFile)) continue;
    const message = entry.message as { content?: unknown } | undefined;
    for (const block of Array.isArray(message?.content) ? message.content : []) {
      if (block?.type !== "tool_use" || typeof block.id !== "string" || seen.has(block.id)) {
        continue;
      }
      seen.add(block.id);
      points.push({
        kind: "call",
        end: start,
        toolUseId: block.id,
        tool: typeof block.name === "string" ? block.name : "?",
        time: typeof entry.timestamp === "string" ? entry.timestamp : undefined,
      });
    }
  }
  return points;
}

/** What replaying needs from the settings. */
export type ReplaySettings = MeasureSettings & DecideSettings;

/**
 * Replays `bytes` (a session's transcript, whole) for the context whose refresh headers carry
 * `token`, with Claude Code's settings files `files` as they are now.
 */
export function replaySession(
  bytes: Uint8Array,
  token: string,
  settings: ReplaySettings,
  files: CompactSettings | undefined,
  sidechainFile = false,
): Replayed[] {
  const out: Replayed[] = [];
  let state: State = EMPTY_STATE;
  let found = false;
  for (const point of pointsOf(bytes, sidechainFile)) {
    const source: ByteSource = {
      readAt: (offset, length) => bytes.subarray(offset, offset + length),
    };
    if (point.kind === "marker") {
      if (sidechainFile) continue;
      // Claude Code's SessionStart(compact), which restates the rules; PostCompact then finds
      // the same compaction and leaves it.
      const view = viewOf(source, point.end, { sidechainFile, markersFrom: 0 });
      const decision = decide({
        event: "SessionStart",
        state,
        facts: compactionFacts(view.compaction, state, settings, files),
        promptId: undefined,
        restate: settings.refreshAfterCompact,
        answerAt: point.end,
      });
      state = decision.state;
      found = true;
      out.push({
        kind: "compaction",
        trigger: point.trigger,
        preTokens: point.preTokens,
        decision,
      });
      continue;
    }
    const outstanding = receiptQuery(state);
    const view = viewOf(source, point.end, {
      toolUseId: point.toolUseId,
      sidechainFile,
      markersFrom: markersFrom(state),
      receipts: outstanding && { ...outstanding, token },
    });
    const { reading, facts } = measure({ view, state, settings, files });
    const decision = decide({
      event: "tool call",
      state,
      stateFound: found,
      reading,
      facts,
      receipts: view.receipts,
      claim: { call: point.toolUseId, at: view.size },
      settings,
    });
    state = decision.state;
    found = true;
    out.push({
      kind: "call",
      toolUseId: point.toolUseId,
      tool: point.tool,
      time: point.time,
      reading,
      decision,
    });
  }
  return out;
}
