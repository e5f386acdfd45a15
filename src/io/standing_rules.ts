/** Every standing rule a refresh restates: the lessons-learned manifest and the user's own. */
import type { Settings } from "../settings/resolve.ts";
import { type LessonSelection, selectLessons } from "../core/lessons.ts";
import { projectIdOf } from "../core/session_start.ts";
import { messageOf } from "../core/errors.ts";
import { type ManifestSettings, readManifest, type UnusableManifest } from "./manifest_file.ts";
import {
  describeSource,
  findGitRoot,
  readRuleSource,
  ruleSourceCandidates,
} from "./rule_sources.ts";

type FoundManifest =
  | UnusableManifest
  | { kind: "ok"; location: { path: string; via: string }; selection: LessonSelection };

type RulesSettings =
  & Pick<Settings, "sources" | "rulesFiles" | "home" | "claudeDir" | "pluginRoot">
  & ManifestSettings
  & Pick<Settings, "projectDir">;

/** Every standing rule found: what {@link loadStandingRules} gives. */
export type StandingRules = Awaited<ReturnType<typeof loadStandingRules>>;

/** Never throws. Async only to say where an invalid manifest breaks (json_syntax.ts). */
export async function loadStandingRules(
  settings: RulesSettings,
  cwd: string | undefined,
) {
  const manifest: FoundManifest | { kind: "off" } = settings.sources.includes("manifest")
    ? await findManifest(settings, cwd)
    : { kind: "off" as const };
  const sources = ruleSourceCandidates(settings, cwd, findGitRoot(cwd)).map(readRuleSource);
  // Places with nothing there are left out of the trace unless named in the settings.
  const shown = sources.filter((s) => s.status !== "missing" || s.scope === "configured");
  return {
    manifest,
    /** Each own-rule source looked at, in rank order. */
    sources,
    lessons: manifest.kind === "ok" ? manifest.selection.lessons : [],
    blocks: sources.flatMap((s) => s.blocks),
    /** A line per source. */
    trace: [manifestLine(manifest), ...shown.map(describeSource)],
  };
}

function manifestLine(manifest: FoundManifest | { kind: "off" }): string {
  if (manifest.kind === "off") return "manifest: turned off";
  if (manifest.kind === "none") return "manifest: no manifest found (set LESSONS_MANIFEST_PATH)";
  if (manifest.kind === "invalid") return `manifest: ${manifest.error}`;
  const { selection: { lessons, invalid, left }, location: { path } } = manifest;
  const bad = invalid.length > 0 ? `; invalid lessons skipped: ${invalid.join(" | ")}` : "";
  const notShown = left.length > 0 ? ` (${left.length} more not shown at session start)` : "";
  return lessons.length === 0
    ? `manifest: ${path} has no active directives or protocols${notShown}${bad}`
    : `manifest: ${lessons.length} directives and protocols from ${path}${notShown}${bad}`;
}

/** The manifest, its lessons selected for the project; an unusable one says why in one line. */
async function findManifest(
  search: RulesSettings,
  cwd: string | undefined,
): Promise<FoundManifest> {
  const read = await readManifest(search);
  if (read.kind !== "json") return read;
  const { location, raw } = read;
  try {
    const selection = selectLessons(raw, projectIdOf(search.projectDir ?? cwd));
    return { kind: "ok", location, selection };
  } catch (error) {
    return {
      kind: "invalid",
      location,
      error: `manifest ${location.path}: it is ${messageOf(error)}`,
    };
  }
}
