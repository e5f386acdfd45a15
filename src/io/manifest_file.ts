/**
 * The lessons-learned manifest as a file: where it is, and its JSON read (not yet checked against
 * its schema, schemas/manifest.ts, which standing_rules.ts runs: SessionStart startup asks only
 * whether it can be read, without paying for that check).
 */
import type { Settings } from "../settings/resolve.ts";
import { join } from "../core/path.ts";
import { messageOf } from "../core/errors.ts";
import { failed } from "../core/result.ts";
import { whyNotJson } from "../core/json_syntax.ts";
import { readSmallFile, statOf } from "./files.ts";
import { newestInstalledFile } from "./plugin_cache.ts";

/** Manifests larger than this are refused unparsed (real ones are well under 1 MB). */
const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

export type ManifestSettings = Pick<
  Settings,
  "manifestPath" | "manifestPathFrom" | "pluginRoot" | "pluginsDir"
>;

/**
 * Where the manifest was found, `via` as a report says it; `set`: a path the settings name (the
 * environment's or the config file's), else the plugin's own.
 */
type ManifestLocation = { path: string; via: string; set?: "env" | "config" };

/** No manifest, or one that cannot be used, where and why (not a Failure: its fix needs where). */
export type UnusableManifest =
  | { kind: "none" }
  | { kind: "invalid"; location: ManifestLocation; error: string };

/** The manifest found, read and parsed as JSON; or why it cannot be used. */
export async function readManifest(
  search: ManifestSettings,
): Promise<
  UnusableManifest | { kind: "json"; location: ManifestLocation; raw: unknown }
> {
  const location = locateManifest(search);
  if (!location) return { kind: "none" };
  const invalid = (why: string) => ({
    kind: "invalid" as const,
    location,
    error: `manifest ${location.path}: ${why}`,
  });
  const read = readSmallFile(location.path, MAX_MANIFEST_BYTES);
  if (failed(read)) return invalid(read.error);
  const text = new TextDecoder().decode(read);
  try {
    return { kind: "json", location, raw: JSON.parse(text) };
  } catch {
    // Saying where the JSON breaks needs jsonc-parser, which a cold Deno cache may lack.
    return invalid(await whyNotJson(text).catch(messageOf));
  }
}

/** The configured path, else the plugin root's `data/`, else the newest installed plugin's. */
function locateManifest(search: ManifestSettings): ManifestLocation | undefined {
  const { manifestPath, manifestPathFrom: from, pluginRoot, pluginsDir } = search;
  if (manifestPath) {
    const via = from ?? "LESSONS_MANIFEST_PATH";
    return { path: manifestPath, via, set: via === "LESSONS_MANIFEST_PATH" ? "env" : "config" };
  }
  const bundled = pluginRoot && join(pluginRoot, "data", "lesson-manifest.json");
  if (bundled && statOf(bundled)?.isFile) return { path: bundled, via: "CLAUDE_PLUGIN_ROOT/data" };
  const manifestFile = ["data", "lesson-manifest.json"];
  // Under Codex, $CODEX_HOME/plugins, laid out as Claude Code's (io/hosts.ts).
  const installed = pluginsDir &&
    newestInstalledFile(pluginsDir, "lessons-learned", manifestFile);
  return installed ? { path: installed.path, via: "installed lessons-learned plugin" } : undefined;
}
