/**
 * The first line of every refresh: which thresholds it answers, the reading, and a per-session
 * token so that only text this hook wrote is recognised when state is rebuilt from a transcript.
 */

/**
 * What a refresh answers: thresholds crossed, the n-th tool call of the fallback counter, or a
 * compaction that ended the last context (with any thresholds its first reading also crossed).
 */
export type RefreshCause =
  | { kind: "thresholds"; thresholds: readonly number[]; percent: number; window?: number }
  | { kind: "toolCount"; calls: number }
  | { kind: "compaction"; thresholds: readonly number[] };

const TAG = "lessons-reinject refresh";
const HEADER_PATTERN =
  /^\[lessons-reinject refresh ([0-9]+(?:,[0-9]+)*|calls:[0-9]+) ref=([0-9a-f]{8})\]/;

/**
 * The header line for a refresh.
 *
 * @example
 * ```ts
 * refreshHeader({ kind: "thresholds", thresholds: [30], percent: 31.2, window: 200_000 }, "0a1b2c3d");
 * // "[lessons-reinject refresh 30 ref=0a1b2c3d] Context refresh at 31% of the 200k-token context window: ..."
 * ```
 */
export function refreshHeader(cause: RefreshCause, token: string): string {
  if (cause.kind === "compaction") {
    // Its own tag: no threshold parser mistakes it for a fired threshold.
    return `[${TAG} compact ref=${token}] The context was just compacted: your standing rules, ` +
      `restated in full because a summary keeps them only vaguely. They still apply.`;
  }
  if (cause.kind === "toolCount") {
    return `[${TAG} calls:${cause.calls} ref=${token}] Periodic refresh after ${cause.calls} tool ` +
      `calls (the context use could not be measured): your standing directives and protocols, ` +
      `restated. They still apply.`;
  }
  const window = cause.window ? ` of the ${formatTokens(cause.window)}-token context window` : "";
  return `[${TAG} ${cause.thresholds.join(",")} ref=${token}] Context refresh at ` +
    `${Math.floor(cause.percent)}%${window}: your standing directives and protocols from session ` +
    `start, restated because attention to them fades as the context fills. They still apply.`;
}

/**
 * The thresholds named by a refresh header written with `token`, or undefined when `text` does
 * not start with such a header (text that merely quotes one elsewhere does not count).
 *
 * @example
 * ```ts
 * parseRefreshHeader("[lessons-reinject refresh 30,52 ref=0a1b2c3d] Context ...", "0a1b2c3d");
 * // [30, 52]
 * ```
 */
export function parseRefreshHeader(text: string, token: string): number[] | undefined {
  const match = HEADER_PATTERN.exec(text);
  if (!match || match[2] !== token || match[1] === undefined) return undefined;
  if (match[1].startsWith("calls:")) return [];
  return match[1].split(",").map(Number);
}

const ANY_HEADER_PATTERN = /^\[lessons-reinject refresh ([^\s\]]+) ref=([0-9a-f]{8})\]/;

/**
 * What a refresh written with `token` answers, as its header says it (`30,52`, `calls:20`,
 * `compact`), or undefined when `text` does not start with such a header. Delivery receipts
 * (core/receipts.ts) recognise this hook's answers by it, whatever they answered.
 *
 * @example
 * ```ts
 * refreshLabelOf("[lessons-reinject refresh compact ref=0a1b2c3d] The context ...", "0a1b2c3d");
 * // "compact"
 * ```
 */
export function refreshLabelOf(text: string, token: string): string | undefined {
  const match = ANY_HEADER_PATTERN.exec(text);
  return match && match[2] === token ? match[1] : undefined;
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
