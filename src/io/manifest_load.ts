/**
 * Finds and reads the lessons-learned manifest. Only a firing call gets here, so a manifest of
 * any size costs nothing on the common path; an oversized one is refused rather than parsed.
 */
import { join } from "../core/path.ts";
import { newestInstalledFile } from "./plugin_cache.ts";
import { type LessonSelection, projectIdsFor, selectLessons } from "../core/lessons.ts";
import { fileReason, messageOf } from "../core/errors.ts";
import { whyNotJson } from "../core/json_syntax.ts";
import type { Settings } from "../settings/resolve.ts";

/** Manifests larger than this are refused (the largest real ones are well under 1 MB). */
const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

/** The manifest's path, and how it was chosen. */
export interface ManifestLocation {
  path: string;
  via: string;
}

/** Where to look for the manifest, and the project whose scoped lessons apply. */
export type ManifestSearch = Pick<
  Settings,
  "manifestPath" | "manifestPathFrom" | "pluginRoot" | "claudeDir" | "projectDir"
>;

/** The manifest for a project folder: not found, found but unusable, or its selected lessons. */
export type FoundManifest =
  | { kind: "none" }
  | { kind: "invalid"; location: ManifestLocation; error: string }
  | { kind: "ok"; location: ManifestLocation; selection: LessonSelection };

/**
 * The manifest of the project at `CLAUDE_PROJECT_DIR`, else `cwd`, read and validated. Looked for
 * at the configured path; else `${CLAUDE_PLUGIN_ROOT}/data/lesson-manifest.json` when it exists;
 * else in the newest lessons-learned plugin install under Claude Code's `plugins/`. An unusable
 * one says what is wrong with the file in one line (`manifest PATH: it is not valid JSON (line 2,
 * column 3: expected ',')`).
 */
export async function findManifest(
  search: ManifestSearch,
  cwd: string | undefined,
): Promise<FoundManifest> {
  const location = locate(search);
  if (!location) return { kind: "none" };
  const invalid = (why: string): FoundManifest => ({
    kind: "invalid",
    location,
    error: `manifest ${location.path}: ${why}`,
  });
  let text: string;
  try {
    const info = Deno.statSync(location.path);
    if (info.isDirectory) return invalid("it is a folder, not a file");
    if (!info.isFile) return invalid("it is not a regular file");
    if (info.size > MAX_MANIFEST_BYTES) {
      return invalid(`it is ${info.size} bytes, over the ${MAX_MANIFEST_BYTES}-byte limit`);
    }
    text = Deno.readTextFileSync(location.path);
  } catch (error) {
    return invalid(fileReason(error));
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // Saying where the JSON breaks needs jsonc-parser, which a cold Deno cache may lack.
    return invalid(await whyNotJson(text).catch(messageOf));
  }
  try {
    const selection = selectLessons(raw, projectIdsFor(search.projectDir ?? cwd));
    return { kind: "ok", location, selection };
  } catch (error) {
    return invalid(`it is ${messageOf(error)}`);
  }
}

function locate(search: ManifestSearch): ManifestLocation | undefined {
  const { manifestPath, pluginRoot, claudeDir } = search;
  if (manifestPath) {
    return { path: manifestPath, via: search.manifestPathFrom ?? "LESSONS_MANIFEST_PATH" };
  }
  const bundled = pluginRoot && join(pluginRoot, "data", "lesson-manifest.json");
  if (bundled) {
    try {
      if (Deno.statSync(bundled).isFile) return { path: bundled, via: "CLAUDE_PLUGIN_ROOT/data" };
    } catch {
      // Not there: look for an installed plugin.
    }
  }
  const installed = claudeDir &&
    newestInstalledFile(join(claudeDir, "plugins"), "lessons-learned", [
      "data",
      "lesson-manifest.json",
    ]);
  return installed ? { path: installed.path, via: "installed lessons-learned plugin" } : undefined;
}
