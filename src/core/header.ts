/**
 * The first line of every refresh: what it answers, the reading, what it restates, and a
 * per-session token, so that only text this hook wrote is recognised in a transcript.
 */
import {
  groupDigits,
  isTokenThreshold,
  percentText,
  type Threshold,
  thresholdOf,
  thresholdText,
} from "./numbers.ts";

/**
 * What a refresh answers: thresholds crossed (with the reading), the n-th tool call of the
 * fallback counter, or a compaction that ended the last context (with any thresholds its first
 * reading also crossed).
 */
export type RefreshCause =
  | {
    kind: "thresholds";
    thresholds: readonly Threshold[];
    percent: number;
    window?: number;
    /** The span percentages were measured against, when it is less than the window. */
    span?: number;
    tokens?: number;
  }
  | { kind: "toolCount"; calls: number }
  | { kind: "compaction"; thresholds: readonly Threshold[] };

const TAG = "lessons-reinject refresh";
const HEADER = /^\[lessons-reinject refresh ([^\s\]]+) ref=([0-9a-f]{8})\]/;
/** The labels naming thresholds (`30`, `60k`, `1M`) or the fallback counter's call count. */
const THRESHOLD_LABEL = /^(?:[0-9]+[kM]?(?:,[0-9]+[kM]?)*|calls:[0-9]+)$/;

/**
 * The header line for a refresh, naming what it restates (`contents`: the manifest's lessons, the
 * user's own rules, or both; the lessons when not given).
 *
 * @example
 * ```ts
 * refreshHeader({ kind: "thresholds", thresholds: [30], percent: 31.2, window: 200_000 }, "0a1b2c3d");
 * // "[lessons-reinject refresh 30 ref=0a1b2c3d] Context refresh at 31% of the 200k-token context window: ..."
 * ```
 */
export function refreshHeader(
  cause: RefreshCause,
  token: string,
  contents?: { lessons: readonly unknown[]; blocks: readonly unknown[] },
): string {
  const lessons = "your standing directives and protocols from session start";
  const rules = !contents?.blocks.length
    ? lessons
    : contents.lessons.length === 0
    ? "your own standing rules"
    : `${lessons}, and your own standing rules`;
  if (cause.kind === "compaction") {
    // Its own label: no threshold parser mistakes it for a fired threshold.
    return `[${TAG} compact ref=${token}] The context was just compacted: ${rules}, restated in ` +
      `full because a summary keeps them only vaguely. They still apply.`;
  }
  if (cause.kind === "toolCount") {
    return `[${TAG} calls:${cause.calls} ref=${token}] Periodic refresh after ${cause.calls} tool ` +
      `calls (the context use could not be measured): ${rules}, restated. They still apply.`;
  }
  const names = cause.thresholds.map((t) => thresholdText(t, { bare: true })).join(",");
  return `[${TAG} ${names} ref=${token}] Context refresh at ${readingText(cause)}: ${rules}, ` +
    `restated because attention to them fades as the context fills. They still apply.`;
}

/**
 * The reading in the terms of what was crossed: its share of the span the percentages are
 * measured against (never less than a percentage it names), and its tokens when a token count
 * was crossed or the span is not the whole window.
 */
function readingText(cause: Extract<RefreshCause, { kind: "thresholds" }>): string {
  const { window, span, tokens } = cause;
  const whole = window ? `the ${formatTokens(window)}-token context window` : undefined;
  if (span !== undefined && tokens !== undefined) {
    return `${percentText((tokens * 100) / span)} of the ${formatTokens(span)} tokens measured ` +
      `before auto-compaction (${groupDigits(tokens)} tokens${whole ? ` of ${whole}` : ""})`;
  }
  const share = percentText(cause.percent);
  if (tokens !== undefined && cause.thresholds.some(isTokenThreshold)) {
    return `${groupDigits(tokens)} tokens${whole ? ` (${share} of ${whole})` : ""}`;
  }
  return whole ? `${share} of ${whole}` : share;
}

/**
 * What a refresh written with `token` answers, as its header says it (`30,52`, `calls:20`,
 * `compact`), or undefined when `text` does not start with such a header. Delivery receipts
 * (core/receipts.ts) recognise this hook's answers by it.
 *
 * @example
 * ```ts
 * refreshLabelOf("[lessons-reinject refresh compact ref=0a1b2c3d] The context ...", "0a1b2c3d");
 * // "compact"
 * ```
 */
export function refreshLabelOf(text: string, token: string): string | undefined {
  const match = HEADER.exec(text);
  return match && match[2] === token ? match[1] : undefined;
}

/**
 * The thresholds a refresh header written with `token` names (none for the fallback counter), or
 * undefined when `text` does not start with a threshold refresh's header.
 *
 * @example
 * ```ts
 * parseRefreshHeader("[lessons-reinject refresh 30,60k ref=0a1b2c3d] Context ...", "0a1b2c3d");
 * // [30, 60000]
 * ```
 */
export function parseRefreshHeader(text: string, token: string): Threshold[] | undefined {
  const label = refreshLabelOf(text, token);
  if (label === undefined || !THRESHOLD_LABEL.test(label)) return undefined;
  if (label.startsWith("calls:")) return [];
  return label.split(",").flatMap((name) => {
    const threshold = thresholdOf(name);
    return threshold.kind === "valid" ? [threshold.value] : [];
  });
}

/**
 * A window size as people say it.
 *
 * @example
 * ```ts
 * formatTokens(200_000); // "200k"
 * formatTokens(1_000_000); // "1M"
 * ```
 */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000 && tokens % 1_000_000 === 0) return `${tokens / 1_000_000}M`;
  if (tokens >= 1000) return `${Math.round(tokens / 1000)}k`;
  return String(tokens);
}
