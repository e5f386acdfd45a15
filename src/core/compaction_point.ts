/**
 * Where Claude Code will auto-compact this context, and from what: its auto-compact window
 * (`CLAUDE_CODE_AUTO_COMPACT_WINDOW`, the `autoCompactWindow` settings), the percentage override,
 * the switches that turn auto-compaction off, and what the session's own auto-compactions showed.
 * Then the span the thresholds are measured against. Pure; docs/context-windows.md has the code read.
 */
import {
  AUTOCOMPACT_BUFFER,
  MIN_AUTO_COMPACT_WINDOW,
  SUMMARY_OUTPUT_BUFFER,
} from "./claude_code.ts";
import { groupDigits, isTokenThreshold, type Threshold } from "./numbers.ts";
import { rowOf } from "./window.ts";

/** One settings file's say on auto-compaction, as Claude Code's settings schema keeps it. */
export interface CompactSettingsSource {
  /** Where it was read, as `status` and `doctor` name it. */
  file: string;
  /** `autoCompactEnabled`, when a boolean. */
  enabled?: boolean;
  /** The top-level `autoCompactWindow`, when a whole number of at least 100,000. */
  window?: number;
  /** `modelSettings.<model>.autoCompactWindow`: a window, or "auto" (the model's own). */
  byModel?: Record<string, number | "auto">;
}

/** The sources merged the way Claude Code merges them (lowest precedence first in the input). */
export interface CompactSettings {
  /** `autoCompactEnabled` of the highest-precedence file that sets it. */
  enabled?: { value: boolean; file: string };
  /** The top-level window in effect: the highest-precedence file that sets one. */
  window?: { value: number; file: string };
  /** Per-model windows in effect (canonical model id -> value and file). */
  byModel: Record<string, { value: number | "auto"; file: string }>;
}

/** Claude Code's environment, as far as auto-compaction goes (resolved in src/settings). */
export interface CompactEnv {
  /** `CLAUDE_CODE_AUTO_COMPACT_WINDOW` as Claude Code reads it (see {@link autoCompactWindowOf}). */
  window?: { tokens: number; raw: string };
  /** `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` when usable (above 0, at most 100). */
  pct?: number;
  /** The variable that turns auto-compaction off, when set: `DISABLE_COMPACT` first. */
  off?: "DISABLE_COMPACT" | "DISABLE_AUTO_COMPACT";
}

/** Where auto-compaction fires, or that it never does. */
export type CompactionPoint =
  | {
    kind: "point";
    /** Tokens at which Claude Code compacts. */
    tokens: number;
    /** The auto-compact window it is computed from (the model's window when none is set). */
    window: number;
    source: CompactionSource;
    /** One phrase for `status`, `doctor` and the debug line. */
    evidence: string;
  }
  | { kind: "off"; evidence: string };

/**
 * The point of a window nothing moves: its own, 33,000 below it. The evidence is written only
 * when something reads it, so a hook call that only compares numbers builds no text.
 */
export function usualPoint(window: number): CompactionPoint {
  return {
    kind: "point",
    tokens: window - SUMMARY_OUTPUT_BUFFER - AUTOCOMPACT_BUFFER,
    window,
    source: "the model's window",
    get evidence() {
      return `the ${groupDigits(window)}-token window`;
    },
  };
}

/** What decided the compaction point. */
export type CompactionSource =
  | "the model's window"
  | "CLAUDE_CODE_AUTO_COMPACT_WINDOW"
  | "autoCompactWindow setting"
  | "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"
  | "an earlier auto-compaction";

/**
 * `CLAUDE_CODE_AUTO_COMPACT_WINDOW` as Claude Code 2.1.328 reads it (`j0e` with bare thousands
 * off): a `k` or `m` suffix multiplies `parseFloat` of the rest, otherwise `parseInt` (with
 * `1e6` and `1,000,000` understood); a value under 1 is ignored, one under 100,000 counts as
 * 100,000. Undefined when unset or unusable (Claude Code then falls back to the settings).
 *
 * @example
 * ```ts
 * autoCompactWindowOf("400k"); // 400_000
 * autoCompactWindowOf("50000"); // 100_000 (the minimum)
 * autoCompactWindowOf("lots"); // undefined
 * ```
 */
export function autoCompactWindowOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  const last = text.slice(-1).toLowerCase();
  const unit = last === "m" ? 1e6 : last === "k" ? 1000 : undefined;
  const value = unit === undefined ? claudeInt(text) : parseFloat(text) * unit;
  if (!Number.isSafeInteger(Math.round(value)) || value < 1) return undefined;
  return value < MIN_AUTO_COMPACT_WINDOW ? MIN_AUTO_COMPACT_WINDOW : Math.round(value);
}

/** Claude Code's integer reading of an environment value (`Ym`): `1e6`, `1,000,000`, `parseInt`. */
function claudeInt(text: string): number {
  if (text.length <= 32) {
    if (/^[+-]?(\d+(\.\d*)?|\.\d+)[eE][+-]?\d+$/.test(text)) {
      const n = Number(text);
      return Number.isInteger(n) ? n : NaN;
    }
    if (/^[+-]?\d{1,3}([_,\u00A0\u202F ])\d{3}(?:\1\d{3})*$/.test(text)) {
      return parseInt(text.replace(/[_,\u00A0\u202F ]/g, ""), 10);
    }
  }
  return parseInt(text, 10);
}

/**
 * `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` as Claude Code reads it: `parseFloat`, used when above 0 and
 * at most 100.
 *
 * @example
 * ```ts
 * autocompactPctOf("50"); // 50
 * autocompactPctOf("0"); // undefined
 * ```
 */
export function autocompactPctOf(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const value = parseFloat(raw);
  return value > 0 && value <= 100 ? value : undefined;
}

/**
 * The model id a settings key or a transcript's model names, as Claude Code keys per-model
 * settings: lower case, without `[1m]`, a provider prefix or a date; a family the window table
 * knows is reduced to that family.
 *
 * @example
 * ```ts
 * settingsKeyOf("claude-sonnet-4-5-20250929"); // "claude-sonnet-4-5"
 * settingsKeyOf("claude-opus-5-5[1m]"); // "claude-opus-5-5"
 * ```
 */
export function settingsKeyOf(model: string): string {
  const row = rowOf(model);
  if (row) return row.family;
  const lower = model.toLowerCase().replace(/\[1m\]$/, "");
  const at = lower.indexOf("claude-");
  return (at > 0 ? lower.slice(at) : lower).replace(/[-@]\d{8}$/, "");
}

/**
 * Merges settings sources, lowest precedence first, as Claude Code 2.1.328 does (`gyn`, `ja`):
 * `autoCompactEnabled` from the highest file that sets it; a file with a top-level
 * `autoCompactWindow` replaces everything below it (its own per-model entries kept); a file
 * without one adds its per-model entries over the ones below.
 */
export function mergeCompactSettings(sources: readonly CompactSettingsSource[]): CompactSettings {
  let merged: CompactSettings = { byModel: {} };
  for (const source of sources) {
    const own: CompactSettings["byModel"] = {};
    for (const [key, value] of Object.entries(source.byModel ?? {})) {
      const canonical = settingsKeyOf(key);
      // The canonical spelling wins over another spelling of the same model in one file.
      if (key === canonical || !Object.hasOwn(own, canonical)) {
        own[canonical] = { value, file: source.file };
      }
    }
    merged = source.window === undefined
      ? { ...merged, byModel: { ...merged.byModel, ...own } }
      : { ...merged, window: { value: source.window, file: source.file }, byModel: own };
    if (source.enabled !== undefined) {
      merged = { ...merged, enabled: { value: source.enabled, file: source.file } };
    }
  }
  return merged;
}

/** What the compaction point is computed from. */
export interface CompactionInputs {
  /** The model's context window, as the reading is measured against it. */
  window: number;
  model?: string | undefined;
  env: CompactEnv;
  /** The settings files merged; undefined when not read. */
  files?: CompactSettings | undefined;
  /** `preTokens` of this session's newest auto-compaction. */
  learned?: number | undefined;
}

/**
 * Where Claude Code 2.1.328 auto-compacts: `DISABLE_COMPACT`, `DISABLE_AUTO_COMPACT` or
 * `autoCompactEnabled: false` mean never; else the auto-compact window (the environment, then
 * the settings for this model, then the model's window; never above the model's window) less
 * the summary's output buffer (20,000) is the effective window, and compaction fires 13,000
 * below it, or at the override's share of it when that is lower. A learned point (an earlier
 * auto-compaction of this session) wins when it is lower: Claude Code compacted there for a
 * reason the hook cannot read (a server experiment, `--settings`).
 *
 * @example
 * ```ts
 * compactionPoint({ window: 1_000_000, env: { window: { tokens: 400_000, raw: "400k" } } });
 * // { kind: "point", tokens: 367_000, window: 400_000, source: "CLAUDE_CODE_AUTO_COMPACT_WINDOW", ... }
 * ```
 */
export function compactionPoint(inputs: CompactionInputs): CompactionPoint {
  const { env, files, model } = inputs;
  if (env.off) return { kind: "off", evidence: `${env.off} is set` };
  if (files?.enabled?.value === false) {
    return { kind: "off", evidence: `autoCompactEnabled is false in ${files.enabled.file}` };
  }
  const configured = configuredWindow(env, files, model);
  if (configured === undefined && env.pct === undefined && inputs.learned === undefined) {
    return usualPoint(inputs.window);
  }
  const window = Math.min(inputs.window, configured?.tokens ?? inputs.window);
  const effective = window - SUMMARY_OUTPUT_BUFFER;
  const usual = effective - AUTOCOMPACT_BUFFER;
  const byPct = env.pct === undefined ? undefined : Math.floor(effective * (env.pct / 100));
  const tokens = byPct !== undefined && byPct < usual ? byPct : usual;
  const capped = configured !== undefined && configured.tokens > inputs.window
    ? ` (capped to the model's ${groupDigits(inputs.window)})`
    : "";
  let source: CompactionSource = configured?.source ?? "the model's window";
  let evidence = configured
    ? `${configured.evidence}: a ${groupDigits(window)}-token auto-compact window${capped}`
    : `the ${groupDigits(window)}-token window`;
  if (tokens === byPct) {
    source = "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE";
    evidence = `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=${env.pct}: ${env.pct}% of ${
      groupDigits(effective)
    } (${evidence}, less the summary's ${groupDigits(SUMMARY_OUTPUT_BUFFER)})`;
  }
  const learned = inputs.learned;
  if (learned !== undefined && learned < tokens) {
    return {
      kind: "point",
      tokens: learned,
      window: Math.min(window, learned + AUTOCOMPACT_BUFFER + SUMMARY_OUTPUT_BUFFER),
      source: "an earlier auto-compaction",
      evidence: `this session auto-compacted at ${groupDigits(learned)} tokens, before the ` +
        `${groupDigits(tokens)} its settings give (${evidence})`,
    };
  }
  return { kind: "point", tokens, window, source, evidence };
}

/** The auto-compact window set for `model`: the environment, then the settings files. */
function configuredWindow(
  env: CompactEnv,
  files: CompactSettings | undefined,
  model: string | undefined,
): { tokens: number; source: CompactionSource; evidence: string } | undefined {
  if (env.window) {
    return {
      tokens: env.window.tokens,
      source: "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
      evidence: `CLAUDE_CODE_AUTO_COMPACT_WINDOW=${env.window.raw}`,
    };
  }
  if (!files) return undefined;
  const key = model === undefined ? undefined : settingsKeyOf(model);
  const perModel = key === undefined ? undefined : files.byModel[key];
  if (perModel !== undefined) {
    if (perModel.value === "auto") return undefined;
    return {
      tokens: perModel.value,
      source: "autoCompactWindow setting",
      evidence: `modelSettings.${key}.autoCompactWindow ${perModel.value} in ${perModel.file}`,
    };
  }
  if (files.window) {
    return {
      tokens: files.window.value,
      source: "autoCompactWindow setting",
      evidence: `autoCompactWindow ${files.window.value} in ${files.window.file}`,
    };
  }
  return undefined;
}

/**
 * True when something may make Claude Code compact before a window's usual point (an
 * auto-compact window or a percentage is set): an auto-compaction's size then says nothing about
 * the model's window below 200k.
 */
export function compactsEarly(env: CompactEnv, files: CompactSettings | undefined): boolean {
  if (env.window !== undefined || env.pct !== undefined) return true;
  if (files === undefined || saysNothing(files)) return false;
  return files.window !== undefined ||
    Object.values(files.byModel).some((v) => v.value !== "auto");
}

/** Share of the span by which the highest percentage threshold stays below the compaction. */
export const LEAD_SHARE = 0.03;

/**
 * The span (tokens) the percentage thresholds are measured against. The model's window, unless
 * Claude Code compacts before that window's usual point: then the window that compacts there
 * (the compaction point plus Claude Code's 33,000-token buffer, which is the auto-compact window
 * itself), narrowed further if the highest percentage would still land within 3 % of the span of
 * the compaction (the scaling once done for the percentage override alone, generalised). At the
 * usual point, with auto-compaction off, or with `scale` off: the model's window (a percentage
 * past the usual point is `doctor`'s to point out). Token thresholds do not move.
 *
 * @example
 * ```ts
 * const point = { kind: "point", tokens: 367_000, window: 400_000,
 *   source: "CLAUDE_CODE_AUTO_COMPACT_WINDOW", evidence: "" } as const;
 * thresholdSpan(point, 1_000_000, [30, 52, 70], true); // 400_000
 * ```
 */
export function thresholdSpan(
  point: CompactionPoint | undefined,
  window: number,
  thresholds: readonly Threshold[],
  scale: boolean,
): number {
  if (!scale || point === undefined || point.kind === "off") return window;
  const base = Math.min(window, point.tokens + AUTOCOMPACT_BUFFER + SUMMARY_OUTPUT_BUFFER);
  // At the window's usual point nothing moves: 30/52/70 % of 200k is what the defaults mean.
  if (base >= window) return window;
  const percents = thresholds.filter((t) => !isTokenThreshold(t));
  if (percents.length === 0) return base;
  const highest = Math.max(...percents);
  const target = point.tokens - LEAD_SHARE * base;
  if ((highest * base) / 100 <= target) return base;
  return Math.max(1, Math.floor((Math.max(target, 1) * 100) / highest));
}

/** Everything the span of a reading depends on besides its window and model. */
export interface SpanContext {
  env: CompactEnv;
  /** Claude Code's settings files, merged; undefined when not read. */
  files: CompactSettings | undefined;
  /** `preTokens` of this session's newest auto-compaction. */
  learned: number | undefined;
  thresholds: readonly Threshold[];
  /** `scaleForAutocompact`. */
  scale: boolean;
}

/**
 * Where a reading of `model` on `window` will be auto-compacted, and the span its percentage
 * thresholds are measured against.
 *
 * @example
 * ```ts
 * measuredAgainst(200_000, "claude-sonnet-4-6",
 *   { env: {}, files: undefined, learned: undefined, thresholds: [30, 52, 70], scale: true }).span;
 * // 200_000
 * ```
 */
export function measuredAgainst(
  window: number,
  model: string | undefined,
  context: SpanContext,
): { compaction: CompactionPoint; span: number } {
  const { env, files, learned } = context;
  // Nothing set and nothing learned (the usual case): the window's own point, the whole window.
  if (
    env.window === undefined && env.pct === undefined && env.off === undefined &&
    learned === undefined && saysNothing(files)
  ) {
    return { compaction: usualPoint(window), span: window };
  }
  const compaction = compactionPoint({ window, model, env, files, learned });
  return {
    compaction,
    span: thresholdSpan(compaction, window, context.thresholds, context.scale),
  };
}

/** True when Claude Code's settings files set nothing about auto-compaction (or were not read). */
export function saysNothing(files: CompactSettings | undefined): boolean {
  if (files === undefined) return true;
  if (files.window !== undefined || files.enabled?.value === false) return false;
  for (const _ in files.byModel) return false;
  return true;
}
