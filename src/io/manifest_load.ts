/**
 * Finds and reads the lessons-learned manifest. Only a firing call gets here, so a manifest of
 * any size costs nothing on the common path; an oversized one is refused rather than parsed.
 */
import { join } from "../core/path.ts";
import { newestInstalledFile } from "./plugin_cache.ts";
import { type LessonSelection, projectIdsFor, selectLessons } from "../core/lessons.ts";
import { messageOf } from "../core/errors.ts";

/** Manifests larger than this are refused (the largest real ones are well under 1 MB). */
export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

export interface ManifestLocation {
  path: string;
  /** How the path was chosen. */
  via: string;
}

/** Where to look for the manifest: settings (see src/settings/resolve.ts). */
export interface ManifestSearch {
  /** `LESSONS_MANIFEST_PATH` or the config file's `manifestPath`. */
  manifestPath: string | undefined;
  /** `CLAUDE_PLUGIN_ROOT`. */
  pluginRoot: string | undefined;
  /** Claude Code's folder (`CLAUDE_CONFIG_DIR` or `~/.claude`), whose `plugins/` is searched. */
  claudeDir: string | undefined;
  /** `CLAUDE_PROJECT_DIR`: the project whose scoped lessons apply. */
  projectDir: string | undefined;
}

/**
 * The manifest to read: the configured path; else `${CLAUDE_PLUGIN_ROOT}/data/lesson-manifest.json`
 * when it exists; else the newest lessons-learned plugin install under Claude Code's `plugins/`.
 */
export async function locateManifest(
  search: ManifestSearch,
): Promise<ManifestLocation | undefined> {
  const { manifestPath, pluginRoot, claudeDir } = search;
  if (manifestPath) return { path: manifestPath, via: "LESSONS_MANIFEST_PATH or config file" };
  if (pluginRoot) {
    const path = join(pluginRoot, "data", "lesson-manifest.json");
    if (isFile(path)) return { path, via: "CLAUDE_PLUGIN_ROOT/data" };
  }
  if (!claudeDir) return undefined;
  const installed = await newestInstalledFile(join(claudeDir, "plugins"), "lessons-learned", [
    "data",
    "lesson-manifest.json",
  ]);
  return installed ? { path: installed.path, via: "installed lessons-learned plugin" } : undefined;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * Reads and validates the manifest at `path`. Throws `Error` with a one-line reason when it is
 * missing, too large, not JSON, or not a lessons-learned manifest.
 */
function loadManifest(path: string, projectIds: readonly string[]): LessonSelection {
  let text: string;
  try {
    // Sync: a firing call is one short process, where an async op's hop to a worker thread (and
    // that thread's start) costs more than the read.
    const info = Deno.statSync(path);
    if (!info.isFile) throw new Error("not a file");
    if (info.size > MAX_MANIFEST_BYTES) {
      throw new Error(`${info.size} bytes is over the ${MAX_MANIFEST_BYTES}-byte limit`);
    }
    text = Deno.readTextFileSync(path);
  } catch (error) {
    throw new Error(`manifest ${path}: ${messageOf(error)}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `manifest ${path} is not JSON: ${messageOf(error)}`,
    );
  }
  try {
    return selectLessons(raw, projectIds);
  } catch (error) {
    throw new Error(`manifest ${path}: ${messageOf(error)}`);
  }
}

/** The manifest for a project folder: not found, found but unusable, or its selected lessons. */
export type FoundManifest =
  | { kind: "none" }
  | { kind: "invalid"; location: ManifestLocation; error: string }
  | { kind: "ok"; location: ManifestLocation; selection: LessonSelection };

/**
 * Locates the manifest ({@link locateManifest}) and loads it for the project at
 * `CLAUDE_PROJECT_DIR`, else `cwd`: what the hook, `preview` and `doctor` all need.
 */
export async function findManifest(
  search: ManifestSearch,
  cwd: string | undefined,
): Promise<FoundManifest> {
  const location = await locateManifest(search);
  if (!location) return { kind: "none" };
  try {
    const projectIds = projectIdsFor(search.projectDir ?? cwd);
    return { kind: "ok", location, selection: loadManifest(location.path, projectIds) };
  } catch (error) {
    return { kind: "invalid", location, error: messageOf(error) };
  }
}
