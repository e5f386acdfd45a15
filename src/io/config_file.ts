/**
 * The optional JSONC config file: where it is, and its settings validated with zod. The hook
 * reads it on every call, so a missing file costs one stat and the JSONC parser is only
 * imported when a file exists. Problems name the path, line and column and what was expected.
 */
import { dirname, isAbsolute, join, resolve } from "../core/path.ts";
import * as z from "zod/mini";
import type { FileSettings } from "../core/config.ts";
import { messageOf } from "../core/errors.ts";

type Env = (name: string) => string | undefined;

/** Config files larger than this are refused (a real one is a few hundred bytes). */
export const MAX_CONFIG_BYTES = 256 * 1024;

const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.number().check(z.int(), z.gte(min), z.lte(max));

/**
 * The file's shape. Every key is optional; unknown keys are errors, so typos are caught. Built
 * on first use (`z.lazy`): most calls find no config file and never need it.
 */
export const ConfigFileSchema = z.lazy(() =>
  z.strictObject({
    $schema: z.optional(z.string()),
    thresholds: z.optional(z.array(z.number().check(z.gte(1), z.lte(99))).check(z.minLength(1))),
    toolCountInterval: z.optional(int(1)),
    maxChars: z.optional(int(1, 10_000)),
    contextWindow: z.optional(int(1)),
    manifestPath: z.optional(z.string().check(z.minLength(1))),
    stateDir: z.optional(z.string().check(z.minLength(1))),
    debug: z.optional(z.boolean()),
    scaleForAutocompact: z.optional(z.boolean()),
  })
);

/** What each setting must be, as the error messages say it. */
export const EXPECTED: Readonly<Record<string, string>> = {
  $schema: "a string",
  thresholds: "a non-empty list of numbers from 1 to 99, e.g. [30, 52, 70]",
  toolCountInterval: "a whole number of tool calls, 1 or more",
  maxChars: "a whole number of characters from 1 to 10000",
  contextWindow: "a whole number of tokens, 1 or more",
  manifestPath: "a path (string)",
  stateDir: "a path (string)",
  debug: "true or false",
  scaleForAutocompact: "true or false",
};

/** Where the config file is looked for, and how it was chosen. */
export interface ConfigLocation {
  path: string;
  via: "LESSONS_CONFIG" | "CLAUDE_PLUGIN_DATA" | "~/.config";
}

/** The outcome of looking for and reading the config file. */
export interface LoadedConfigFile {
  /** The file read, or undefined when none exists. */
  path: string | undefined;
  via: ConfigLocation["via"] | undefined;
  /** Settings to use: empty when there is no file or it is invalid. */
  settings: FileSettings;
  /** One line per problem, ready for stderr; non-empty means the defaults are used. */
  problems: string[];
}

/**
 * The candidate paths in order: `LESSONS_CONFIG` alone when set; else
 * `$CLAUDE_PLUGIN_DATA/lessons-reinject.jsonc`, then `~/.config/lessons-reinject/config.jsonc`.
 */
export function configCandidates(env: Env): ConfigLocation[] {
  const named = env("LESSONS_CONFIG");
  if (named !== undefined && named.trim() !== "") {
    return [{ path: expandHome(named, env), via: "LESSONS_CONFIG" }];
  }
  const candidates: ConfigLocation[] = [];
  const data = env("CLAUDE_PLUGIN_DATA");
  if (data) {
    candidates.push({ path: join(data, "lessons-reinject.jsonc"), via: "CLAUDE_PLUGIN_DATA" });
  }
  const home = env("HOME") || env("USERPROFILE");
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
export async function loadConfigFile(env: Env): Promise<LoadedConfigFile> {
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
    if ("problems" in parsed) return failed(candidate, parsed.problems);
    return {
      path: candidate.path,
      via: candidate.via,
      settings: resolvePaths(parsed.settings, dirname(candidate.path), env),
      problems: [],
    };
  }
  return { path: undefined, via: undefined, settings: {}, problems: [] };
}

function failed(candidate: ConfigLocation, details: string[]): LoadedConfigFile {
  return {
    path: candidate.path,
    via: candidate.via,
    settings: {},
    problems: details.map((d) => `lessons-reinject: config ${d}; using the defaults`),
  };
}

/**
 * Parses and validates config text. Problems read `path:line:column: what is wrong`, with
 * 1-based line and column.
 *
 * @example
 * ```ts
 * await parseConfigText('{ "thresholds": [30, 120] }', "c.jsonc");
 * // { problems: ["c.jsonc:1:22: thresholds[1]: expected a non-empty list of numbers ..."] }
 * ```
 */
export async function parseConfigText(
  text: string,
  path: string,
): Promise<{ settings: FileSettings } | { problems: string[] }> {
  const jsonc = await import("jsonc-parser");
  const errors: { error: number; offset: number; length: number }[] = [];
  const tree = jsonc.parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const where = (offset: number) => {
    const { line, column } = lineColumn(text, offset);
    return `${path}:${line}:${column}`;
  };
  if (errors.length > 0 || tree === undefined) {
    const problems = errors.map((e) =>
      `${where(e.offset)}: ${syntaxMessage(jsonc.printParseErrorCode(e.error as never))}`
    );
    return { problems: problems.length > 0 ? problems : [`${where(0)}: the file is empty`] };
  }
  const value: unknown = jsonc.getNodeValue(tree);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { problems: [`${where(tree.offset)}: expected an object of settings ({ ... })`] };
  }
  const result = ConfigFileSchema.safeParse(value);
  if (result.success) {
    const { $schema: _, ...settings } = result.data;
    return { settings };
  }
  const problems: string[] = [];
  for (const issue of result.error.issues) {
    const path0 = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const node = jsonc.findNodeAtLocation(tree, [...path0, key]);
        const offset = node?.parent?.offset ?? node?.offset ?? tree.offset;
        problems.push(
          `${where(offset)}: unknown setting "${key}" (expected one of: ${
            Object.keys(EXPECTED).filter((k) => k !== "$schema").join(", ")
          })`,
        );
      }
      continue;
    }
    const node = jsonc.findNodeAtLocation(tree, path0);
    const key = String(path0[0] ?? "");
    const label = path0.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`))
      .join("");
    const got = node ? jsonc.getNodeValue(node) : undefined;
    problems.push(
      `${where(node?.offset ?? tree.offset)}: ${label}: expected ${
        EXPECTED[key] ?? "something else"
      }, got ${JSON.stringify(got)}`,
    );
  }
  return { problems };
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

const SYNTAX_MESSAGES: Readonly<Record<string, string>> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: "expected ':'",
  CommaExpected: "expected ','",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: "expected the end of the file",
  InvalidCommentToken: "invalid comment",
  UnexpectedEndOfComment: "unterminated comment",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid unicode escape",
  InvalidEscapeCharacter: "invalid escape character",
  InvalidCharacter: "invalid character",
};

function syntaxMessage(code: string): string {
  return `${SYNTAX_MESSAGES[code] ?? code} (not valid JSONC)`;
}

/** Relative paths in the file are relative to the file's folder; `~/` is the home folder. */
function resolvePaths(settings: FileSettings, base: string, env: Env): FileSettings {
  const fix = (p: string | undefined) => {
    if (p === undefined) return undefined;
    const expanded = expandHome(p, env);
    return isAbsolute(expanded) ? expanded : resolve(base, expanded);
  };
  const out: FileSettings = { ...settings };
  if (settings.manifestPath !== undefined) out.manifestPath = fix(settings.manifestPath);
  if (settings.stateDir !== undefined) out.stateDir = fix(settings.stateDir);
  return out;
}

function expandHome(path: string, env: Env): string {
  const home = env("HOME") || env("USERPROFILE");
  if (home && (path === "~" || path.startsWith("~/"))) return join(home, path.slice(1));
  return path;
}
