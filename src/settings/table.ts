/**
 * Every setting, declared once: config-file key, environment variable, what it must be, default
 * and doc. Parsing, messages, the resolved settings' fields and the table in docs/configuration.md
 * all follow from these rows.
 */
import { SOURCE_NAMES, type SourceName } from "../core/rule_source_names.ts";
import { DEFAULT_THRESHOLDS } from "../core/thresholds.ts";
import { DEFAULT_CADENCE, MIN_CADENCE } from "../core/schedule.ts";
import {
  parseTokens,
  parseWhole,
  shownValue,
  type Threshold,
  THRESHOLD_EXPECTED,
  thresholdOf,
  TOKENS_EXPECTED,
} from "../core/numbers.ts";
import { fail, failed, type Result } from "../core/result.ts";

/** Parses the environment's string or the config file's JSON. */
type Parse<T> = (raw: unknown) => Result<T>;

/**
 * One setting of resolved type `T`. `fallback`: the value when no source gives a valid one (none:
 * the program finds it), `absent` that in words; `isPath`: relative to the config file's folder
 * there; `shownDefault` (when {@link shownDefaultOf}'s is not right) and `doc` are for
 * docs/configuration.md (scripts/settings_table.ts).
 */
export interface SettingRow<T> {
  key: string;
  env: string;
  expected: string;
  parse: Parse<T>;
  fallback?: T;
  absent?: string;
  isPath?: boolean;
  shownDefault?: string;
  doc: string;
}

/** A whole number from `min` to `max`. */
function whole(min: number, max: number, expected: string) {
  return { expected, parse: (raw: unknown) => parseWhole(raw, min, max, expected) };
}

const TRUE_WORDS = ["1", "true", "yes", "on"];
const FALSE_WORDS = ["0", "false", "no", "off"];
const ON_OFF = `true or false (or ${TRUE_WORDS.join("/")}, ${FALSE_WORDS.join("/")})`;

/** `true`/`false`, or one of the usual words for them, in the file and the environment alike. */
export const parseOnOff: Parse<boolean> = (raw) => {
  const given = typeof raw === "string" || typeof raw === "boolean";
  const word = given ? String(raw).trim().toLowerCase() : "";
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  return fail(`expected ${ON_OFF}`);
};
const onOff = { expected: ON_OFF, parse: parseOnOff };

const PATH = "a path (a non-empty string)";
const path = {
  isPath: true,
  expected: PATH,
  parse: (raw: unknown): Result<string> =>
    typeof raw === "string" && raw.trim() !== "" ? raw : fail(`expected ${PATH}`),
};

/** A JSON array as it is, a string split at `separator` (trimmed), anything else alone. */
function itemsOf(raw: unknown, separator: string, keepEmpty = false): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (typeof raw !== "string") return [raw];
  const items = raw.split(separator).map((item) => item.trim());
  return keepEmpty ? items : items.filter((item) => item !== "");
}

const THRESHOLDS_EXPECTED = `a non-empty list of thresholds, each ${THRESHOLD_EXPECTED}, ` +
  "e.g. 30,52,70 or 20k,60k,52";

/** Thresholds (core/numbers.ts), sorted, duplicates dropped; each wrong entry is named. */
const thresholdList: Parse<Threshold[]> = (raw) => {
  const given = typeof raw === "string" && raw.trim() === "" ? [] : itemsOf(raw, ",", true);
  if (given.length === 0) return fail(`expected ${THRESHOLDS_EXPECTED} (the list is empty)`);
  const values: Threshold[] = [];
  const wrong: string[] = [];
  for (const item of given) {
    const parsed = thresholdOf(item);
    if (!failed(parsed)) values.push(parsed);
    else wrong.push(`${shownValue(item)}: ${parsed.error}`);
  }
  if (wrong.length > 0) return fail(`expected ${THRESHOLDS_EXPECTED} (${wrong.join("; ")})`);
  return [...new Set(values)].sort((a, b) => a - b);
};

const CADENCE_EXPECTED = `a number of tokens from ${MIN_CADENCE / 1000}k to 1M (e.g. 40k), or off`;

/** Tokens between refreshes past the last threshold on a large span; `off` (or 0) is 0. */
const cadenceOf: Parse<number> = (raw) => {
  const word = typeof raw === "string" || typeof raw === "number" ? String(raw).trim() : "";
  if (["off", "none", "0", "false", "no"].includes(word.toLowerCase())) return 0;
  const parsed = parseTokens(raw);
  if (failed(parsed)) return fail(parsed.error.replace(TOKENS_EXPECTED, CADENCE_EXPECTED));
  return parsed >= MIN_CADENCE && parsed <= 1_000_000 ? parsed : fail(
    `expected ${CADENCE_EXPECTED} (${shownValue(raw)} is out of that range)`,
  );
};

const REARM_EXPECTED = "a list of thresholds from the thresholds setting, e.g. 52,70, or off " +
  "(an empty list)";

/** Like the thresholds, but may be empty (off, the default); `off` and `none` mean empty. */
const rearmList: Parse<Threshold[]> = (raw) => {
  const off = typeof raw === "string" && ["off", "none"].includes(raw.trim().toLowerCase());
  if (off || (Array.isArray(raw) && raw.length === 0)) return [];
  const parsed = thresholdList(raw);
  return !failed(parsed) ? parsed : fail(parsed.error.replace(THRESHOLDS_EXPECTED, REARM_EXPECTED));
};

const SOURCES_EXPECTED = `a list of rule sources from ${
  SOURCE_NAMES.join(", ")
}, e.g. manifest,claude-md`;

/** Names of rule sources, as a JSON array or a comma-separated string; duplicates dropped. */
const sourceList: Parse<SourceName[]> = (raw) => {
  const given = itemsOf(raw, ",");
  const isSource = (item: unknown): item is SourceName =>
    (SOURCE_NAMES as readonly unknown[]).includes(item);
  const wrong = given.filter((item) => !isSource(item)).map((item) => JSON.stringify(item));
  if (wrong.length === 0 && (given.length > 0 || Array.isArray(raw))) {
    return [...new Set(given.filter(isSource))];
  }
  const detail = wrong.length === 0
    ? ""
    : ` (${wrong.join(", ")} ${wrong.length === 1 ? "is" : "are"} not)`;
  return fail(`expected ${SOURCES_EXPECTED}${detail}`);
};

/** Paths, as a JSON array or (environment) separated like PATH: `:`, or `;` on Windows. */
const pathList: Parse<string[]> = (raw) => {
  const given = itemsOf(raw, Deno.build.os === "windows" ? ";" : ":");
  return given.every((p): p is string => typeof p === "string" && p.trim() !== "")
    ? given
    : fail("expected a list of paths (non-empty strings)");
};

const ROWS = {
  thresholds: {
    env: "LESSONS_REINJECT_THRESHOLDS",
    expected: THRESHOLDS_EXPECTED,
    parse: thresholdList,
    fallback: [...DEFAULT_THRESHOLDS],
    doc: "When to refresh: percentages of the context window (of the auto-compact window when " +
      "Claude Code compacts earlier) and token counts, mixed; duplicates dropped. See " +
      "docs/thresholds.md.",
  },
  cadence: {
    env: "LESSONS_REINJECT_CADENCE",
    expected: CADENCE_EXPECTED,
    parse: cadenceOf,
    fallback: DEFAULT_CADENCE,
    shownDefault: "`40k`",
    doc: "On a window (or auto-compact window) over 200k: the thresholds' percentages land " +
      "where a 200k session has them (60k, 104k, 140k), then a refresh every this many tokens " +
      "up to the compaction point; `off`: percentages of the whole window and nothing after " +
      "the last. See docs/thresholds.md.",
  },
  toolCountInterval: {
    env: "LESSONS_REINJECT_TOOL_COUNT",
    ...whole(1, 1_000_000, "a whole number of tool calls from 1 to 1,000,000"),
    fallback: 20,
    doc: "Without any context reading, refresh every N tool calls.",
  },
  maxChars: {
    env: "LESSONS_REINJECT_MAX_CHARS",
    ...whole(
      1,
      10_000,
      "a whole number of characters from 1 to 10000 (Claude Code's inline limit)",
    ),
    fallback: 9_500,
    doc: "Budget of one refresh, in characters; Claude Code delivers at most 10,000 inline.",
  },
  contextWindow: {
    env: "LESSONS_CONTEXT_WINDOW",
    expected: TOKENS_EXPECTED,
    parse: parseTokens,
    absent: "the window the evidence gives",
    shownDefault: "from the evidence",
    doc: "Context window in tokens, when you know it better than the hook can tell.",
  },
  manifestPath: {
    env: "LESSONS_MANIFEST_PATH",
    ...path,
    absent: "the manifest found by searching",
    shownDefault: "found (see below)",
    doc: "The lessons-learned `lesson-manifest.json` to read.",
  },
  stateDir: {
    env: "LESSONS_STATE_DIR",
    ...path,
    absent: "the default folder",
    shownDefault: "`$TMPDIR/lessons-reinject-<user hash>`",
    doc: "Folder for the per-session state files (created mode 0700).",
  },
  debug: {
    env: "LESSONS_DEBUG",
    ...onOff,
    fallback: false,
    doc: "One stderr line per call with the decision and why. Claude Code does not show it, " +
      "even with --verbose: it keeps it in the session's transcript, where `why` reads it " +
      "(and in `claude --debug-file`).",
  },
  waitMs: {
    env: "LESSONS_REINJECT_WAIT_MS",
    ...whole(1, 4000, "a whole number of milliseconds from 1 to 4000"),
    fallback: 250,
    doc: "How long to wait for this call's transcript entry (Claude Code writes it " +
      "asynchronously).",
  },
  scaleForAutocompact: {
    env: "LESSONS_SCALE_FOR_AUTOCOMPACT",
    ...onOff,
    fallback: true,
    doc: "Measure the percentage thresholds against the auto-compaction point when Claude Code " +
      "compacts before the window's usual point (`CLAUDE_CODE_AUTO_COMPACT_WINDOW`, " +
      "`autoCompactWindow`, `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`, an earlier auto-compaction); " +
      "off: always against the whole window.",
  },
  rearmDedupAt: {
    env: "LESSONS_REINJECT_REARM_DEDUP",
    expected: REARM_EXPECTED,
    parse: rearmList,
    fallback: [] as Threshold[],
    absent: "off",
    doc: "Thresholds whose refresh also lets lessons-learned's tool-specific lessons fire " +
      "once more (it forgets that session's PreToolUse seen set), e.g. `52,70`. See " +
      "docs/maintainers/prd-departures.md.",
  },
  sources: {
    env: "LESSONS_REINJECT_SOURCES",
    expected: SOURCES_EXPECTED,
    parse: sourceList,
    fallback: [...SOURCE_NAMES],
    shownDefault: "every one found",
    doc: "Which standing rules a refresh restates: `manifest` (lessons-learned), `claude-md` " +
      "(sections marked in CLAUDE.md files), `rules-file` (`reinject.md` files, whole); " +
      "see docs/own-rules.md.",
  },
  rulesFiles: {
    env: "LESSONS_REINJECT_RULES_FILES",
    expected: "a list of paths (non-empty strings)",
    parse: pathList,
    isPath: true,
    fallback: [] as string[],
    absent: "none",
    doc: "More rules files to restate whole, before the ones found (`:`-separated like PATH in " +
      "the environment; relative to the project folder, or to the config file's folder there).",
  },
  refreshAfterCompact: {
    env: "LESSONS_REINJECT_AFTER_COMPACT",
    ...onOff,
    fallback: true,
    doc: "Restate the rules once right after a compaction, in the new context's first request.",
  },
} satisfies Record<string, Omit<SettingRow<unknown>, "key">>;

export type SettingKey = keyof typeof ROWS;

type SettingValue<K extends SettingKey> = typeof ROWS[K] extends { parse: Parse<infer T> } ? T
  : never;

/** The settings a user may give in the environment or the config file; a row's key is its name. */
export const SETTINGS = Object.fromEntries(
  Object.entries(ROWS).map(([key, row]) => [key, { ...row, key }]),
) as { readonly [K in SettingKey]: typeof ROWS[K] & SettingRow<SettingValue<K>> };

/** Values a config file gives, already checked by their rows; each is optional. */
export type FileSettings = { [K in SettingKey]?: SettingValue<K> };

/** Every setting's value, its row's `doc` saying what it is; without a fallback, maybe none. */
export type SettingValues = {
  [K in SettingKey]:
    | SettingValue<K>
    | (typeof ROWS[K] extends { fallback: unknown } ? never : undefined);
};

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

/** A setting's value as messages show it: lists comma-separated. */
export function shown(value: unknown): string {
  return Array.isArray(value) ? value.join(",") : String(value);
}

/** What `row` comes to when no source gives a valid value: `the default, 9500`, or `off`. */
export function defaultOf(row: SettingRow<unknown>): string {
  return row.absent ?? `the default, ${shown(row.fallback)}`;
}

/** How docs/configuration.md shows a row's default: as given, `on`/`off`, `absent`, or the value. */
export function shownDefaultOf(row: SettingRow<unknown>): string {
  if (row.shownDefault !== undefined) return row.shownDefault;
  if (typeof row.fallback === "boolean") return row.fallback ? "on" : "off";
  return row.absent ?? `\`${shown(row.fallback)}\``;
}
