/**
 * The replay suite's oracle: what the hook should decide at each tool call of a real transcript,
 * written from the measured facts (docs/maintainers/claude-code-facts.md,
 * docs/maintainers/windows-by-release.md) and from hindsight over the whole file, independently of
 * src/ (it imports nothing from there).
 */
import { createHash } from "node:crypto";

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
  /** With events: what SessionStart(compact), sent just before this call, should answer. */
  event?: Expected;
}

export interface Truth {
  /** The session's real window, known with hindsight (see {@link TRUTH}). */
  window: number;
  /** The file is a subagent's own transcript: every line counts although it is a sidechain. */
  sidechainFile?: boolean;
  /**
   * The real window of each entry, when the session changed model or Claude Code version (known
   * by construction for the generated shapes); else {@link window} for every entry.
   */
  windowOf?: (model: unknown, version: unknown) => number;
  /**
   * The file is a fork subagent's: it started with its parent's context, so the refreshes the
   * parent's transcript records before the fork point count as made in it. Names the parent's file.
   */
  forkOf?: string;
  /**
   * The release's window for the model was never measured: the hook knows the real window only
   * from the first reading over 200k and counts the session as 200k until then
   * (docs/context-windows.md).
   */
  provenByReading?: boolean;
}

/** The real window of each model of the generated shapes, by Claude Code version. */
function shapeWindow(model: unknown, version: unknown): number {
  const [major = 0, minor = 0, patch = 0] = String(version ?? "0.0.0").split(".").map(Number);
  switch (model) {
    case "claude-opus-5":
    case "claude-opus-4-8":
      return 1_000_000; // natively 1M in 2.1.328, the only version these shapes use for them
    case "claude-opus-4-7":
      // Natively 1M from 2.1.117.
      return major * 1e6 + minor * 1e3 + patch >= 2_001_117 ? 1_000_000 : 200_000;
    default:
      return 200_000; // claude-sonnet-4-6 without [1m]; the gateway's sonnet-4.5
  }
}

/** A transcript's truth: a 200k window unless `truth` says otherwise, and why it is known. */
function known(why: string, truth: Partial<Truth> = {}): Truth & { why: string } {
  return { window: 200_000, ...truth, why };
}

/**
 * Each transcript's real window and why it is known. Hindsight the hook does not have: an auto
 * compaction near 167k tokens, a gateway, a version whose code was read.
 */
export const TRUTH: Record<string, Truth & { why: string }> = {
  "v1.0.90-inline-sidechain-summary-entries.jsonl": known("claude-opus-4-1 never had 1M"),
  "v2.0.76-large-no-compaction.jsonl": known(
    "claude-opus-4-5 never had 1M; its last reading, 180,437, is near 200k",
  ),
  "v2.1.14-agent-progress-nested-usage.jsonl": known("claude-opus-4-5 never had 1M"),
  "v2.1.112-compact-boundary.jsonl": known(
    "auto-compacted at preTokens 167,766 = 200k - 33k; opus-4-7 was 200k in 2.1.112",
  ),
  "v2.1.121-pasted-images-833KB-line.jsonl": known(
    "sonnet-4-6 has 200k without [1m]; the session never read above 200k",
  ),
  "v2.1.167-main-with-workflow-subagents.jsonl": known(
    "a gateway: 2.1.150-2.1.275 give opus-4-8 1M only on the first-party API",
  ),
  "v2.1.167-subagent-file-agent-ab9eaae030fe399d0.jsonl": known(
    "the same gateway session's workflow agent",
    { sidechainFile: true },
  ),
  "v2.1.185-three-compact-boundaries.jsonl": known(
    "three auto-compactions at preTokens 169,486 / 167,345 / 167,720",
  ),
  "v2.1.212-newest.jsonl": known("a gateway: 2.1.212 gives fable-5 1M only on the first-party API"),
  "v2.1.225-two-processes-one-session.jsonl": known(
    "claude-opus-5 reading up to 359,753 tokens with no compaction: over 200k, so 1M; two " +
      "processes (2.1.225 and 2.1.226) each append their own chain after a resume",
    { window: 1_000_000, provenByReading: true },
  ),
  "recorded-2.1.328-sonnet-climb.jsonl": known("recorded with claude-sonnet-4-6 and no [1m]"),
  "recorded-2.1.328-compact.jsonl": known("recorded with claude-sonnet-4-6 and no [1m]"),
  "recorded-2.1.328-auto-compact-window.jsonl": known(
    "recorded with claude-sonnet-4-6 and no [1m]; auto-compacted at preTokens 67,044 " +
      "because CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000 was set (the replay leaves it unset: the " +
      "hook learns the point from the boundary)",
  ),
  "recorded-2.1.328-fork-main.jsonl": known("recorded with claude-sonnet-4-6 and no [1m]"),
  "recorded-2.1.328-fork-agent-ae76d425a14d91e5a.jsonl": known(
    "the same session's fork, model inherited",
    { sidechainFile: true, forkOf: "recorded-2.1.328-fork-main.jsonl" },
  ),
  // Generated shapes (tests/replay/shapes.ts): windows known by construction.
  "shape-model-switch-1m-200k-1m.jsonl": known(
    "claude-opus-5 (1M) and claude-sonnet-4-6 (200k) in 2.1.328",
    { windowOf: shapeWindow },
  ),
  "shape-model-switch-opus-4-8-opus-5.jsonl": known("both natively 1M in 2.1.328", {
    window: 1_000_000,
    windowOf: shapeWindow,
  }),
  "shape-model-switch-200k-1m-200k.jsonl": known(
    "claude-sonnet-4-6 (200k) and claude-opus-5 (1M) in 2.1.328",
    { windowOf: shapeWindow },
  ),
  "shape-resumed-after-upgrade.jsonl": known(
    "claude-opus-4-7: 200k in 2.1.112 (its auto-compaction at 167,766 says so), 1M in 2.1.328",
    { windowOf: shapeWindow },
  ),
  "shape-gateway-gen-ids.jsonl": known("a gateway's claude-sonnet-4.5: 200k"),
  "shape-fork-parent.jsonl": known("claude-sonnet-4-6 without [1m]"),
  "shape-agent-compactions-main.jsonl": known("claude-sonnet-4-6 without [1m]"),
  "shape-agent-compactions.jsonl": known(
    "its subagent, claude-sonnet-4-6, compacting at 150,000 and then 160,000 tokens",
    { sidechainFile: true },
  ),
  "shape-fork-agent.jsonl": known("its fork, model inherited", {
    sidechainFile: true,
    forkOf: "shape-fork-parent.jsonl",
  }),
};

export const THRESHOLDS = [30, 52, 70];
export const COUNT_INTERVAL = 20;

/**
 * What the replay sets for the hook, as the oracle reads it: thresholds (a number below 100 is a
 * percentage, one of 1,000 or more a token count: docs/thresholds.md), Claude Code's auto-compact
 * window (`CLAUDE_CODE_AUTO_COMPACT_WINDOW`) and percentage override.
 */
export interface Config {
  thresholds: number[];
  autoCompactWindow?: number;
  pct?: number;
  /** Tokens between refreshes after the last threshold on a span over 200k; 0: off. */
  cadence?: number;
}

/** docs/thresholds.md: past 200k, percentages are of 200,000 tokens, then a refresh every 40k. */
const SMALL_SPAN = 200_000;
const CADENCE = 40_000;

export const DEFAULT_CONFIG: Config = { thresholds: THRESHOLDS };

/** Claude Code 2.1.328's buffers (docs/maintainers/windows-by-release.md): 20,000, then 13,000. */
const OUTPUT_BUFFER = 20_000;
const COMPACT_BUFFER = 13_000;

/**
 * The tokens percentage thresholds are measured against on a session of `window` tokens, from
 * docs/thresholds.md: Claude Code compacts at its auto-compact window (never above the model's)
 * less 33,000 tokens, or at the override's share of the window less 20,000 when lower, or where
 * it did compact earlier (`learned`); when that comes before the window's own point, percentages
 * are of the window that compacts there, narrowed until the highest sits 3 % of it before.
 */
export function spanOf(config: Config, window: number, learned?: number): number {
  const compactAt = compactionAt(config, window, learned);
  let span = window;
  const early = compactAt + OUTPUT_BUFFER + COMPACT_BUFFER;
  if (early < window) {
    span = early;
    const percents = config.thresholds.filter((t) => t < 100);
    const highest = percents.length > 0 ? Math.max(...percents) : undefined;
    const lead = compactAt - 0.03 * early;
    if (highest !== undefined && highest * early / 100 > lead) {
      span = Math.max(1, Math.floor(Math.max(lead, 1) * 100 / highest));
    }
  }
  return span;
}

/** Where Claude Code auto-compacts a session of `window` tokens (see {@link spanOf}). */
function compactionAt(config: Config, window: number, learned?: number): number {
  const own = Math.min(window, config.autoCompactWindow ?? window);
  let compactAt = own - OUTPUT_BUFFER - COMPACT_BUFFER;
  if (config.pct !== undefined) {
    compactAt = Math.min(compactAt, Math.floor((own - OUTPUT_BUFFER) * config.pct / 100));
  }
  if (learned !== undefined && learned < compactAt) compactAt = learned;
  return compactAt;
}

/**
 * The thresholds of a context and the tokens its percentages are of: on a span over 200,000
 * tokens, percentages are of 200,000 and, past the highest threshold, one more comes every
 * `cadence` tokens while it is below the compaction point.
 */
export function scheduleOf(config: Config, window: number, learned?: number) {
  const span = spanOf(config, window, learned);
  const cadence = config.cadence ?? CADENCE;
  if (cadence <= 0 || span <= SMALL_SPAN) return { span, thresholds: config.thresholds };
  const at = (t: number) => (t < 100 ? (t * SMALL_SPAN) / 100 : t);
  const extra: number[] = [];
  const end = compactionAt(config, window, learned);
  for (let p = Math.max(...config.thresholds.map(at)) + cadence; p < end; p += cadence) {
    extra.push(Math.round(p));
  }
  const thresholds = [...config.thresholds, ...extra.filter((p) => !config.thresholds.includes(p))];
  return { span: SMALL_SPAN, thresholds };
}

type Json = Record<string, unknown>;

function record(value: unknown): Json | undefined {
  const json = typeof value === "object" && value !== null && !Array.isArray(value);
  return json ? value as Json : undefined;
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

/**
 * The lines on the chain of entries (`parentUuid`) that ends at `line`, found with hindsight over
 * the whole file. Two Claude Code processes appending to one file after a resume each write their
 * own chain; a refresh delivered on one is in that process's context only. A response split over
 * entries is on the chain when one of its entries is (parallel tool results hang off any of them).
 * Undefined when a parent is not in the file: the chain cannot be told, every refresh counts.
 */
export function chainLines(lines: (Json | undefined)[], line: number): Set<number> | undefined {
  const byUuid = new Map<string, number>();
  for (const [i, entry] of lines.entries()) {
    if (typeof entry?.uuid === "string") byUuid.set(entry.uuid, i);
  }
  const messages = new Set<string>();
  const on = new Set<number>();
  for (let i: number | undefined = line; i !== undefined && !on.has(i);) {
    on.add(i);
    const id = record(lines[i]?.message)?.id;
    if (lines[i]?.type === "assistant" && typeof id === "string") messages.add(id);
    const parent: unknown = lines[i]?.parentUuid;
    i = typeof parent === "string" ? byUuid.get(parent) : undefined;
    if (typeof parent === "string" && i === undefined) return undefined;
  }
  lines.forEach((entry, i) => {
    const id = record(entry?.message)?.id;
    if (entry?.type === "assistant" && typeof id === "string" && messages.has(id)) on.add(i);
  });
  return on;
}

/**
 * The tool calls of a transcript, in the order Claude Code ran their hooks. A fork's file starts
 * with a copy of its parent's Agent call, before the fork's first user entry: that call was the
 * parent's.
 */
export function callsOf(
  lines: (Json | undefined)[],
  sidechainFile: boolean,
  forkFile = false,
): Call[] {
  const calls: Call[] = [];
  let pendingMarkers: number[] = [];
  const seen = new Set<string>();
  let ownTurns = !forkFile;
  lines.forEach((entry, index) => {
    if (isMarker(entry)) pendingMarkers.push(index);
    if (entry?.type === "user") ownTurns = true;
    if (!ownTurns || !counts(entry, sidechainFile)) return;
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

/** The refresh token of a session's main thread (how the hook's header names its session). */
export function sessionToken(sessionId: string): string {
  return createHash("sha256").update(`lessons-reinject refresh\0${sessionId}`).digest("hex")
    .slice(0, 8);
}

const REFRESH_HEADER = /^\[lessons-reinject refresh ([0-9]+(?:,[0-9]+)*) ref=([0-9a-f]{8})\]/;

/**
 * The thresholds a fork inherited: those the parent's refreshes (headers carrying the parent's
 * token) named after the parent's last compaction before the fork point, `parentLastUuid` of
 * the fork's `fork-context-ref` line, up to that point. None when the point is not found.
 */
export function inheritedThresholds(
  forkLines: (Json | undefined)[],
  parentLines: (Json | undefined)[],
): number[] {
  const ref = forkLines.find((l) => l?.type === "fork-context-ref");
  const parentSession = ref?.parentSessionId;
  const point = parentLines.findIndex((l) => l?.uuid === ref?.parentLastUuid);
  if (typeof parentSession !== "string" || point < 0) return [];
  const token = sessionToken(parentSession);
  const found = new Set<number>();
  for (let i = point; i >= 0; i--) {
    const entry = parentLines[i];
    if (isMarker(entry)) break;
    const attachment = record(entry?.attachment);
    if (entry?.type !== "attachment" || attachment?.type !== "hook_additional_context") continue;
    const content = attachment.content;
    for (const text of Array.isArray(content) ? content : [content]) {
      const match = typeof text === "string" ? REFRESH_HEADER.exec(text) : null;
      if (match?.[2] === token) match[1]!.split(",").forEach((t) => found.add(Number(t)));
    }
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * The expected decision at every call: the newest usable reading up to the cut, unless a
 * compaction came after it; every threshold it reaches that has not fired in this context fires;
 * without a reading, every 20th call refreshes (calls right after a compaction, before its first
 * reading, are not counted).
 *
 * Each reading is measured against its own entry's window (a session may change model or Claude
 * Code version). A threshold fired under a smaller window than the reading's no longer counts: it
 * was made at a smaller share of the larger window (the never-miss rule of docs/context-windows.md).
 *
 * A compaction starts a new context, and the rules are restated once in it (on by default;
 * docs/own-rules.md): with events, SessionStart(compact) answers with the restatement, and the new
 * context's first reading takes what it has already reached as fired, silently. Without events
 * (a subagent's own compaction, a build that drops them) the hook learns of the compaction from
 * the transcript, on the first call after it: that call restates; a context in which nothing had
 * fired keeps its counter and thresholds, since nothing there needs a reset.
 *
 * A fork's file starts with its parent's context: the thresholds `inherited` from the parent's
 * refreshes count as fired from its first call ({@link inheritedThresholds}).
 */
export function expectCalls(
  lines: (Json | undefined)[],
  truth: Truth,
  withEvents = true,
  inherited: readonly number[] = [],
  config: Config = DEFAULT_CONFIG,
): OracleCall[] {
  const sidechainFile = truth.sidechainFile === true;
  const calls = callsOf(lines, sidechainFile, truth.forkOf !== undefined);
  const out: OracleCall[] = [];
  /**
   * Fired threshold -> the span it fired under (inherited ones and token counts count under any).
   */
  let fired = new Map<number, number>(inherited.map((t) => [t, Infinity]));
  /** The lines of the calls each threshold fired on (inherited ones: none, they count on any). */
  const firedOn = new Map<number, number[]>();
  const counting = (window: number, chain: Set<number> | undefined) =>
    new Set(
      [...fired].filter(([t, under]) =>
        under >= window && (!chain || (firedOn.get(t)?.some((line) => chain.has(line)) ?? true))
      ).map(([t]) => t),
    );
  /** A reading over 200k was seen: the session's real window is known from here on. */
  let proven = !truth.provenByReading;
  let counter = 0;
  /** SessionStart restated: the first reading absorbs what it reached. */
  let delivered = false;
  /** A compaction the hook has not learned of yet (no events). */
  let unnoticed = false;
  /** The smallest `preTokens` of the auto-compactions the hook has read: where it compacts. */
  let learned: number | undefined;
  /** The newest compaction written so far, auto or not (what the hook reads when it looks). */
  let newest: Json | undefined;
  const learn = () => {
    const meta = record(newest?.compactMetadata);
    // The tightest point seen: a later, larger compaction does not move it out.
    if (meta?.trigger === "auto" && typeof meta.preTokens === "number") {
      learned = Math.min(meta.preTokens, learned ?? Infinity);
    }
  };
  for (const call of calls) {
    let event: Expected | undefined;
    if (call.markersBefore.length > 0) {
      // 2.x writes a boundary (with its size) and then a summary entry: the hook reads both.
      const boundaries = call.markersBefore.filter((i) => lines[i]?.type === "system");
      newest = lines[(boundaries.at(-1) ?? call.markersBefore.at(-1))!];
      if (withEvents) {
        fired = new Map();
        firedOn.clear();
        counter = 0;
        delivered = true;
        event = { kind: "compact" };
        learn(); // SessionStart(compact) reads the boundary just written.
      } else if (fired.size > 0) {
        unnoticed = true;
      }
    }
    let tokens: number | undefined;
    let window = truth.window;
    let compactedSinceReading = false;
    for (let i = call.line; i >= 0; i--) {
      const entry = lines[i];
      if (isMarker(entry)) {
        compactedSinceReading = true;
        break;
      }
      if (!counts(entry, sidechainFile)) continue;
      const t = tokensOf(entry!);
      if (t !== undefined) {
        tokens = t;
        window = truth.windowOf?.(record(entry!.message)?.model, entry!.version) ?? truth.window;
        break;
      }
    }
    if (tokens !== undefined && tokens > SMALL_SPAN) proven = true;
    if (!proven) window = Math.min(window, SMALL_SPAN);
    // No reading since a marker: the hook's reading stops at it, and learns from it.
    if (compactedSinceReading && !withEvents) learn();
    let restate = false;
    if (unnoticed) {
      unnoticed = false;
      fired = new Map();
      firedOn.clear();
      counter = 0;
      restate = true;
      learn(); // Looking back found the marker.
    }
    const { span, thresholds } = scheduleOf(config, window, learned);
    const pointOf = (t: number) => (t < 100 ? t * span / 100 : t);
    // Reached at its point or past it (percentages multiplied out: no rounding miss).
    const reached = (t: number) =>
      tokens !== undefined && (t < 100 ? tokens * 100 >= t * span : tokens >= t);
    let expected: Expected = { kind: "none" };
    if (tokens !== undefined) {
      // Only what fired on this call's own chain of entries counts (a second process's does not).
      const already = counting(span, chainLines(lines, call.line));
      // In the order a filling context reaches them; a percentage first at the same point.
      const crossed = thresholds.filter((t) => reached(t) && !already.has(t)).sort((a, b) =>
        pointOf(a) - pointOf(b) || Number(a >= 1000) - Number(b >= 1000)
      );
      crossed.forEach((t) => fired.set(t, t >= 1000 ? Infinity : span));
      crossed.forEach((t) => firedOn.set(t, [...(firedOn.get(t) ?? []), call.line]));
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
    out.push({ ...call, expected, tokens, ...(event ? { event } : {}) });
  }
  return out;
}

/** `30,52` / `count` / `-`: one word for a decision, for the report. */
export function expectedText(expected: Expected): string {
  if (expected.kind === "thresholds") return expected.thresholds.join(",");
  return expected.kind === "none" ? "-" : expected.kind;
}
