/** Settings resolved into one object: the environment over the file over the defaults. Pure. */
import { join } from "../core/path.ts";
import { GEMINI_DIR } from "../core/gemini.ts";
import {
  autocompactPctOf,
  autoCompactWindowOf,
  type CompactEnv,
} from "../core/compaction_point.ts";
import type { Threshold } from "../core/numbers.ts";
import { denoNpmCache, nodeTmpdir } from "./other_programs.ts";
import { failed } from "../core/result.ts";
import {
  defaultOf,
  type FileSettings,
  parseOnOff,
  type SettingRow,
  SETTINGS,
  type SettingValues,
  shown,
} from "./table.ts";

export type Env = (name: string) => string | undefined;

const isWindows = Deno.build.os === "windows";

/** The config file found (none: `path` undefined), its valid settings and a line per problem. */
export interface ConfigFileOutcome {
  path: string | undefined;
  via:
    | "LESSONS_CONFIG"
    | "CLAUDE_PLUGIN_DATA"
    | "installed plugin's data folder"
    | "~/.config"
    | undefined;
  settings: FileSettings;
  problems: string[];
  /** Every path looked at, in order. */
  looked?: string[];
  /** Only blanks or comments: accepted, and said to be empty. */
  empty?: boolean;
}

/** What a hook call runs with: each table row's value, resolved, and the folders it reads. */
export type Settings = ReturnType<typeof resolveSettings> & {
  /** Another host's instruction files, read where CLAUDE.md is, and its own folder's (io/hosts.ts). */
  hostRules?: { files: readonly string[]; dir: string | undefined };
  /** The host shows a quiet hook's stderr on every call (Gemini CLI): problems go once a context. */
  stderrShown?: boolean;
};

/** What a command runs with besides: read only by the commands, never on a hook call. */
export type CliSettings = ReturnType<typeof resolveCliSettings>;

const NO_FILE: ConfigFileOutcome = { path: undefined, via: undefined, settings: {}, problems: [] };

/** The problems of the environment's settings: every problem the config file did not give. */
export const envProblems = ({ configFile, problems }: Pick<Settings, "configFile" | "problems">) =>
  problems.filter((p) => !configFile.problems.includes(p));

/** Resolves every setting; an invalid value is named in `problems` and the next source used. */
export function resolveSettings(env: Env, file: ConfigFileOutcome = NO_FILE) {
  const problems = [...file.problems];
  function setting(row: SettingRow<unknown>): unknown {
    // The file's values were checked by this same row when the file was read.
    const fromFile = (file.settings as Record<string, unknown>)[row.key];
    const raw = env(row.env);
    if (raw === undefined || raw.trim() === "") return fromFile ?? row.fallback;
    const parsed = row.parse(raw);
    if (!failed(parsed)) return parsed;
    const instead = fromFile === undefined
      ? defaultOf(row)
      : `the config file's ${shown(fromFile)}`;
    problems.push(`${row.env}="${raw}": ${parsed.error}; using ${instead}`);
    return fromFile ?? row.fallback;
  }

  // Every row, in the table's order (their problems too); a few are finished below.
  const rows = Object.values(SETTINGS).map((row: SettingRow<unknown>) => [row.key, setting(row)]);
  const { contextWindow, ...given } = Object.fromEntries(rows) as SettingValues;
  const home = homeFrom(env);
  const geminiHome = nonEmpty(env("GEMINI_CLI_HOME")) ?? home;
  return {
    ...given,
    /** Thresholds whose refresh re-arms lessons-learned's PreToolUse dedup; empty: never. */
    rearmDedupAt: rearmAt(given.rearmDedupAt, given.thresholds, problems),
    /** The folder Node's `os.tmpdir()` gives lessons-learned's hooks. */
    lessonsLearnedTmp: nodeTmpdir(env, Deno.build.os),
    /** The context window the user gives (`LESSONS_CONTEXT_WINDOW`); undefined: the evidence's. */
    windowOverride: contextWindow,
    /** `CLAUDE_CODE_DISABLE_1M_CONTEXT` is on. */
    disable1m: isOn(env("CLAUDE_CODE_DISABLE_1M_CONTEXT")),
    /** Some Claude Code versions give 1M only on the first-party API. */
    firstParty: isFirstParty(env),
    /** The manifest to read; undefined: the one found by searching. */
    manifestPath: expandHome(given.manifestPath, home),
    /** `LESSONS_MANIFEST_PATH`, or `manifestPath in <config file>`; undefined: neither. */
    manifestPathFrom: manifestPathFrom(env, file),
    /** The folder of the per-session state files. */
    stateDir: expandHome(given.stateDir, home) ?? defaultStateDir(env),
    /** Claude Code's auto-compaction variables (or the host's compaction, io/hosts.ts). */
    compactEnv: compactEnvOf(env),
    /** More rules files to restate whole, `~` expanded. */
    rulesFiles: given.rulesFiles.map((p) => expandHome(p, home) ?? p),
    /** `HOME`, else `USERPROFILE`. */
    home,
    /** Claude Code's folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
    claudeDir: claudeDirOf(env),
    /**
     * The host's plugins folder: `CLAUDE_CODE_PLUGIN_CACHE_DIR` (it replaces the whole folder),
     * else `plugins` in Claude Code's folder; Codex's, in `$CODEX_HOME` (io/hosts.ts).
     */
    pluginsDir: pluginsDirOf(env),
    /** The agent whose session this is: its instruction files and plugins (io/hosts.ts). */
    agent: "claude-code" as "claude-code" | "codex" | "gemini",
    /** Codex's folder: `CODEX_HOME`, else `~/.codex`. */
    codexHome: nonEmpty(env("CODEX_HOME")) ?? (home ? join(home, ".codex") : undefined),
    /** Gemini CLI's folder: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
    geminiDir: geminiHome ? join(geminiHome, GEMINI_DIR) : undefined,
    /** `CLAUDE_PLUGIN_ROOT`: the folder the plugin runs from. */
    pluginRoot: nonEmpty(env("CLAUDE_PLUGIN_ROOT")),
    /** `CLAUDE_PROJECT_DIR`. */
    projectDir: nonEmpty(env("CLAUDE_PROJECT_DIR")),
    /** The config file found, its valid settings and its problems. */
    configFile: file,
    /** Config-file problems, then invalid environment values: one line each, unprefixed. */
    problems,
  };
}

/** Claude Code's folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
function claudeDirOf(env: Env): string | undefined {
  const home = homeFrom(env);
  return nonEmpty(env("CLAUDE_CONFIG_DIR")) ?? (home ? join(home, ".claude") : undefined);
}

/** Claude Code's plugins folder: `CLAUDE_CODE_PLUGIN_CACHE_DIR`, else `<Claude folder>/plugins`. */
export function pluginsDirOf(env: Env): string | undefined {
  const named = nonEmpty(env("CLAUDE_CODE_PLUGIN_CACHE_DIR"));
  if (named) return expandHome(named, homeFrom(env));
  const claude = claudeDirOf(env);
  return claude && join(claude, "plugins");
}

/** {@link resolveSettings}, and what only the commands read. */
export function resolveCliSettings(env: Env, file: ConfigFileOutcome = NO_FILE) {
  const settings: Settings = resolveSettings(env, file);
  return {
    ...settings,
    /** The temp folder (TMPDIR, TMP, TEMP, else the system's), as `tmp` names it to the user. */
    tmpDir: tempDirOf(env),
    /** `NO_COLOR` set to anything but "" (no-color.org). */
    noColor: (env("NO_COLOR") ?? "") !== "",
    /** `COLUMNS`: the width when the terminal cannot tell. */
    columns: nonEmpty(env("COLUMNS")),
    /** `PATH`'s folders. */
    searchPath: (env("PATH") ?? "").split(isWindows ? ";" : ":").filter((d) => d !== ""),
    /** Deno's npm cache folder, or why it cannot be told. */
    denoNpmCache: denoNpmCache(env, Deno.build.os),
  };
}

/** The re-arm thresholds among the thresholds; another is named and dropped. */
function rearmAt(wanted: Threshold[], thresholds: Threshold[], problems: string[]): Threshold[] {
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
  const tokens = autoCompactWindowOf(raw);
  const pct = autocompactPctOf(env("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"));
  // `DISABLE_COMPACT` (no /compact either) is checked first.
  const off = (["DISABLE_COMPACT", "DISABLE_AUTO_COMPACT"] as const).find((name) =>
    isOn(env(name))
  );
  return {
    ...(tokens !== undefined && raw !== undefined ? { window: { tokens, raw: raw.trim() } } : {}),
    ...(pct !== undefined ? { pct } : {}),
    ...(off ? { off } : {}),
  };
}

/** Which source gives the manifest's path. */
function manifestPathFrom(env: Env, file: ConfigFileOutcome): string | undefined {
  const row = SETTINGS.manifestPath;
  if (!failed(row.parse(env(row.env)))) return row.env;
  if (file.settings.manifestPath === undefined) return undefined;
  return `${row.key} in ${file.path ?? "the config file"}`;
}

function isOn(raw: string | undefined): boolean {
  const parsed = parseOnOff(raw);
  return !failed(parsed) && parsed;
}

/** The home folder: `HOME`, else `USERPROFILE` (Windows); an empty value is no value. */
export function homeFrom(env: Env): string | undefined {
  return nonEmpty(env("HOME")) ?? nonEmpty(env("USERPROFILE"));
}

function nonEmpty(raw: string | undefined): string | undefined {
  return raw?.trim() ? raw : undefined;
}

/** `~` and `~/...` as paths under the home folder. */
export function expandHome(path: string | undefined, home: string | undefined): string | undefined {
  if (path === undefined || !home) return path;
  return path === "~" || path.startsWith("~/") ? join(home, path.slice(1)) : path;
}

/** The temp folder and the variable naming it: `TMPDIR /x`, or the system's `/tmp`. */
function tempDirOf(env: Env): { path: string; via: string | undefined } {
  const via = ["TMPDIR", "TMP", "TEMP"].find((name) => nonEmpty(env(name)));
  const path = via ? env(via)! : isWindows ? "C:\\Windows\\Temp" : "/tmp";
  return { path, via };
}

/** Under the temp folder, named by a hash of user and home: users sharing `/tmp` never share. */
function defaultStateDir(env: Env): string {
  const first = (...names: string[]) => names.map((n) => nonEmpty(env(n))).find((v) => v);
  const tmp = tempDirOf(env).path;
  const who = first("USER", "USERNAME", "LOGNAME", "HOME") ?? "user";
  // FNV-1a: a short stable name, not security (the folder's mode and owner are).
  const text = `${who}\0${env("HOME") ?? ""}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  }
  return join(tmp, `lessons-reinject-${hash.toString(16).padStart(8, "0")}`);
}

/** True unless a gateway base URL or a cloud provider is configured for Claude Code. */
function isFirstParty(env: Env): boolean {
  const providers = [
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    "CLAUDE_CODE_USE_FOUNDRY",
  ];
  if (providers.some((name) => isOn(env(name)))) return false;
  const base = nonEmpty(env("ANTHROPIC_BASE_URL"));
  try {
    return base === undefined || new URL(base).host === "api.anthropic.com";
  } catch {
    return false;
  }
}
