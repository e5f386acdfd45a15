/** The optional JSONC config file's text, checked by the settings table's rows. */
import type { ParseError } from "jsonc-parser";
import { dirname, isAbsolute, resolve } from "../core/path.ts";
import { lineColumn, syntaxMessage } from "../core/json_syntax.ts";
import {
  defaultOf,
  type FileSettings,
  isSettingKey,
  type SettingRow,
  SETTINGS,
  shown,
} from "./table.ts";
import { type Env, expandHome, homeFrom } from "./resolve.ts";
import { fail, failed, type Result } from "../core/result.ts";

/** A usable config file's valid settings and a line per problem; `empty`: blanks and comments only. */
export interface ConfigText {
  settings: FileSettings;
  problems: string[];
  empty?: true;
}

/**
 * Parses and checks config text. Blanks and comments only: empty, and fine. A syntax error makes
 * the file unusable (the first is named); an invalid or unknown setting is named and left out.
 * Problems read `c.jsonc:1:15: maxChars: expected ..., got 20000; using the default, 9500` (or
 * the environment's valid value). Relative paths are the file's folder's; `~/` the home folder.
 */
export async function parseConfigText(
  text: string,
  path: string,
  env: Env = () => undefined,
): Promise<Result<ConfigText>> {
  // Most calls find no file: the parser loads only for one that exists.
  const jsonc = await import("jsonc-parser");
  const errors: ParseError[] = [];
  const tree = jsonc.parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const where = (offset: number) => {
    const { line, column } = lineColumn(text, offset);
    return `${path}:${line}:${column}`;
  };
  const first = errors[0];
  const code = first && jsonc.printParseErrorCode(first.error);
  // Blanks and comments only: the parser's one complaint is a value missing at the very end.
  if (errors.length === 1 && code === "ValueExpected" && first?.offset === text.length) {
    return { settings: {}, problems: [], empty: true };
  }
  if (first !== undefined || tree === undefined) {
    const why = `${syntaxMessage(code ?? "ValueExpected")} (not valid JSONC)`;
    return fail(`${where(first?.offset ?? 0)}: ${why}`);
  }
  const value: unknown = jsonc.getNodeValue(tree);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const why = "expected an object of settings ({ ... })";
    return fail(`${where(tree.offset)}: ${why}`);
  }
  const home = homeFrom(env);
  const fix = (p: string) => {
    const expanded = expandHome(p, home) ?? p;
    return isAbsolute(expanded) ? expanded : resolve(dirname(path), expanded);
  };
  const settings: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    const node = jsonc.findNodeAtLocation(tree, [key]);
    if (key === "$schema") continue;
    if (!isSettingKey(key)) {
      problems.push(
        `${where(node?.parent?.offset ?? tree.offset)}: unknown setting "${key}" ` +
          `(expected one of: ${Object.keys(SETTINGS).join(", ")}); ignoring it`,
      );
      continue;
    }
    const row: SettingRow<unknown> = SETTINGS[key];
    const parsed = row.parse(item);
    if (!failed(parsed)) {
      settings[key] = !row.isPath
        ? parsed
        : Array.isArray(parsed)
        ? parsed.map((p) => fix(String(p)))
        : fix(String(parsed));
      continue;
    }
    const raw = env(row.env);
    const fromEnv = raw?.trim() ? row.parse(raw) : undefined;
    const instead = (fromEnv !== undefined && !failed(fromEnv))
      ? `${shown(fromEnv)} from ${row.env}`
      : defaultOf(row);
    const at = where(node?.offset ?? tree.offset);
    problems.push(
      `${at}: ${key}: ${parsed.error}, got ${JSON.stringify(item)}; using ${instead}`,
    );
  }
  // Each value was checked by its own row.
  return { settings: settings as FileSettings, problems };
}
