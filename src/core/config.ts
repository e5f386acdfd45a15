/**
 * Settings, resolved from the environment, then the config file, then defaults. Pure: the
 * environment and the parsed file arrive as values; problems come back as warning lines.
 */
import { DEFAULT_THRESHOLDS, parseThresholds, scaleForAutocompact } from "./thresholds.ts";
import { INLINE_LIMIT } from "./claude_code.ts";

/** Values a config file may set (already validated); each is optional. */
export interface FileSettings {
  thresholds?: number[] | undefined;
  toolCountInterval?: number | undefined;
  maxChars?: number | undefined;
  contextWindow?: number | undefined;
  manifestPath?: string | undefined;
  stateDir?: string | undefined;
  debug?: boolean | undefined;
  scaleForAutocompact?: boolean | undefined;
}

export interface Config {
  /** Thresholds in effect (after scaling for an early auto-compaction). */
  thresholds: number[];
  /** Thresholds as configured, before scaling. */
  configuredThresholds: number[];
  toolCountInterval: number;
  maxChars: number;
  windowOverride: number | undefined;
  disable1m: boolean;
  manifestPath: string | undefined;
  stateDir: string | undefined;
  debug: boolean;
  /** `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`, when set to a usable percentage. */
  autocompactPct: number | undefined;
  scaleForAutocompact: boolean;
  /** How long to wait for this call's transcript entry. */
  waitMs: number;
}

export interface ResolvedConfig {
  config: Config;
  warnings: string[];
}

export const DEFAULT_TOOL_COUNT_INTERVAL = 20;
export const DEFAULT_MAX_CHARS = 9_500;
export const DEFAULT_WAIT_MS = 250;

type Env = (name: string) => string | undefined;

/**
 * Resolves every setting. Environment variables win over the file, the file over defaults;
 * invalid values are named in `warnings` and replaced by the next source.
 */
export function resolveConfig(env: Env, file: FileSettings = {}): ResolvedConfig {
  const warnings: string[] = [];
  const positive = (name: string, fallback: number, max = Number.MAX_SAFE_INTEGER) => {
    const raw = env(name);
    if (raw === undefined || raw.trim() === "") return fallback;
    const value = Number(raw);
    if (Number.isInteger(value) && value > 0 && value <= max) return value;
    warnings.push(
      `lessons-reinject: ${name}="${raw}" is not a whole number from 1 to ${max}; using ${fallback}`,
    );
    return fallback;
  };

  const parsed = parseThresholds(
    env("LESSONS_REINJECT_THRESHOLDS") ?? file.thresholds?.join(","),
  );
  if (parsed.warning) warnings.push(parsed.warning);

  let maxChars = positive("LESSONS_REINJECT_MAX_CHARS", file.maxChars ?? DEFAULT_MAX_CHARS);
  if (maxChars > INLINE_LIMIT) {
    warnings.push(
      `lessons-reinject: a refresh of ${maxChars} characters would not be delivered inline ` +
        `(Claude Code's limit is ${INLINE_LIMIT}); using ${INLINE_LIMIT}`,
    );
    maxChars = INLINE_LIMIT;
  }

  const autocompactPct = autocompactPercent(env("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"));
  const scale = flag(env("LESSONS_SCALE_FOR_AUTOCOMPACT")) ?? file.scaleForAutocompact ?? true;
  const thresholds = scale && autocompactPct !== undefined
    ? scaleForAutocompact(parsed.values, autocompactPct)
    : parsed.values;

  const windowRaw = env("LESSONS_CONTEXT_WINDOW");
  const windowOverride = windowRaw !== undefined && windowRaw.trim() !== ""
    ? positive("LESSONS_CONTEXT_WINDOW", file.contextWindow ?? 0) || undefined
    : file.contextWindow;

  return {
    config: {
      thresholds,
      configuredThresholds: parsed.values,
      toolCountInterval: positive(
        "LESSONS_REINJECT_TOOL_COUNT",
        file.toolCountInterval ?? DEFAULT_TOOL_COUNT_INTERVAL,
      ),
      maxChars,
      windowOverride,
      disable1m: flag(env("CLAUDE_CODE_DISABLE_1M_CONTEXT")) ?? false,
      manifestPath: nonEmpty(env("LESSONS_MANIFEST_PATH")) ?? file.manifestPath,
      stateDir: nonEmpty(env("LESSONS_STATE_DIR")) ?? file.stateDir,
      debug: flag(env("LESSONS_DEBUG")) ?? file.debug ?? false,
      autocompactPct,
      scaleForAutocompact: scale,
      waitMs: positive("LESSONS_REINJECT_WAIT_MS", DEFAULT_WAIT_MS, 4000),
    },
    warnings,
  };
}

/** `1`/`true`/`yes`/`on` → true, `0`/`false`/`no`/`off` → false, anything else → undefined. */
export function flag(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(value)) return true;
  if (["0", "false", "no", "off", ""].includes(value)) return false;
  return undefined;
}

function nonEmpty(raw: string | undefined): string | undefined {
  return raw === undefined || raw.trim() === "" ? undefined : raw;
}

function autocompactPercent(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 && value < 100 ? value : undefined;
}

export { DEFAULT_THRESHOLDS };
