/** A refresh's first line; its per-session token lets only this hook's text be recognised. */
import { groupDigits, isTokenThreshold, percentText, type Threshold } from "./numbers.ts";
import { thresholdOf, thresholdText } from "./numbers.ts";
import { failed } from "./result.ts";

/** Thresholds crossed, the fallback counter's n-th call, or a compaction (and what it crossed). */
export type RefreshCause =
  | {
    kind: "thresholds";
    thresholds: readonly Threshold[];
    percent: number;
    window?: number;
    /** The span percentages were measured against, when less than the window. */
    span?: number;
    tokens?: number;
    /** On a span over 200k, where thresholds are token counts: the reading is said in tokens. */
    inTokens?: boolean;
  }
  | { kind: "toolCount"; calls: number }
  | { kind: "compaction"; thresholds: readonly Threshold[] };

const TAG = "lessons-reinject refresh";
const HEADER = /^\[lessons-reinject refresh ([^\s\]]+) ref=([0-9a-f]{8})\]/;
/** The labels naming thresholds (`30`, `60k`, `1M`) or the fallback counter's call count. */
const THRESHOLD_LABEL = /^(?:[0-9]+[kM]?(?:,[0-9]+[kM]?)*|calls:[0-9]+)$/;

/** The header line, naming what the refresh restates (`contents`; the lessons when not given). */
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

/** The reading as a share of the span; its tokens too for a token threshold or a cut span. */
function readingText(cause: Extract<RefreshCause, { kind: "thresholds" }>): string {
  const { window, span, tokens } = cause;
  const whole = window ? `the ${formatTokens(window)}-token context window` : undefined;
  if (span !== undefined && tokens !== undefined) {
    return `${percentText((tokens * 100) / span)} of the ${formatTokens(span)} tokens measured ` +
      `before auto-compaction (${groupDigits(tokens)} tokens${whole ? ` of ${whole}` : ""})`;
  }
  const share = percentText(cause.percent);
  if (tokens !== undefined && (cause.inTokens || cause.thresholds.some(isTokenThreshold))) {
    return `${groupDigits(tokens)} tokens${whole ? ` (${share} of ${whole})` : ""}`;
  }
  return whole ? `${share} of ${whole}` : share;
}

/** The label (`30,52`, `calls:20`, `compact`) of a refresh header written with `token`. */
export function refreshLabelOf(text: string, token: string): string | undefined {
  const match = HEADER.exec(text);
  return match && match[2] === token ? match[1] : undefined;
}

/** The label of the first of `texts` that is a refresh header written with `token`. */
export const labelIn = (texts: readonly string[], token: string): string | undefined =>
  texts.map((text) => refreshLabelOf(text, token)).find((label) => label !== undefined);

/** The thresholds a refresh header written with `token` names: `30,60k` is 30 and 60000. */
export function parseRefreshHeader(text: string, token: string): Threshold[] | undefined {
  const label = refreshLabelOf(text, token);
  if (label === undefined || !THRESHOLD_LABEL.test(label)) return undefined;
  if (label.startsWith("calls:")) return [];
  return label.split(",").map(thresholdOf).flatMap((t) => failed(t) ? [] : [t]);
}

/** A window size as people say it: `200k`, `1M`. */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000 && tokens % 1_000_000 === 0) return `${tokens / 1_000_000}M`;
  if (tokens >= 1000) return `${Math.round(tokens / 1000)}k`;
  return String(tokens);
}
