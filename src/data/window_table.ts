/**
 * Context windows by model AND Claude Code version, as read from Claude Code's own code across
 * its releases (evidence, version by version: docs/context-windows.md). Data only; the rules
 * that read it are in core/window.ts. The one place to edit when a release changes a window.
 */

/** The window every model has unless it is natively 1M or opted in to 1M. */
export const SMALL_WINDOW = 200_000;

/** Natively-1M models, `[1m]` choices, the 1M beta, and sessions whose usage outgrew 200k. */
export const LARGE_WINDOW = 1_000_000;

/**
 * How a model family gets its window.
 * - `native`: 1M by default from `nativeFrom` on (before it: 200k, or 1M through `[1m]`/beta).
 * - `optIn`: 200k by default; 1M through a `[1m]` model choice, the 1M beta or a server-side
 *   experiment, none of which the transcript records, so 200k is never certain for it.
 * - `fixed`: 200k; Claude Code never offers it 1M (its 1M-beta check excludes it).
 */
export type WindowKind = "native" | "optIn" | "fixed";

export interface ModelRow {
  /** Canonical id; dated and provider-prefixed ids of the family match it (see core/window.ts). */
  family: string;
  kind: WindowKind;
  /** First Claude Code version seen treating the family as natively 1M. */
  nativeFrom?: string;
  /**
   * Last version seen treating it as NOT natively 1M (or not knowing it). Versions between this
   * and `nativeFrom` were not read: their window is uncertain.
   */
  notNativeUntil?: string;
}

/**
 * The families, longest id first so `claude-opus-4-7` is not taken for `claude-opus-4`. Versions
 * are the ones read (docs/context-windows.md); `nativeFrom` is the earliest read release that has
 * the family natively 1M, `notNativeUntil` the latest read release that did not.
 */
export const MODEL_ROWS: readonly ModelRow[] = [
  // opus-4-7: 2.1.112 and 2.1.116 return 1M only for [1m] or the beta; 2.1.117 adds
  // `model === "claude-opus-4-7"` to the 1M branch.
  { family: "claude-opus-4-7", kind: "native", nativeFrom: "2.1.117", notNativeUntil: "2.1.116" },
  // opus-4-8: absent from 2.1.150's native check, present in 2.1.160's.
  { family: "claude-opus-4-8", kind: "native", nativeFrom: "2.1.160", notNativeUntil: "2.1.150" },
  // fable-5 and mythos-5: absent from 2.1.167's native check, present in 2.1.185's.
  { family: "claude-fable-5-2", kind: "native", nativeFrom: "2.1.328", notNativeUntil: "2.1.300" },
  { family: "claude-fable-5-1", kind: "native", nativeFrom: "2.1.260", notNativeUntil: "2.1.250" },
  { family: "claude-fable-5", kind: "native", nativeFrom: "2.1.185", notNativeUntil: "2.1.167" },
  { family: "claude-mythos-5-2", kind: "native", nativeFrom: "2.1.328", notNativeUntil: "2.1.300" },
  { family: "claude-mythos-5-1", kind: "native", nativeFrom: "2.1.260", notNativeUntil: "2.1.250" },
  { family: "claude-mythos-5", kind: "native", nativeFrom: "2.1.185", notNativeUntil: "2.1.167" },
  // The model catalog (first seen in 2.1.200) lists these with `native_1m: true`.
  { family: "claude-sonnet-5-5", kind: "native", nativeFrom: "2.1.287", notNativeUntil: "2.1.275" },
  { family: "claude-sonnet-5", kind: "native", nativeFrom: "2.1.200", notNativeUntil: "2.1.185" },
  { family: "claude-opus-5-5", kind: "native", nativeFrom: "2.1.287", notNativeUntil: "2.1.275" },
  { family: "claude-opus-5", kind: "native", nativeFrom: "2.1.250", notNativeUntil: "2.1.212" },
  { family: "claude-haiku-5-5", kind: "native", nativeFrom: "2.1.300", notNativeUntil: "2.1.287" },
  // 200k with a 1M beta (`maximum_window: 1e6` / `supports_1m_beta` in the catalog; the
  // `claude-sonnet-4` and `opus-4-6` branches of the 1M-beta check before it).
  { family: "claude-opus-4-6", kind: "optIn" },
  { family: "claude-sonnet-4-6", kind: "optIn" },
  { family: "claude-sonnet-4-5", kind: "optIn" },
  { family: "claude-sonnet-4", kind: "optIn" },
  { family: "claude-3-7-sonnet", kind: "optIn" },
  { family: "claude-3-5-sonnet", kind: "optIn" },
  // Excluded by name from the 1M-beta check in every version read.
  { family: "claude-opus-4-5", kind: "fixed" },
  { family: "claude-opus-4-1", kind: "fixed" },
  { family: "claude-opus-4-0", kind: "fixed" },
  { family: "claude-opus-4", kind: "fixed" },
  { family: "claude-haiku-4-5", kind: "fixed" },
  { family: "claude-3-5-haiku", kind: "fixed" },
  { family: "claude-3-opus", kind: "fixed" },
  { family: "claude-3-haiku", kind: "fixed" },
];

/**
 * Versions in which a natively-1M model is 1M only on the first-party API (no
 * `ANTHROPIC_BASE_URL`, or `api.anthropic.com`) or Claude Platform on AWS: through a gateway,
 * Bedrock, Vertex or Foundry it is 200k (from 2.1.200 a catalog row may allow some providers,
 * `native_1m_3p`). Read: 2.1.143 has no such check, 2.1.150 has it; 2.1.275 has it, 2.1.287 no
 * longer (the catalog's `native_1m` alone decides).
 */
export const FIRST_PARTY_GATE = {
  /** First version read that has the check, and the last read that has none before it. */
  from: "2.1.150",
  lastWithout: "2.1.143",
  /** Last version read that has the check, and the first read that has none after it. */
  until: "2.1.275",
  firstWithoutAfter: "2.1.287",
} as const;

/**
 * Auto-compaction fires at `window - min(maxOutput, 20000) - 13000` tokens (2.1.112 onwards:
 * `AUTOCOMPACT_BUFFER` 13,000 below the effective window), 167,000 on a 200k window (83.5 %). A
 * `compact_boundary` with `trigger: "auto"` and `preTokens` at or below {@link SMALL_WINDOW} was
 * therefore compacted on a 200k (auto-compact) window; `preTokens` above it proves a larger one.
 */
export const AUTOCOMPACT_MARGIN = 33_000;

/** The newest Claude Code version whose code was read for this table. */
export const NEWEST_VERSION_READ = "2.1.328";
