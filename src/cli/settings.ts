/**
 * Settings as the hook would resolve them right now: environment, then config file, then
 * defaults, with every problem collected as a line for the report.
 */
import { type Config, resolveConfig } from "../core/config.ts";
import { defaultStateDir } from "../io/state_store.ts";
import { loadConfigFile, type LoadedConfigFile } from "../io/config_file.ts";
import type { Env } from "./common.ts";

export interface Settings {
  config: Config;
  file: LoadedConfigFile;
  /** Config-file problems, then invalid environment values. */
  problems: string[];
  stateDir: string;
}

/** Resolves settings exactly as the hook does on its next call. */
export async function loadSettings(env: Env): Promise<Settings> {
  const file = await loadConfigFile(env);
  const { config, warnings } = resolveConfig(env, file.settings);
  return {
    config,
    file,
    problems: [...file.problems, ...warnings],
    stateDir: config.stateDir ?? defaultStateDir(env),
  };
}
