/**
 * The edge where settings are read: the config file found from the environment, then resolved
 * with it. The hook and every command call this once; nothing below reads the environment.
 */
import { loadConfigFile } from "./config_file.ts";
import { type Env, resolveSettings, type Settings } from "./resolve.ts";

/** Settings as the hook resolves them on its next call. Never throws. */
export async function loadSettings(env: Env): Promise<Settings> {
  return resolveSettings(env, await loadConfigFile(env));
}
