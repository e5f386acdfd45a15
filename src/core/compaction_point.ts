/** Where Claude Code will auto-compact, and the span percentage thresholds are measured against. */
import { AUTOCOMPACT_BUFFER, AUTOCOMPACT_MARGIN, SUMMARY_OUTPUT_BUFFER } from "./claude_code.ts";
import { AUTO_WINDOW, BLOCKING_BUFFER, LARGE_WINDOW } from "./claude_code.ts";
import { MIN_AUTO_COMPACT_WINDOW } from "./claude_code.ts";
import { groupDigits, isTokenThreshold, type Threshold } from "./numbers.ts";
import { hasAutoWindow, modelKey } from "./window.ts";

/** One settings file's say: `autoCompactWindow`, and per model a window or "auto". */
export interface CompactSettingsSource {
  file: string;
  enabled?: boolean;
  window?: number;
  byModel?: Record<string, number | "auto">;
}

export interface CompactSettings {
  enabled?: { value: boolean; file: string };
  window?: { value: number; file: string };
  byModel: Record<string, { value: number | "auto"; file: string }>;
}

/** Claude Code's environment, as far as auto-compaction goes (`DISABLE_COMPACT` first). */
export interface CompactEnv {
  window?: { tokens: number; raw: string };
  pct?: number;
  off?: "DISABLE_COMPACT" | "DISABLE_AUTO_COMPACT";
  /** Another host's own rule (io/hosts.ts): a token count, or a share of the window. */
  host?: { tokens?: number; share?: number; source: string; evidence: string };
}

/** Where auto-compaction fires (`tokens`, in the auto-compact `window`), or that it never does. */
export type CompactionPoint =
  | { kind: "point"; tokens: number; window: number; source: string; evidence: string }
  | { kind: "off"; evidence: string };

/**
 * `CLAUDE_CODE_AUTO_COMPACT_WINDOW` as 2.1.328 reads it: `400k`, `1m`, `1e6`, `1,000,000`; under 1
 * ignored, under 100,000 counted as 100,000 (`50000` is 100,000).
 */
export function autoCompactWindowOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  const last = text.slice(-1).toLowerCase();
  const unit = last === "m" ? 1e6 : last === "k" ? 1000 : undefined;
  const value = unit === undefined ? integerOf(text) : parseFloat(text) * unit;
  if (!Number.isSafeInteger(Math.round(value)) || value < 1) return undefined;
  return Math.max(MIN_AUTO_COMPACT_WINDOW, Math.round(value));
}

/** An environment value as Claude Code reads a whole number: `1e6`, `1,000,000`, else digits. */
function integerOf(text: string): number {
  const short = text.length <= 32;
  if (short && /^[+-]?(\d+(\.\d*)?|\.\d+)[eE][+-]?\d+$/.test(text)) {
    return Number.isInteger(Number(text)) ? Number(text) : NaN;
  }
  const grouped = short && /^[+-]?\d{1,3}([_,\u00A0\u202F ])\d{3}(?:\1\d{3})*$/.test(text);
  return parseInt(grouped ? text.replace(/[_,\u00A0\u202F ]/g, "") : text, 10);
}

/** `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` as Claude Code reads it: used when above 0, at most 100. */
export function autocompactPctOf(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const value = parseFloat(raw);
  return value > 0 && value <= 100 ? value : undefined;
}

/** Merges settings files, lowest first, as 2.1.328: a top-level window drops per-model ones. */
export function mergeCompactSettings(sources: readonly CompactSettingsSource[]): CompactSettings {
  const merged: CompactSettings = { byModel: {} };
  for (const source of sources) {
    const own: CompactSettings["byModel"] = {};
    for (const [key, value] of Object.entries(source.byModel ?? {})) {
      const canonical = modelKey(key);
      if (key === canonical || !Object.hasOwn(own, canonical)) {
        own[canonical] = { value, file: source.file };
      }
    }
    if (source.window === undefined) Object.assign(merged.byModel, own);
    else [merged.window, merged.byModel] = [{ value: source.window, file: source.file }, own];
    if (source.enabled !== undefined) merged.enabled = { value: source.enabled, file: source.file };
  }
  return merged;
}

interface CompactionInputs {
  window: number;
  model?: string | undefined;
  /** The release that wrote the reading, and its tokens (past an assumed point, it is not one). */
  version?: string | undefined;
  tokens?: number | undefined;
  env: CompactEnv;
  files?: CompactSettings | undefined;
  learned?: number | undefined;
}

/** The most a context on `window` holds: its compaction point, or with none the blocking limit. */
export function endOf(point: CompactionPoint, window: number): number {
  return point.kind === "point" ? point.tokens : window - SUMMARY_OUTPUT_BUFFER - BLOCKING_BUFFER;
}

/** Where Claude Code auto-compacts (2.1.328, 2.1.337); a lower learned point wins (why, unread). */
export function compactionPoint(inputs: CompactionInputs): CompactionPoint {
  const { env, files } = inputs;
  if (env.off) return { kind: "off", evidence: `${env.off} is set` };
  if (env.host) {
    const { tokens: limit, share = 1, source, evidence } = env.host;
    const { window } = inputs;
    const tokens = Math.min(limit ?? Math.floor(window * share), window);
    return { kind: "point", tokens, window, source, evidence };
  }
  if (files?.enabled?.value === false) {
    return { kind: "off", evidence: `autoCompactEnabled is false in ${files.enabled.file}` };
  }
  const configured = configuredWindow(env, files, inputs.model);
  const auto = configured || env.pct !== undefined ? undefined : autoWindowOf(inputs);
  const set = configured ?? (auto?.passed === undefined ? auto : undefined);
  const window = Math.min(inputs.window, set?.tokens ?? inputs.window);
  const effective = window - SUMMARY_OUTPUT_BUFFER;
  let tokens = effective - AUTOCOMPACT_BUFFER;
  let source = set?.source ?? "the model's window";
  let evidence = `the ${groupDigits(window)}-token window${auto?.passed ?? ""}`;
  if (set) {
    const own = groupDigits(inputs.window);
    const capped = set.tokens > inputs.window ? ` (capped to the model's ${own})` : "";
    evidence = `${set.evidence}: a ${groupDigits(window)}-token auto-compact window${capped}`;
  }
  if (auto && set === auto) evidence += `, assumed until a reading passes ${groupDigits(tokens)}`;
  const byPct = env.pct === undefined ? undefined : Math.floor(effective * (env.pct / 100));
  if (byPct !== undefined && byPct <= tokens) {
    tokens = byPct;
    source = "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE";
    evidence = `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=${env.pct}: ${env.pct}% of ${
      groupDigits(effective)
    } (${evidence}, less the summary's ${groupDigits(SUMMARY_OUTPUT_BUFFER)})`;
  }
  const learned = inputs.learned;
  if (learned === undefined || learned >= tokens) {
    return { kind: "point", tokens, window, source, evidence };
  }
  return {
    kind: "point",
    tokens: learned,
    window: Math.min(window, learned + AUTOCOMPACT_MARGIN),
    source: "an earlier auto-compaction",
    evidence: `this session auto-compacted at ${groupDigits(learned)} tokens, before the ` +
      `${groupDigits(tokens)} its settings give (${evidence})`,
  };
}

/**
 * Claude Code 2.1.334+'s "auto" window for a natively-1M model, as far as the hook can know it (the
 * rollout is decided on Anthropic's server): assumed, so no refresh is planned past where it would
 * compact, until a reading passes that point (`passed`: the full window, and why).
 */
function autoWindowOf({ window, model, version, tokens }: CompactionInputs) {
  if (window !== LARGE_WINDOW || !hasAutoWindow(model, version)) return undefined;
  const evidence = `Claude Code ${AUTO_WINDOW.from}+'s auto window for ${modelKey(model ?? "")}`;
  const at = AUTO_WINDOW.tokens - AUTOCOMPACT_MARGIN;
  const passed = tokens !== undefined && tokens > at
    ? ` (a reading of ${groupDigits(tokens)} passed the ${groupDigits(at)} of ${evidence})`
    : undefined;
  return {
    tokens: AUTO_WINDOW.tokens,
    source: `Claude Code ${AUTO_WINDOW.from}+`,
    evidence,
    passed,
  };
}

/** The auto-compact window set for `model`: by the environment, else the settings files. */
function configuredWindow(
  env: CompactEnv,
  files: CompactSettings | undefined,
  model: string | undefined,
): { tokens: number; source: string; evidence: string } | undefined {
  const setting = "autoCompactWindow setting";
  if (env.window) {
    const evidence = `CLAUDE_CODE_AUTO_COMPACT_WINDOW=${env.window.raw}`;
    return { tokens: env.window.tokens, source: "CLAUDE_CODE_AUTO_COMPACT_WINDOW", evidence };
  }
  const key = files && model !== undefined ? modelKey(model) : undefined;
  const perModel = key === undefined ? undefined : files?.byModel[key];
  if (perModel !== undefined) {
    if (perModel.value === "auto") return undefined;
    const evidence = `modelSettings.${key}.autoCompactWindow ${perModel.value} in ${perModel.file}`;
    return { tokens: perModel.value, source: setting, evidence };
  }
  if (!files?.window) return undefined;
  const evidence = `autoCompactWindow ${files.window.value} in ${files.window.file}`;
  return { tokens: files.window.value, source: setting, evidence };
}

/** An auto-compact window or percentage is set: a compaction's size then proves no window. */
export function compactsEarly(env: CompactEnv, files: CompactSettings | undefined): boolean {
  if (env.window !== undefined || env.pct !== undefined) return true;
  return files !== undefined &&
    (files.window !== undefined || Object.values(files.byModel).some((v) => v.value !== "auto"));
}

/** Share of the span by which the highest percentage threshold stays below the compaction. */
const LEAD_SHARE = 0.03;

/** What the compaction point is worked out from, and the thresholds a span is narrowed for. */
interface SpanContext extends Omit<CompactionInputs, "window" | "model"> {
  thresholds: readonly Threshold[];
  scale: boolean;
}

/**
 * Where `model` on `window` auto-compacts, and the span percentage thresholds are measured against:
 * the window, unless it compacts early; then the window that compacts there (point + 33,000),
 * narrowed until the highest percentage lands 3% of it before the point.
 */
export function spanFor(window: number, model: string | undefined, context: SpanContext) {
  const compaction: CompactionPoint = compactionPoint({ ...context, window, model });
  if (!context.scale || compaction.kind === "off") return { compaction, span: window };
  const base = Math.min(window, compaction.tokens + AUTOCOMPACT_MARGIN);
  if (base >= window) return { compaction, span: window };
  const highest = Math.max(...context.thresholds.filter((t) => !isTokenThreshold(t)));
  const target = compaction.tokens - LEAD_SHARE * base;
  // No percentage (highest is -Infinity), or it lands early enough.
  if ((highest * base) / 100 <= target) return { compaction, span: base };
  return { compaction, span: Math.max(1, Math.floor((Math.max(target, 1) * 100) / highest)) };
}
