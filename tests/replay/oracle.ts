/**
 * The replay suite's oracle: what the hook should decide at each tool call of a real transcript,
 * written from the measured facts (docs/claude-code-facts.md, docs/context-windows.md)
 * and from hindsight over the whole file, independently of src/ (it imports nothing from there).
 */

/** One tool call of a transcript, at the position Claude Code runs PostToolUse for it. */
export interface Call {
  toolUseId: string;
  toolName: string;
  /** Index of the line holding the call's assistant entry; the cut is just after it. */
  line: number;
  /** Compaction markers (line indexes) between the previous call's cut and this one's. */
  markersBefore: number[];
}

/** What should happen at a call: thresholds refreshed, the n-th call of the counter, nothing. */
export type Expected =
  | { kind: "thresholds"; thresholds: number[] }
  | { kind: "count" }
  | { kind: "compact" }
  | { kind: "none" };

export interface OracleCall extends Call {
  expected: Expected;
  /** The reading the oracle saw, for the report. */
  tokens: number | undefined;
  percent: number | undefined;
  /** With events: what SessionStart(compact), sent just before this call, should answer. */
  event?: Expected;
}

export interface Truth {
  /** The session's real window, known with hindsight (see {@link TRUTH}). */
  window: number;
  /** The file is a subagent's own transcript: every line counts although it is a sidechain. */
  sidechainFile: boolean;
}

/**
 * Each transcript's real window and why it is known. Hindsight the hook does not have: an auto
 * compaction near 167k tokens, a gateway, a version whose code was read.
 */
export const TRUTH: Record<string, Truth & { why: string }> = {
  "v1.0.90-inline-sidechain-summary-entries.jsonl": {
    window: 200_000,
    sidechainFile: false,
    why: "claude-opus-4-1 never had 1M",
  },
  "v2.0.76-large-no-compaction.jsonl": {
    window: 200_000,
    sidechainFile: false,
    why: "claude-opus-4-5 never had 1M; its last reading, 180,437, is near 200k",
  },
  "v2.1.14-agent-progress-nested-usage.jsonl": {
    window: 200_000,
    sidechainFile: false,
    why: "claude-opus-4-5 never had 1M",
  },
  "v2.1.112-compact-boundary.jsonl": {
    window: 200_000,
    sidechainFile: false,
    why: "auto-compacted at preTokens 167,766 = 200k - 33k; opus-4-7 was 200k in 2.1.112",
  },
  "v2.1.121-pasted-images-833KB-line.jsonl": {
    window: 200_000,
    sidechainFile: false,
    why: "sonnet-4-6 has 200k without [1m]; the session never read above 200k",
  },
  "v2.1.167-main-with-workflow-subagents.jsonl": {
    window: 200_000,
    sidechainFile: false,
    why: "a gateway: 2.1.150-2.1.275 give opus-4-8 1M only on the first-party API",
  },
  "v2.1.167-subagent-file-agent-ab9eaae030fe399d0.jsonl": {
    window: 200_000,
    sidechainFile: true,
    why: "the same gateway session's workflow agent",
  },
  "v2.1.185-three-compact-boundaries.jsonl": {
    window: 200_000,
    sidechainFile: false,
    why: "three auto-compactions at preTokens 169,486 / 167,345 / 167,720",
  },
  "v2.1.212-newest.jsonl": {
    window: 200_000,
    sidechainFile: false,
    why: "a gateway: 2.1.212 gives fable-5 1M only on the first-party API",
  },
  "recorded-2.1.328-sonnet-climb.jsonl": {
    window: 200_000,
    sidechainFile: false,
    why: "recorded with claude-sonnet-4-6 and no [1m]",
  },
  "recorded-2.1.328-compact.jsonl": {
    window: 200_000,
    sidechainFile: false,
    why: "recorded with claude-sonnet-4-6 and no [1m]",
  },
};

export const THRESHOLDS = [30, 52, 70];
export const COUNT_INTERVAL = 20;

type Json = Record<string, unknown>;

function isJson(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function record(value: unknown): Json | undefined {
  return isJson(value) ? value : undefined;
}

/** Parses each line; unparsable lines become undefined. */
export function parseLines(text: string): (Json | undefined)[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line) => {
    try {
      return record(JSON.parse(line));
    } catch {
      return undefined;
    }
  });
}

function isMarker(entry: Json | undefined): boolean {
  if (!entry) return false;
  return (entry.type === "system" && entry.subtype === "compact_boundary") ||
    (entry.type === "user" && entry.isCompactSummary === true);
}

function counts(entry: Json | undefined, sidechainFile: boolean): boolean {
  if (!entry || entry.type !== "assistant") return false;
  return sidechainFile || entry.isSidechain !== true;
}

/** input + cache_creation + cache_read of a usable assistant entry, else undefined. */
function tokensOf(entry: Json): number | undefined {
  const message = record(entry.message);
  const usage = record(message?.usage);
  if (!message || !usage || entry.isApiErrorMessage === true) return undefined;
  if (message.model === "<synthetic>") return undefined;
  const n = (v: unknown) => (typeof v === "number" ? v : 0);
  const sum = n(usage.input_tokens) + n(usage.cache_creation_input_tokens) +
    n(usage.cache_read_input_tokens);
  return sum > 0 ? sum : undefined;
}

/** The tool calls of a transcript, in the order Claude Code ran their hooks. */
export function callsOf(lines: (Json | undefined)[], sidechainFile: boolean): Call[] {
  const calls: Call[] = [];
  let pendingMarkers: number[] = [];
  const seen = new Set<string>();
  lines.forEach((entry, index) => {
    if (isMarker(entry)) pendingMarkers.push(index);
    if (!counts(entry, sidechainFile)) return;
    const content = record(entry!.message)?.content;
    if (!Array.isArray(content)) return;
    for (const block of content) {
      const b = record(block);
      if (b?.type !== "tool_use" || typeof b.id !== "string" || seen.has(b.id)) continue;
      seen.add(b.id);
      calls.push({
        toolUseId: b.id,
        toolName: typeof b.name === "string" ? b.name : "Bash",
        line: index,
        markersBefore: pendingMarkers,
      });
      pendingMarkers = [];
    }
  });
  return calls;
}

/**
 * The expected decision at every call: the newest usable reading up to the cut, unless a
 * compaction came after it; every threshold it reaches that has not fired in this context fires;
 * without a reading, every 20th call refreshes (calls right after a compaction, before its first
 * reading, are not counted).
 *
 * A compaction starts a new context, and the rules are restated once in it (on by default;
 * docs/own-rules.md): with events, SessionStart(compact) answers with the restatement, and the new
 * context's first reading takes what it has already reached as fired, silently. Without events
 * the hook learns of the compaction only from the transcript, and only when it has a reason to
 * look (issue 11): this call has no reading since the marker, or a threshold fired before the
 * compaction holds this reading back. That call restates (naming what it crossed); a context in
 * which nothing had fired keeps its counter and thresholds, since nothing there needs a reset.
 */
export function expectCalls(
  lines: (Json | undefined)[],
  truth: Truth,
  withEvents = true,
): OracleCall[] {
  const calls = callsOf(lines, truth.sidechainFile);
  const out: OracleCall[] = [];
  let fired = new Set<number>();
  let counter = 0;
  /** SessionStart restated: the first reading absorbs what it reached. */
  let delivered = false;
  /** A compaction the hook has not learned of yet (no events). */
  let unnoticed = false;
  for (const call of calls) {
    let event: Expected | undefined;
    if (call.markersBefore.length > 0) {
      if (withEvents) {
        fired = new Set();
        counter = 0;
        delivered = true;
        event = { kind: "compact" };
      } else if (fired.size > 0) {
        unnoticed = true;
      }
    }
    let tokens: number | undefined;
    let compactedSinceReading = false;
    for (let i = call.line; i >= 0; i--) {
      const entry = lines[i];
      if (isMarker(entry)) {
        compactedSinceReading = true;
        break;
      }
      if (!counts(entry, truth.sidechainFile)) continue;
      const t = tokensOf(entry!);
      if (t !== undefined) {
        tokens = t;
        break;
      }
    }
    const percent = tokens === undefined ? undefined : (tokens * 100) / truth.window;
    let restate = false;
    if (unnoticed) {
      const heldBack = percent !== undefined && [...fired].some((t) => t <= percent);
      if (tokens === undefined || heldBack) {
        unnoticed = false;
        fired = new Set();
        counter = 0;
        restate = true;
      }
    }
    let expected: Expected = { kind: "none" };
    if (percent !== undefined) {
      const crossed = THRESHOLDS.filter((t) => t <= percent && !fired.has(t));
      crossed.forEach((t) => fired.add(t));
      if (restate) expected = { kind: "compact" };
      else if (crossed.length > 0 && !delivered) {
        expected = { kind: "thresholds", thresholds: crossed };
      }
      delivered = false;
    } else if (restate) {
      expected = { kind: "compact" };
      delivered = true;
    } else if (!compactedSinceReading) {
      counter++;
      if (counter % COUNT_INTERVAL === 0) expected = { kind: "count" };
    }
    out.push({ ...call, expected, tokens, percent, ...(event ? { event } : {}) });
  }
  return out;
}

/** `30,52` / `count` / `-`: one word for a decision, for the report. */
export function expectedText(expected: Expected): string {
  if (expected.kind === "thresholds") return expected.thresholds.join(",");
  return expected.kind === "none" ? "-" : expected.kind;
}
