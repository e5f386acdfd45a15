/**
 * The optional JSONC config file: where it is, and its settings validated with zod. The hook
 * reads it on every call, so a missing file costs one stat and the JSONC parser and zod are
 * only loaded when a file exists. Problems name the path, line and column and what was expected.
 */
import { dirname, isAbsolute, join, resolve } from "../core/path.ts";
import { messageOf } from "../core/errors.ts";
import { lineColumn, syntaxMessage } from "../core/json_syntax.ts";
import { type FileSettings, isSettingKey, type SettingKey, SETTINGS } from "./table.ts";
import { type ConfigFileOutcome, type Env, expandHome, homeFrom } from "./resolve.ts";

/** Config files larger than this are refused (a real one is a few hundred bytes). */
const MAX_CONFIG_BYTES = 256 * 1024;

/** Where the config file is looked for, and how it was chosen. */
export interface ConfigLocation {
  path: string;
  via: "LESSONS_CONFIG" | "CLAUDE_PLUGIN_DATA" | "~/.config";
}

/**
 * The candidate paths in order: `LESSONS_CONFIG` alone when set; else
 * `$CLAUDE_PLUGIN_DATA/lessons-reinject.jsonc`, then `~/.config/lessons-reinject/config.jsonc`.
 */
export function configCandidates(env: Env): ConfigLocation[] {
  const named = env("LESSONS_CONFIG");
  if (named !== undefined && named.trim() !== "") {
    return [{ path: expandHome(named, homeFrom(env)) ?? named, via: "LESSONS_CONFIG" }];
  }
  const candidates: ConfigLocation[] = [];
  const data = env("CLAUDE_PLUGIN_DATA");
  if (data) {
    candidates.push({ path: join(data, "lessons-reinject.jsonc"), via: "CLAUDE_PLUGIN_DATA" });
  }
  const home = homeFrom(env);
  if (home) {
    candidates.push({
      path: join(home, ".config", "lessons-reinject", "config.jsonc"),
      via: "~/.config",
    });
  }
  return candidates;
}

/**
 * Finds and reads the config file. Never throws: a missing file gives empty settings; an
 * unreadable, unparsable or invalid one gives empty settings and the problems.
 */
export async function loadConfigFile(env: Env): Promise<ConfigFileOutcome> {
  for (const candidate of configCandidates(env)) {
    let info: Deno.FileInfo;
    try {
      // Sync: this runs on every hook call, where an async op's thread hop costs more.
      info = Deno.statSync(candidate.path);
    } catch (error) {
      if (candidate.via === "LESSONS_CONFIG") {
        const why = error instanceof Deno.errors.NotFound ? "no such file" : messageOf(error);
        return failed(candidate, [`${candidate.path}: ${why} (named by LESSONS_CONFIG)`]);
      }
      continue;
    }
    if (!info.isFile) return failed(candidate, [`${candidate.path}: not a file`]);
    if (info.size > MAX_CONFIG_BYTES) {
      return failed(candidate, [`${candidate.path}: ${info.size} bytes is over the limit`]);
    }
    let text: string;
    try {
      text = await Deno.readTextFile(candidate.path);
    } catch (error) {
      return failed(candidate, [`${candidate.path}: ${messageOf(error)}`]);
    }
    const parsed = await parseConfigText(text, candidate.path);
    if (parsed.kind === "unusable") return failed(candidate, [parsed.unusable]);
    return {
      path: candidate.path,
      via: candidate.via,
      settings: resolvePaths(parsed.settings, dirname(candidate.path), homeFrom(env)),
      problems: parsed.problems.map((p) => `config ${p}`),
    };
  }
  return { path: undefined, via: undefined, settings: {}, problems: [] };
}

function failed(candidate: ConfigLocation, details: string[]): ConfigFileOutcome {
  return {
    path: candidate.path,
    via: candidate.via,
    settings: {},
    problems: details.map((d) => `config ${d}; using the defaults`),
  };
}

/**
 * Parses and validates config text. A syntax error makes the file unusable (only the first one
 * is named: the rest usually follow from it); an invalid or unknown setting is named and left
 * out, and the valid ones still apply. Problems read `path:line:column: what is wrong`, with
 * 1-based line and column.
 *
 * @example
 * ```ts
 * await parseConfigText('{ "thresholds": [30, 120] }', "c.jsonc");
 * // { settings: {}, problems: ["c.jsonc:1:17: thresholds: expected a non-empty list ..."] }
 * ```
 */
export async function parseConfigText(
  text: string,
  path: string,
): Promise<
  { kind: "usable"; settings: FileSettings; problems: string[] } | {
    kind: "unusable";
    unusable: string;
  }
> {
  // Most calls find no file: the parser and the schema (zod) load only for one that exists.
  const [jsonc, { configFileSchema }] = await Promise.all([
    import("jsonc-parser"),
    import("../schemas/config_file.ts"),
  ]);
  const errors: { error: number; offset: number; length: number }[] = [];
  const tree = jsonc.parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const where = (offset: number) => {
    const { line, column } = lineColumn(text, offset);
    return `${path}:${line}:${column}`;
  };
  const first = errors[0];
  if (first !== undefined) {
    return {
      kind: "unusable",
      unusable: `${where(first.offset)}: ${
        syntaxMessage(jsonc.printParseErrorCode(first.error as never))
      } (not valid JSONC)`,
    };
  }
  if (tree === undefined) return { kind: "unusable", unusable: `${where(0)}: the file is empty` };
  const value: unknown = jsonc.getNodeValue(tree);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      kind: "unusable",
      unusable: `${where(tree.offset)}: expected an object of settings ({ ... })`,
    };
  }
  const given: Record<string, unknown> = Object.fromEntries(Object.entries(value));
  if (configFileSchema().safeParse(given).success) {
    return { kind: "usable", settings: settingsFrom(given), problems: [] };
  }
  const problems: string[] = [];
  for (const [key, item] of Object.entries(given)) {
    const node = jsonc.findNodeAtLocation(tree, [key]);
    if (key === "$schema") continue;
    if (!isSettingKey(key)) {
      problems.push(
        `${where(node?.parent?.offset ?? tree.offset)}: unknown setting "${key}" ` +
          `(expected one of: ${Object.keys(SETTINGS).join(", ")}); ignoring it`,
      );
      continue;
    }
    const parsed = SETTINGS[key].parse(item);
    if (parsed.kind === "invalid") {
      problems.push(
        `${where(node?.offset ?? tree.offset)}: ${key}: ${parsed.problem}, got ${
          JSON.stringify(item)
        }; ignoring it`,
      );
    }
  }
  return { kind: "usable", settings: settingsFrom(given), problems };
}

/** The file's values that are valid, each in its resolved form (thresholds sorted, say). */
function settingsFrom(value: Record<string, unknown>): FileSettings {
  const settings: FileSettings = {};
  const take = <K extends SettingKey>(key: K) => {
    const parsed = SETTINGS[key].parse(value[key]);
    if (parsed.kind === "valid") settings[key] = parsed.value;
  };
  for (const key of Object.keys(value)) if (isSettingKey(key)) take(key);
  return settings;
}

/** Relative paths in the file are relative to the file's folder; `~/` is the home folder. */
function resolvePaths(
  settings: FileSettings,
  base: string,
  home: string | undefined,
): FileSettings {
  const fix = (p: string) => {
    const expanded = expandHome(p, home) ?? p;
    return isAbsolute(expanded) ? expanded : resolve(base, expanded);
  };
  const out: FileSettings = { ...settings };
  if (settings.manifestPath !== undefined) out.manifestPath = fix(settings.manifestPath);
  if (settings.stateDir !== undefined) out.stateDir = fix(settings.stateDir);
  if (settings.rulesFiles !== undefined) out.rulesFiles = settings.rulesFiles.map(fix);
  return out;
}
