/** The edge where settings are read, once per process: the config file, then the environment. */
import { join } from "../core/path.ts";
import { messageOf } from "../core/errors.ts";
import { parseConfigText } from "./config_file.ts";
import {
  type ConfigFileOutcome,
  type Env,
  expandHome,
  homeFrom,
  resolveSettings,
  type Settings,
} from "./resolve.ts";

/** Settings as the hook resolves them on its next call. Never throws. */
export async function loadSettings(env: Env): Promise<Settings> {
  return resolveSettings(env, await loadConfigFile(env));
}

/** Config files larger than this are refused (a real one is a few hundred bytes). */
const MAX_CONFIG_BYTES = 256 * 1024;

type Location = { path: string; via: NonNullable<ConfigFileOutcome["via"]> };

/**
 * Where the config file is looked for, in order: `LESSONS_CONFIG` alone when set; else
 * `$CLAUDE_PLUGIN_DATA/lessons-reinject.jsonc`, then `~/.config/lessons-reinject/config.jsonc`.
 */
function configCandidates(env: Env): Location[] {
  const named = env("LESSONS_CONFIG");
  const home = homeFrom(env);
  if (named?.trim()) return [{ path: expandHome(named, home) ?? named, via: "LESSONS_CONFIG" }];
  const data = env("CLAUDE_PLUGIN_DATA");
  const candidates: Location[] = [];
  if (data) {
    candidates.push({ path: join(data, "lessons-reinject.jsonc"), via: "CLAUDE_PLUGIN_DATA" });
  }
  const config = home && join(home, ".config", "lessons-reinject", "config.jsonc");
  if (config) candidates.push({ path: config, via: "~/.config" });
  return candidates;
}

/** Finds and reads the config file. Never throws: an unusable file gives its problems. */
async function loadConfigFile(env: Env): Promise<ConfigFileOutcome> {
  for (const { path, via } of configCandidates(env)) {
    // `located`: the reason starts with the path itself (`path:line:column: ...`), named once.
    const failed = (why: string, located = false): ConfigFileOutcome => ({
      path,
      via,
      settings: {},
      problems: [`config ${located ? "" : `${path}: `}${why}; using the defaults`],
    });
    let text: string;
    try {
      // Sync: this runs on every hook call, where an async op's thread hop costs more.
      const info = Deno.statSync(path);
      if (!info.isFile) return failed("not a file");
      if (info.size > MAX_CONFIG_BYTES) return failed(`${info.size} bytes is over the limit`);
    } catch (error) {
      if (via !== "LESSONS_CONFIG") continue;
      const why = error instanceof Deno.errors.NotFound ? "no such file" : messageOf(error);
      return failed(`${why} (named by LESSONS_CONFIG)`);
    }
    try {
      text = Deno.readTextFileSync(path);
    } catch (error) {
      return failed(messageOf(error));
    }
    const parsed = await parseConfigText(text, path, env);
    if (parsed.kind === "unusable") return failed(parsed.unusable, true);
    const { settings, problems, empty } = parsed;
    return {
      path,
      via,
      settings,
      problems: problems.map((p) => `config ${p}`),
      ...(empty ? { empty } : {}),
    };
  }
  return { path: undefined, via: undefined, settings: {}, problems: [] };
}
