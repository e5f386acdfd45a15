/**
 * Every standing rule one refresh restates, from every source that is on: the lessons-learned
 * manifest and the user's own rules (rule_sources.ts), each source with a line saying what it gave
 * or why it gave nothing. What the hook, `preview`, `status` and `doctor` all read.
 */
import type { Settings } from "../settings/resolve.ts";
import type { RefreshLesson } from "../core/lessons.ts";
import type { RuleBlock } from "../core/render_rules.ts";
import { findManifest, type FoundManifest, type ManifestSearch } from "./manifest_load.ts";
import {
  describeSource,
  findGitRoot,
  type LoadedRuleSource,
  readRuleSource,
  ruleSourceCandidates,
} from "./rule_sources.ts";

export interface StandingRules {
  /** The manifest, or `off` when that source is turned off. */
  manifest: FoundManifest | { kind: "off" };
  /** Each own-rule source looked at, in rank order, found or not. */
  sources: LoadedRuleSource[];
  lessons: RefreshLesson[];
  blocks: RuleBlock[];
  /** One line per source: what it gave, or why nothing. */
  trace: string[];
}

/**
 * Loads every source that `settings` turns on, for the project at `cwd`. Never throws. Async only
 * to say where an invalid manifest breaks (json_syntax.ts loads its parser on first use).
 */
export async function loadStandingRules(
  settings: Pick<Settings, "sources" | "rulesFiles" | "claudeDir" | "home"> & ManifestSearch,
  cwd: string | undefined,
): Promise<StandingRules> {
  const on = new Set(settings.sources);
  const manifest = on.has("manifest")
    ? await findManifest(settings, cwd)
    : { kind: "off" as const };
  const sources = ruleSourceCandidates({
    cwd,
    gitRoot: findGitRoot(cwd),
    userDir: settings.claudeDir,
    home: settings.home,
    sources: on,
    extraFiles: settings.rulesFiles,
  }).map(readRuleSource);
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
