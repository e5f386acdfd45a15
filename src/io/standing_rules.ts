/** Every standing rule a refresh restates: the lessons-learned manifest and the user's own. */
import type { Settings } from "../settings/resolve.ts";
import {
  type LessonSelection,
  projectIdsFor,
  type RefreshLesson,
  selectLessons,
} from "../core/lessons.ts";
import type { RuleBlock } from "../core/render_rules.ts";
import { join } from "../core/path.ts";
import { fileReason, messageOf } from "../core/errors.ts";
import { whyNotJson } from "../core/json_syntax.ts";
import { newestInstalledFile } from "./plugin_cache.ts";
import {
  describeSource,
  findGitRoot,
  type LoadedRuleSource,
  readRuleSource,
  ruleSourceCandidates,
} from "./rule_sources.ts";

/** Manifests larger than this are refused unparsed (real ones are well under 1 MB). */
const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

type FoundManifest =
  | { kind: "none" }
  | { kind: "invalid"; location: { path: string; via: string }; error: string }
  | { kind: "ok"; location: { path: string; via: string }; selection: LessonSelection };

type RulesSettings =
  & Pick<Settings, "sources" | "rulesFiles" | "home" | "claudeDir" | "pluginRoot">
  & Partial<Pick<Settings, "agent" | "codexHome">>
  & Pick<Settings, "manifestPath" | "manifestPathFrom" | "projectDir">;

/** `sources`: each own-rule source looked at, in rank order; `trace`: a line per source. */
export interface StandingRules {
  manifest: FoundManifest | { kind: "off" };
  sources: LoadedRuleSource[];
  lessons: RefreshLesson[];
  blocks: RuleBlock[];
  trace: string[];
}

/** Never throws. Async only to say where an invalid manifest breaks (json_syntax.ts). */
export async function loadStandingRules(
  settings: RulesSettings,
  cwd: string | undefined,
): Promise<StandingRules> {
  const manifest = settings.sources.includes("manifest")
    ? await findManifest(settings, cwd)
    : { kind: "off" as const };
  const sources = ruleSourceCandidates(settings, cwd, findGitRoot(cwd)).map(readRuleSource);
  // Places with nothing there are left out of the trace unless named in the settings.
  const shown = sources.filter((s) => s.status !== "missing" || s.scope === "configured");
  return {
    manifest,
    sources,
    lessons: manifest.kind === "ok" ? manifest.selection.lessons : [],
    blocks: sources.flatMap((s) => s.blocks),
    trace: [manifestLine(manifest), ...shown.map(describeSource)],
  };
}

function manifestLine(manifest: StandingRules["manifest"]): string {
  if (manifest.kind === "off") return "manifest: turned off";
  if (manifest.kind === "none") return "manifest: no manifest found (set LESSONS_MANIFEST_PATH)";
  if (manifest.kind === "invalid") return `manifest: ${manifest.error}`;
  const { selection: { lessons, invalid }, location: { path } } = manifest;
  const bad = invalid.length > 0 ? `; invalid lessons skipped: ${invalid.join(" | ")}` : "";
  return lessons.length === 0
    ? `manifest: ${path} has no active directives or protocols${bad}`
    : `manifest: ${lessons.length} directives and protocols from ${path}${bad}`;
}

/** The manifest, its lessons selected for the project; an unusable one says why in one line. */
async function findManifest(
  search: RulesSettings,
  cwd: string | undefined,
): Promise<FoundManifest> {
  const location = locateManifest(search);
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

/** The configured path, else the plugin root's `data/`, else the newest installed plugin's. */
function locateManifest(search: RulesSettings): { path: string; via: string } | undefined {
  const { manifestPath, pluginRoot, claudeDir } = search;
  if (manifestPath) {
    return { path: manifestPath, via: search.manifestPathFrom ?? "LESSONS_MANIFEST_PATH" };
  }
  const bundled = pluginRoot && join(pluginRoot, "data", "lesson-manifest.json");
  try {
    if (bundled && Deno.statSync(bundled).isFile) {
      return { path: bundled, via: "CLAUDE_PLUGIN_ROOT/data" };
    }
  } catch {
    // Not bundled: look for an installed plugin.
  }
  const manifestFile = ["data", "lesson-manifest.json"];
  // Under Codex, lessons-learned is installed in $CODEX_HOME/plugins, laid out as Claude Code's.
  const agentDir = search.agent === "codex" ? search.codexHome : claudeDir;
  const installed = agentDir &&
    newestInstalledFile(join(agentDir, "plugins"), "lessons-learned", manifestFile);
  return installed ? { path: installed.path, via: "installed lessons-learned plugin" } : undefined;
}
