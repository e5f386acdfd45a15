/**
 * Finds and reads the lessons-learned manifest. Only a firing call gets here, so a manifest of
 * any size costs nothing on the common path; an oversized one is refused rather than parsed.
 */
import { join } from "../core/path.ts";
import { newestInstalledFile } from "./plugin_cache.ts";
import { type LessonSelection, projectIdsFor, selectLessons } from "../core/lessons.ts";
import { fileReason, messageOf } from "../core/errors.ts";
import { whyNotJson } from "../core/json_syntax.ts";

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
  /** Which of the two gave `manifestPath` (see `Settings.manifestPathFrom`), for messages. */
  manifestPathFrom?: string | undefined;
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
export function locateManifest(search: ManifestSearch): ManifestLocation | undefined {
  const { manifestPath, pluginRoot, claudeDir } = search;
  if (manifestPath) {
    return { path: manifestPath, via: search.manifestPathFrom ?? "LESSONS_MANIFEST_PATH" };
  }
  if (pluginRoot) {
    const path = join(pluginRoot, "data", "lesson-manifest.json");
    if (isFile(path)) return { path, via: "CLAUDE_PLUGIN_ROOT/data" };
  }
  if (!claudeDir) return undefined;
  const installed = newestInstalledFile(join(claudeDir, "plugins"), "lessons-learned", [
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
 * Reads and validates the manifest at `path`. Throws `Error` with one line saying what is wrong
 * with the file (`manifest PATH: it is not valid JSON (line 2, column 3: expected ',')`) when it
 * is missing, unreadable, too large, not JSON, or not a lessons-learned manifest.
 */
async function loadManifest(
  path: string,
  projectIds: readonly string[],
): Promise<LessonSelection> {
  const wrong = (why: string) => new Error(`manifest ${path}: ${why}`);
  let text: string;
  try {
    // Sync: a firing call is one short process, where an async op's hop to a worker thread (and
    // that thread's start) costs more than the read.
    const info = Deno.statSync(path);
    if (info.isDirectory) throw wrong("it is a folder, not a file");
    if (!info.isFile) throw wrong("it is not a regular file");
    if (info.size > MAX_MANIFEST_BYTES) {
      throw wrong(`it is ${info.size} bytes, over the ${MAX_MANIFEST_BYTES}-byte limit`);
    }
    text = Deno.readTextFileSync(path);
  } catch (error) {
    throw error instanceof Error && error.message.startsWith("manifest ")
      ? error
      : wrong(fileReason(error));
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw wrong(await whyNotJson(text));
  }
  try {
    return selectLessons(raw, projectIds);
  } catch (error) {
    throw wrong(`it is ${messageOf(error)}`);
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
  const location = locateManifest(search);
  if (!location) return { kind: "none" };
  try {
    const projectIds = projectIdsFor(search.projectDir ?? cwd);
    return { kind: "ok", location, selection: await loadManifest(location.path, projectIds) };
  } catch (error) {
    return { kind: "invalid", location, error: messageOf(error) };
  }
}
