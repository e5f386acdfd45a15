/** The edge where settings are read, once per process: the config file, then the environment. */
import { join } from "../core/path.ts";
import { failed } from "../core/result.ts";
import { readSmallFile, statOf } from "../io/files.ts";
import { installedDataDir } from "../io/plugin_cache.ts";
import { parseConfigText } from "./config_file.ts";
import {
  type CliSettings,
  type ConfigFileOutcome,
  type Env,
  expandHome,
  homeFrom,
  pluginsDirOf,
  resolveCliSettings,
  resolveSettings,
  type Settings,
} from "./resolve.ts";

/** Settings as the hook resolves them on its next call. Never throws. */
export async function loadSettings(env: Env): Promise<Settings> {
  return withManifestChecked(resolveSettings(env, await loadConfigFile(env)));
}

/**
 * A command's settings: the hook's and the commands' own. `from` is the folder it runs from:
 * without `CLAUDE_PLUGIN_DATA` (Claude Code sets it for a plugin's hooks only) it reads the
 * installed plugin's data folder, where the hook finds its config file.
 */
export async function loadCliSettings(
  env: Env,
  from: { root: string | undefined },
): Promise<CliSettings> {
  return withManifestChecked(resolveCliSettings(env, await loadConfigFile(env, from)));
}

/**
 * A manifest path the settings name that does not exist is a settings problem like an invalid
 * value (said at session start, counted on the statusline): one stat, only when a path is set.
 */
function withManifestChecked<T extends Settings>(settings: T): T {
  const { manifestPath: path, manifestPathFrom: from, configFile } = settings;
  if (path === undefined || statOf(path) !== undefined) return settings;
  const inFile = from !== "LESSONS_MANIFEST_PATH";
  const named = inFile ? `config ${configFile.path}: manifestPath "${path}"` : `${from}="${path}"`;
  const problem = `${named}: there is no such file; no lessons-learned lessons are restated`;
  const file = inFile ? { ...configFile, problems: [...configFile.problems, problem] } : configFile;
  return { ...settings, configFile: file, problems: [...settings.problems, problem] };
}

/** Config files larger than this are refused (a real one is a few hundred bytes). */
const MAX_CONFIG_BYTES = 256 * 1024;

type Location = { path: string; via: NonNullable<ConfigFileOutcome["via"]> };

/** The config file's name in the plugin's data folder. */
const IN_DATA = "lessons-reinject.jsonc";

/**
 * Where the config file is looked for, in order: `LESSONS_CONFIG` alone when set; else
 * `$CLAUDE_PLUGIN_DATA/lessons-reinject.jsonc` (for a command without it, the installed plugin's
 * data folder), then `~/.config/lessons-reinject/config.jsonc`.
 */
function configCandidates(env: Env, from?: { root: string | undefined }): Location[] {
  const named = env("LESSONS_CONFIG");
  const home = homeFrom(env);
  if (named?.trim()) return [{ path: expandHome(named, home) ?? named, via: "LESSONS_CONFIG" }];
  const data = env("CLAUDE_PLUGIN_DATA");
  const candidates: Location[] = [];
  if (data) candidates.push({ path: join(data, IN_DATA), via: "CLAUDE_PLUGIN_DATA" });
  else if (from) {
    const plugins = pluginsDirOf(env);
    const installed = plugins && installedDataDir(plugins, "lessons-reinject", from.root);
    if (installed) {
      candidates.push({
        path: join(installed.dir, IN_DATA),
        via: "installed plugin's data folder",
      });
    }
  }
  const config = home && join(home, ".config", "lessons-reinject", "config.jsonc");
  if (config) candidates.push({ path: config, via: "~/.config" });
  return candidates;
}

/** Finds and reads the config file. Never throws: an unusable file gives its problems. */
async function loadConfigFile(
  env: Env,
  from?: { root: string | undefined },
): Promise<ConfigFileOutcome> {
  const candidates = configCandidates(env, from);
  const looked = candidates.map((c) => c.path);
  for (const { path, via } of candidates) {
    // `located`: the reason starts with the path itself (`path:line:column: ...`), named once.
    const unusable = (why: string, located = false): ConfigFileOutcome => ({
      path,
      via,
      settings: {},
      problems: [`config ${located ? "" : `${path}: `}${why}; using the defaults`],
      looked,
    });
    // Sync: this runs on every hook call, where an async op's thread hop costs more.
    const read = readSmallFile(path, MAX_CONFIG_BYTES);
    const missing = failed(read, "missing");
    if (missing && via !== "LESSONS_CONFIG") continue;
    if (failed(read)) {
      return unusable(`${read.error}${missing ? " (named by LESSONS_CONFIG)" : ""}`);
    }
    const text = new TextDecoder().decode(read);
    const parsed = await parseConfigText(text, path, env);
    if (failed(parsed)) return unusable(parsed.error, true);
    const { settings, problems, empty } = parsed;
    return {
      path,
      via,
      settings,
      problems: problems.map((p) => `config ${p}`),
      looked,
      ...(empty ? { empty } : {}),
    };
  }
  return { path: undefined, via: undefined, settings: {}, problems: [], looked };
}
