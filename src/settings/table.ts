/**
 * Every setting, declared once: its config-file key, its environment variable, what it must be,
 * its default and what it does. The config file's schema, the environment's parsing, every
 * "expected ..." message and the table in docs/configuration.md all follow from these rows.
 */

import { SOURCE_NAMES, type SourceName } from "../core/rule_source_names.ts";
import {
  type Parsed,
  parseTokens,
  parseWhole,
  shownValue,
  type Threshold,
  THRESHOLD_EXPECTED,
  thresholdOf,
  TOKENS_EXPECTED,
} from "../core/numbers.ts";

/** A value as it arrives: a string from the environment, any JSON value from the config file. */
type Parse<T> = (raw: unknown) => Parsed<T>;

export type { Parsed };

/** One setting. `T` is its resolved type. */
export interface SettingRow<T> {
  /** Key in the config file. */
  key: string;
  /** Environment variable. */
  env: string;
  /** What a valid value is, as messages and the README say it. */
  expected: string;
  /** The default, as the README shows it. */
  shownDefault: string;
  /** What it does, for the README. */
  doc: string;
  /** The same rules for the environment's string and the file's JSON value. */
  parse: Parse<T>;
  /** Paths in the file are relative to the file's folder; `~/` is the home folder. */
  isPath?: boolean;
  /** What is used when no source gives a value (for settings without a default). */
  absent?: string;
}

/** A whole number from `min` to `max` (core/numbers.ts's rule), as `expected` describes it. */
function wholeNumber(min: number, max: number, expected: string): Parse<number> {
  return (raw) => parseWhole(raw, min, max, expected);
}

const TRUE_WORDS = ["1", "true", "yes", "on"];
const FALSE_WORDS = ["0", "false", "no", "off"];

/** `true`/`false`, or one of the usual words for them, in the file and the environment alike. */
export const parseOnOff: Parse<boolean> = (raw) => {
  if (typeof raw === "boolean") return { kind: "valid", value: raw };
  if (typeof raw === "string") {
    const word = raw.trim().toLowerCase();
    if (TRUE_WORDS.includes(word)) return { kind: "valid", value: true };
    if (FALSE_WORDS.includes(word)) return { kind: "valid", value: false };
  }
  return { kind: "invalid", problem: `expected ${ON_OFF}` };
};
const ON_OFF = `true or false (or ${TRUE_WORDS.join("/")}, ${FALSE_WORDS.join("/")})`;

const path: Parse<string> = (raw) =>
  typeof raw === "string" && raw.trim() !== ""
    ? { kind: "valid", value: raw }
    : { kind: "invalid", problem: "expected a path (a non-empty string)" };

const REARM_EXPECTED = "a list of thresholds from the thresholds setting, e.g. 52,70, or off " +
  "(an empty list)";

/** Like the threshold list, but may be empty (off, the default); `off` and `none` mean empty. */
const rearmList: Parse<Threshold[]> = (raw) => {
  if (typeof raw === "string" && ["off", "none"].includes(raw.trim().toLowerCase())) {
    return { kind: "valid", value: [] };
  }
  if (Array.isArray(raw) && raw.length === 0) return { kind: "valid", value: [] };
  const parsed = thresholdList(raw);
  return parsed.kind === "valid"
    ? parsed
    : { kind: "invalid", problem: parsed.problem.replace(THRESHOLDS_EXPECTED, REARM_EXPECTED) };
};

const THRESHOLDS_EXPECTED = `a non-empty list of thresholds, each ${THRESHOLD_EXPECTED}, ` +
  "e.g. 30,52,70 or 20k,60k,52";

/**
 * A list of thresholds (core/numbers.ts's grammar: percentages and token counts, mixed), as a
 * JSON array or a comma-separated string; percentages first, duplicates dropped. Any entry that
 * is not a threshold makes the whole value invalid, and each is named with why.
 */
const thresholdList: Parse<Threshold[]> = (raw) => {
  const given: unknown[] = typeof raw === "string"
    ? raw.split(",").map((p) => p.trim())
    : Array.isArray(raw)
    ? raw
    : [raw];
  const parsed = given.map((p) => thresholdOf(p));
  const wrong = parsed.flatMap((p, i) =>
    p.kind === "invalid" ? [`${shownValue(given[i])}: ${p.problem}`] : []
  );
  if (given.length === 0 || (typeof raw === "string" && raw.trim() === "")) {
    return { kind: "invalid", problem: `expected ${THRESHOLDS_EXPECTED} (the list is empty)` };
  }
  if (wrong.length > 0) {
    return { kind: "invalid", problem: `expected ${THRESHOLDS_EXPECTED} (${wrong.join("; ")})` };
  }
  return {
    kind: "valid",
    value: [...new Set(parsed.flatMap((p) => p.kind === "valid" ? [p.value] : []))].sort((a, b) =>
      a - b
    ),
  };
};

const SOURCES_EXPECTED = `a list of rule sources from ${
  SOURCE_NAMES.join(", ")
}, e.g. manifest,claude-md`;

/** Names of rule sources, as a JSON array or a comma-separated string; duplicates dropped. */
const sourceList: Parse<SourceName[]> = (raw) => {
  const given: unknown[] = typeof raw === "string"
    ? raw.split(",").map((p) => p.trim()).filter((p) => p !== "")
    : Array.isArray(raw)
    ? raw
    : [raw];
  const isSource = (p: unknown): p is SourceName =>
    typeof p === "string" && (SOURCE_NAMES as readonly string[]).includes(p);
  const wrong = given.filter((p) => !isSource(p)).map((p) => JSON.stringify(p));
  if (wrong.length > 0 || !Array.isArray(raw) && given.length === 0) {
    const detail = wrong.length > 0
      ? ` (${wrong.join(", ")} ${wrong.length === 1 ? "is" : "are"} not)`
      : "";
    return { kind: "invalid", problem: `expected ${SOURCES_EXPECTED}${detail}` };
  }
  return { kind: "valid", value: [...new Set(given.filter(isSource))] };
};

/** Paths, as a JSON array or (environment) separated like PATH: `:`, or `;` on Windows. */
const pathList: Parse<string[]> = (raw) => {
  const given: unknown[] = typeof raw === "string"
    ? raw.split(Deno.build.os === "windows" ? ";" : ":").map((p) => p.trim()).filter((p) =>
      p !== ""
    )
    : Array.isArray(raw)
    ? raw
    : [raw];
  if (given.every((p): p is string => typeof p === "string" && p.trim() !== "")) {
    return { kind: "valid", value: given };
  }
  return { kind: "invalid", problem: "expected a list of paths (non-empty strings)" };
};

/** Each user setting's resolved type. */
interface SettingTypes {
  thresholds: Threshold[];
  toolCountInterval: number;
  maxChars: number;
  contextWindow: number;
  manifestPath: string;
  stateDir: string;
  debug: boolean;
  waitMs: number;
  scaleForAutocompact: boolean;
  rearmDedupAt: Threshold[];
  sources: SourceName[];
  rulesFiles: string[];
  refreshAfterCompact: boolean;
}

/** The settings a user may give in the environment or the config file. */
export const SETTINGS: { readonly [K in keyof SettingTypes]: SettingRow<SettingTypes[K]> } = {
  thresholds: {
    key: "thresholds",
    env: "LESSONS_REINJECT_THRESHOLDS",
    expected: THRESHOLDS_EXPECTED,
    shownDefault: "`30,52,70`",
    doc: "When to refresh: percentages of the context window (of the auto-compact window when " +
      "Claude Code compacts earlier) and token counts, mixed; duplicates dropped. See " +
      "docs/thresholds.md.",
    parse: thresholdList,
  },
  toolCountInterval: {
    key: "toolCountInterval",
    env: "LESSONS_REINJECT_TOOL_COUNT",
    expected: "a whole number of tool calls from 1 to 1,000,000",
    shownDefault: "`20`",
    doc: "Without any context reading, refresh every N tool calls.",
    parse: wholeNumber(1, 1_000_000, "a whole number of tool calls from 1 to 1,000,000"),
  },
  maxChars: {
    key: "maxChars",
    env: "LESSONS_REINJECT_MAX_CHARS",
    expected: "a whole number of characters from 1 to 10000 (Claude Code's inline limit)",
    shownDefault: "`9500`",
    doc: "Budget of one refresh, in characters; Claude Code delivers at most 10,000 inline.",
    parse: wholeNumber(
      1,
      10_000,
      "a whole number of characters from 1 to 10000 (Claude Code's inline limit)",
    ),
  },
  contextWindow: {
    key: "contextWindow",
    env: "LESSONS_CONTEXT_WINDOW",
    expected: TOKENS_EXPECTED,
    shownDefault: "from the evidence",
    doc: "Context window in tokens, when you know it better than the hook can tell.",
    parse: (raw) => parseTokens(raw),
    absent: "the window the evidence gives",
  },
  manifestPath: {
    key: "manifestPath",
    env: "LESSONS_MANIFEST_PATH",
    expected: "a path (a non-empty string)",
    shownDefault: "found (see below)",
    doc: "The lessons-learned `lesson-manifest.json` to read.",
    parse: path,
    isPath: true,
    absent: "the manifest found by searching",
  },
  stateDir: {
    key: "stateDir",
    env: "LESSONS_STATE_DIR",
    expected: "a path (a non-empty string)",
    shownDefault: "`$TMPDIR/lessons-reinject-<user hash>`",
    doc: "Folder for the per-session state files (created mode 0700).",
    parse: path,
    isPath: true,
    absent: "the default folder",
  },
  debug: {
    key: "debug",
    env: "LESSONS_DEBUG",
    expected: ON_OFF,
    shownDefault: "off",
    doc: "One stderr line per call with the decision and why (Claude Code shows hook stderr " +
      "in verbose mode).",
    parse: parseOnOff,
  },
  waitMs: {
    key: "waitMs",
    env: "LESSONS_REINJECT_WAIT_MS",
    expected: "a whole number of milliseconds from 1 to 4000",
    shownDefault: "`250`",
    doc: "How long to wait for this call's transcript entry (Claude Code writes it " +
      "asynchronously).",
    parse: wholeNumber(1, 4000, "a whole number of milliseconds from 1 to 4000"),
  },
  scaleForAutocompact: {
    key: "scaleForAutocompact",
    env: "LESSONS_SCALE_FOR_AUTOCOMPACT",
    expected: ON_OFF,
    shownDefault: "on",
    doc: "Measure the percentage thresholds against the auto-compaction point when Claude Code " +
      "compacts before the window's usual point (`CLAUDE_CODE_AUTO_COMPACT_WINDOW`, " +
      "`autoCompactWindow`, `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`, an earlier auto-compaction); " +
      "off: always against the whole window.",
    parse: parseOnOff,
  },
  rearmDedupAt: {
    key: "rearmDedupAt",
    env: "LESSONS_REINJECT_REARM_DEDUP",
    expected: REARM_EXPECTED,
    shownDefault: "off",
    doc: "Thresholds whose refresh also lets lessons-learned's tool-specific lessons fire " +
      "once more (it forgets that session's PreToolUse seen set), e.g. `52,70`. See " +
      "docs/maintainers/prd-departures.md.",
    parse: rearmList,
    absent: "off",
  },
  sources: {
    key: "sources",
    env: "LESSONS_REINJECT_SOURCES",
    expected: SOURCES_EXPECTED,
    shownDefault: "every one found",
    doc: "Which standing rules a refresh restates: `manifest` (lessons-learned), `claude-md` " +
      "(sections marked in CLAUDE.md files), `rules-file` (`reinject.md` files, whole); " +
      "see docs/own-rules.md.",
    parse: sourceList,
  },
  rulesFiles: {
    key: "rulesFiles",
    env: "LESSONS_REINJECT_RULES_FILES",
    expected: "a list of paths (non-empty strings)",
    shownDefault: "none",
    doc: "More rules files to restate whole, before the ones found (`:`-separated like PATH in " +
      "the environment; relative to the project folder, or to the config file's folder there).",
    parse: pathList,
  },
  refreshAfterCompact: {
    key: "refreshAfterCompact",
    env: "LESSONS_REINJECT_AFTER_COMPACT",
    expected: ON_OFF,
    shownDefault: "on",
    doc: "Restate the rules once right after a compaction, in the new context's first request.",
    parse: parseOnOff,
  },
};

/** The name of a user setting. */
export type SettingKey = keyof SettingTypes;

/** True when `key` names a user setting. */
export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

/** A user setting's resolved type. */
export type SettingValue<K extends SettingKey> = SettingTypes[K];

/** Values a config file gives, already checked by their rows; each is optional. */
export type FileSettings = { [K in SettingKey]?: SettingTypes[K] };

/**
 * Environment variables the program reads but does not own (Claude Code's, the system's, the
 * launcher's): documented beside the settings, never in the config file.
 */
export const ENVIRONMENT_INPUTS: readonly { env: string; doc: string }[] = [
  { env: "LESSONS_CONFIG", doc: "A JSONC config file to read instead of the default locations." },
  {
    env: "LESSONS_REINJECT_NO_AUTO_INSTALL",
    doc: "Set: `hooks/run` never starts `hooks/install` in the background.",
  },
  {
    env: "LESSONS_REINJECT_RELEASE_URL",
    doc: "Where `hooks/install` downloads the binary and `SHA256SUMS` from.",
  },
  {
    env: "CLAUDE_CODE_DISABLE_1M_CONTEXT",
    doc: "Claude Code's: `1` means a 200,000-token window for every model.",
  },
  {
    env: "CLAUDE_CODE_AUTO_COMPACT_WINDOW, CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
    doc: "Claude Code's: where it auto-compacts (with the `autoCompactWindow` settings in its " +
      "settings files); the percentage thresholds are measured against that point when it comes " +
      "early (`scaleForAutocompact`).",
  },
  {
    env: "DISABLE_AUTO_COMPACT, DISABLE_COMPACT",
    doc: "Claude Code's: no auto-compaction (also `autoCompactEnabled: false`); the thresholds " +
      "are then percentages of the whole window.",
  },
  {
    env:
      "ANTHROPIC_BASE_URL, CLAUDE_CODE_USE_BEDROCK, CLAUDE_CODE_USE_VERTEX, CLAUDE_CODE_USE_FOUNDRY",
    doc: "Claude Code's: a gateway or cloud provider. Claude Code 2.1.150 to 2.1.275 give " +
      "natively-1M models 1M only on the first-party API, so then the window is not certain.",
  },
  {
    env: "CLAUDE_CONFIG_DIR",
    doc: "Claude Code's folder (default `~/.claude`): projects, plugins, settings.",
  },
  {
    env: "CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA, CLAUDE_PROJECT_DIR",
    doc: "Set by Claude Code for a plugin's hooks: where the plugin, its data and the project are.",
  },
  {
    env: "NO_COLOR",
    doc: "Set to anything but empty: commands print no colour (no-color.org).",
  },
  {
    env: "COLUMNS",
    doc: "The terminal's width, when the terminal cannot tell: `demo` lays itself out to it.",
  },
];
