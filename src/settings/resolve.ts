/**
 * Settings resolved once, at the edge: the environment, then the config file, then the defaults,
 * into one typed object. Pure: the environment arrives as a lookup function and the file as
 * values already read. Nothing below this layer reads the environment.
 */
import { join } from "../core/path.ts";
import { DEFAULT_THRESHOLDS } from "../core/thresholds.ts";
import {
  autocompactPctOf,
  autoCompactWindowOf,
  type CompactEnv,
} from "../core/compaction_point.ts";
import type { Threshold } from "../core/numbers.ts";
import { nodeTmpdir } from "./node_tmpdir.ts";
import { type DenoNpmCache, denoNpmCache } from "./deno_cache.ts";
import { SOURCE_NAMES, type SourceName } from "../core/rule_source_names.ts";
import {
  type FileSettings,
  parseOnOff,
  type SettingKey,
  SETTINGS,
  type SettingValue,
} from "./table.ts";

/** Reads one environment variable; the only shape of "the environment" this program knows. */
export type Env = (name: string) => string | undefined;

/** Where the config file was found, and what it gave. */
export interface ConfigFileOutcome {
  /** The file read, or undefined when none exists. */
  path: string | undefined;
  via: "LESSONS_CONFIG" | "CLAUDE_PLUGIN_DATA" | "~/.config" | undefined;
  /** Valid settings it gave (invalid ones are left out and named in `problems`). */
  settings: FileSettings;
  /** One line per problem, ready for stderr. */
  problems: string[];
}

/** Every setting the hook and the commands use, resolved. */
export interface Settings {
  /**
   * The thresholds (core/numbers.ts: percentages below 100, token counts from 1,000), percentages
   * first. Each reading measures the percentages against its span (core/compaction_point.ts).
   */
  thresholds: Threshold[];
  /** Thresholds whose refresh re-arms lessons-learned's PreToolUse dedup; empty: never. */
  rearmDedupAt: Threshold[];
  /** The temp folder the lessons-learned hooks (Node's `os.tmpdir()`) use. */
  lessonsLearnedTmp: string;
  toolCountInterval: number;
  maxChars: number;
  /** `LESSONS_CONTEXT_WINDOW` or the file's `contextWindow`. */
  windowOverride: number | undefined;
  /** `CLAUDE_CODE_DISABLE_1M_CONTEXT` is set to a true value. */
  disable1m: boolean;
  /**
   * Claude Code talks to the first-party API: no `ANTHROPIC_BASE_URL` other than
   * api.anthropic.com, no `CLAUDE_CODE_USE_BEDROCK`/`_VERTEX`/`_FOUNDRY`. Some versions give
   * natively-1M models 1M only then (data/window_table.ts).
   */
  firstParty: boolean;
  manifestPath: string | undefined;
  /**
   * Where `manifestPath` came from: `LESSONS_MANIFEST_PATH`, or `manifestPath in <config file>`;
   * undefined when neither gave one.
   */
  manifestPathFrom: string | undefined;
  /** The state folder: configured, else private to this user under the temp folder. */
  stateDir: string;
  debug: boolean;
  /**
   * Claude Code's auto-compaction variables, read as Claude Code reads them:
   * `CLAUDE_CODE_AUTO_COMPACT_WINDOW`, `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`, `DISABLE_COMPACT`,
   * `DISABLE_AUTO_COMPACT` (its settings files are read by the hook, io/claude_settings.ts).
   */
  compactEnv: CompactEnv;
  /** Measure percentage thresholds against an early compaction point (off: the whole window). */
  scaleForAutocompact: boolean;
  /** How long to wait for this call's transcript entry. */
  waitMs: number;
  /** Sources of standing rules that are on (docs/own-rules.md). */
  sources: SourceName[];
  /** More rules files to restate whole. */
  rulesFiles: string[];
  /** Restate the rules once right after a compaction. */
  refreshAfterCompact: boolean;
  /** `HOME`, else `USERPROFILE`. */
  home: string | undefined;
  /** Claude Code's folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
  claudeDir: string | undefined;
  /** Set by Claude Code for plugin hooks. */
  pluginRoot: string | undefined;
  pluginData: string | undefined;
  projectDir: string | undefined;
  /** `NO_COLOR` is set to anything but "" (no-color.org): commands print no colour. */
  noColor: boolean;
  /** `COLUMNS`, as given: the terminal's width when the terminal itself cannot tell. */
  columns: string | undefined;
  /** `PATH`, split. */
  searchPath: string[];
  /** Deno's npm cache (`DENO_DIR`, its platform default, `NPM_CONFIG_REGISTRY`): doctor looks there. */
  denoNpmCache: DenoNpmCache;
  configFile: ConfigFileOutcome;
  /**
   * Config-file problems, then invalid environment values: one line each, without the
   * `lessons-reinject: ` prefix stderr gives them.
   */
  problems: string[];
}

const NO_FILE: ConfigFileOutcome = {
  path: undefined,
  via: undefined,
  settings: {},
  problems: [],
};

/**
 * Resolves every setting. The environment wins over the file, the file over the defaults; an
 * invalid value is named in `problems` and the next source is used.
 *
 * @example
 * ```ts
 * const env = (name: string) => ({ LESSONS_REINJECT_THRESHOLDS: "40,20" })[name];
 * resolveSettings(env).thresholds; // [20, 40]
 * ```
 */
export function resolveSettings(env: Env, file: ConfigFileOutcome = NO_FILE): Settings {
  const problems = [...file.problems];
  /** The environment's value, else the file's, else `fallback`; an invalid value is named. */
  const lookup = <K extends SettingKey>(
    key: K,
    fallback: SettingValue<K> | undefined,
  ): SettingValue<K> | undefined => {
    const row = SETTINGS[key];
    const fromFile = file.settings[key];
    const raw = env(row.env);
    if (raw === undefined || raw.trim() === "") return fromFile ?? fallback;
    const parsed = row.parse(raw);
    if (parsed.kind === "valid") return parsed.value;
    const instead = fromFile !== undefined
      ? `the config file's ${shown(fromFile)}`
      : fallback !== undefined
      ? `the default, ${shown(fallback)}`
      : row.absent ?? "the default";
    problems.push(`${row.env}="${raw}": ${parsed.problem}; using ${instead}`);
    return fromFile ?? fallback;
  };
  const setting = <K extends SettingKey>(key: K, fallback: SettingValue<K>): SettingValue<K> =>
    lookup(key, fallback) ?? fallback;

  const home = homeFrom(env);
  const thresholds = setting("thresholds", [...DEFAULT_THRESHOLDS]);
  const compactEnv = compactEnvOf(env);
  return {
    thresholds,
    rearmDedupAt: rearmAt(lookup("rearmDedupAt", undefined) ?? [], thresholds, problems),
    lessonsLearnedTmp: nodeTmpdir(env, Deno.build.os),
    toolCountInterval: setting("toolCountInterval", 20),
    maxChars: setting("maxChars", 9_500),
    windowOverride: lookup("contextWindow", undefined),
    disable1m: isOn(env("CLAUDE_CODE_DISABLE_1M_CONTEXT")),
    firstParty: isFirstParty(env),
    manifestPath: expandHome(lookup("manifestPath", undefined), home),
    manifestPathFrom: manifestPathFrom(env, file),
    stateDir: expandHome(lookup("stateDir", undefined), home) ?? defaultStateDir(env),
    debug: setting("debug", false),
    compactEnv,
    scaleForAutocompact: setting("scaleForAutocompact", true),
    waitMs: setting("waitMs", 250),
    sources: setting("sources", [...SOURCE_NAMES]),
    rulesFiles: setting("rulesFiles", []).map((p) => expandHome(p, home) ?? p),
    refreshAfterCompact: setting("refreshAfterCompact", true),
    home,
    claudeDir: nonEmpty(env("CLAUDE_CONFIG_DIR")) ?? (home ? join(home, ".claude") : undefined),
    pluginRoot: nonEmpty(env("CLAUDE_PLUGIN_ROOT")),
    pluginData: nonEmpty(env("CLAUDE_PLUGIN_DATA")),
    projectDir: nonEmpty(env("CLAUDE_PROJECT_DIR")),
    noColor: (env("NO_COLOR") ?? "") !== "",
    columns: nonEmpty(env("COLUMNS")),
    searchPath: (env("PATH") ?? "").split(isWindows() ? ";" : ":").filter((d) => d !== ""),
    denoNpmCache: denoNpmCache(env, Deno.build.os),
    configFile: file,
    problems,
  };
}

/**
 * The re-arm thresholds in effect: those among the thresholds (another is named in `problems`
 * and dropped: no refresh happens there).
 */
function rearmAt(
  wanted: readonly Threshold[],
  thresholds: readonly Threshold[],
  problems: string[],
): Threshold[] {
  const stray = wanted.filter((t) => !thresholds.includes(t));
  if (stray.length > 0) {
    problems.push(
      `${SETTINGS.rearmDedupAt.env}: ${stray.join(",")} ${stray.length === 1 ? "is" : "are"} ` +
        `not among the thresholds (${thresholds.join(",")}); ignored`,
    );
  }
  return wanted.filter((t) => thresholds.includes(t));
}

/** Claude Code's auto-compaction variables, read the way Claude Code 2.1.328 reads them. */
function compactEnvOf(env: Env): CompactEnv {
  const raw = env("CLAUDE_CODE_AUTO_COMPACT_WINDOW");
  const tokens = raw === undefined ? undefined : autoCompactWindowOf(raw);
  const rawPct = env("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE");
  const pct = rawPct === undefined ? undefined : autocompactPctOf(rawPct);
  // `DISABLE_COMPACT` (also no /compact) is checked first, then `DISABLE_AUTO_COMPACT`.
  const off = isOn(env("DISABLE_COMPACT"))
    ? "DISABLE_COMPACT" as const
    : isOn(env("DISABLE_AUTO_COMPACT"))
    ? "DISABLE_AUTO_COMPACT" as const
    : undefined;
  return {
    ...(tokens !== undefined && raw !== undefined ? { window: { tokens, raw: raw.trim() } } : {}),
    ...(pct !== undefined ? { pct } : {}),
    ...(off ? { off } : {}),
  };
}

/** Which source gives the manifest's path: the environment when valid there, else the file. */
function manifestPathFrom(env: Env, file: ConfigFileOutcome): string | undefined {
  const row = SETTINGS.manifestPath;
  const raw = env(row.env);
  if (raw !== undefined && row.parse(raw).kind === "valid") return row.env;
  return file.settings.manifestPath !== undefined
    ? `${row.key} in ${file.path ?? "the config file"}`
    : undefined;
}

function isOn(raw: string | undefined): boolean {
  const parsed = parseOnOff(raw ?? "");
  return parsed.kind === "valid" && parsed.value;
}

function shown(value: unknown): string {
  return Array.isArray(value) ? value.join(",") : String(value);
}

/** The home folder: `HOME`, else `USERPROFILE` (Windows); an empty value is no value. */
export function homeFrom(env: Env): string | undefined {
  return nonEmpty(env("HOME")) ?? nonEmpty(env("USERPROFILE"));
}

function nonEmpty(raw: string | undefined): string | undefined {
  return raw === undefined || raw.trim() === "" ? undefined : raw;
}

function isWindows(): boolean {
  return Deno.build.os === "windows";
}

/** `~` and `~/...` as paths under the home folder. */
export function expandHome(path: string | undefined, home: string | undefined): string | undefined {
  if (path === undefined || !home) return path;
  if (path === "~" || path.startsWith("~/")) return join(home, path.slice(1));
  return path;
}

/**
 * The default state folder: private to this user, under the system temp folder, named by a hash
 * of the user and home so two users sharing `/tmp` never share state.
 */
function defaultStateDir(env: Env): string {
  const tmp = nonEmpty(env("TMPDIR")) ?? nonEmpty(env("TMP")) ?? nonEmpty(env("TEMP")) ??
    (isWindows() ? "C:\\Windows\\Temp" : "/tmp");
  const who = nonEmpty(env("USER")) ?? nonEmpty(env("USERNAME")) ?? nonEmpty(env("LOGNAME")) ??
    nonEmpty(env("HOME")) ?? "user";
  return join(tmp, `lessons-reinject-${fnv1a(`${who}\0${env("HOME") ?? ""}`)}`);
}

/** A short stable hash for folder names (not security: the folder's mode and owner are). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** True unless a gateway base URL or a cloud provider is configured for Claude Code. */
function isFirstParty(env: (name: string) => string | undefined): boolean {
  const providers = [
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    "CLAUDE_CODE_USE_FOUNDRY",
  ];
  if (providers.some((name) => isOn(env(name)))) return false;
  const base = nonEmpty(env("ANTHROPIC_BASE_URL"));
  if (base === undefined) return true;
  try {
    return new URL(base).host === "api.anthropic.com";
  } catch {
    return false;
  }
}
