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

/**
 * The manifest to read: the configured path; else `${CLAUDE_PLUGIN_ROOT}/data/lesson-manifest.json`
 * when it exists; else the newest lessons-learned plugin install under `~/.claude/plugins`.
 */
export async function locateManifest(
  configured: string | undefined,
  env: (name: string) => string | undefined,
): Promise<ManifestLocation | undefined> {
  if (configured) return { path: configured, via: "LESSONS_MANIFEST_PATH or config file" };
  const root = env("CLAUDE_PLUGIN_ROOT");
  if (root) {
    const path = join(root, "data", "lesson-manifest.json");
    if (await isFile(path)) return { path, via: "CLAUDE_PLUGIN_ROOT/data" };
  }
  const home = env("HOME") ?? env("USERPROFILE");
  if (!home) return undefined;
  const installed = await newestInstalledFile(join(home, ".claude", "plugins"), "lessons-learned", [
    "data",
    "lesson-manifest.json",
  ]);
  return installed ? { path: installed.path, via: "installed lessons-learned plugin" } : undefined;
}

async function isFile(path: string): Promise<boolean> {
  return (await Deno.stat(path).catch(() => undefined))?.isFile ?? false;
}

/**
 * Reads and validates the manifest at `path`. Throws `Error` with a one-line reason when it is
 * missing, too large, not JSON, or not a lessons-learned manifest.
 */
export async function loadManifest(
  path: string,
  projectIds: readonly string[],
): Promise<LessonSelection> {
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) throw new Error("not a file");
    if (info.size > MAX_MANIFEST_BYTES) {
      throw new Error(`${info.size} bytes is over the ${MAX_MANIFEST_BYTES}-byte limit`);
    }
    text = await Deno.readTextFile(path);
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
 * `CLAUDE_PROJECT_DIR`, else `projectDir`: what the hook, `preview` and `doctor` all need.
 */
export async function findManifest(
  configured: string | undefined,
  env: (name: string) => string | undefined,
  projectDir: string | undefined,
): Promise<FoundManifest> {
  const location = await locateManifest(configured, env);
  if (!location) return { kind: "none" };
  try {
    const projectIds = projectIdsFor(env("CLAUDE_PROJECT_DIR") ?? projectDir);
    return { kind: "ok", location, selection: await loadManifest(location.path, projectIds) };
  } catch (error) {
    return { kind: "invalid", location, error: messageOf(error) };
  }
}
