/**
 * Every standing rule one refresh restates, from every source that is on: the lessons-learned
 * manifest and the user's own rules (rule_sources.ts). What the hook, `preview`, `status` and
 * `doctor` all read; each source comes with a line saying what it gave or why it gave nothing.
 */
import type { Settings } from "../settings/resolve.ts";
import type { RefreshLesson } from "../core/lessons.ts";
import type { RuleBlock } from "../core/render_rules.ts";
import type { SourceName } from "../core/rule_source_names.ts";
import { findManifest, type FoundManifest, type ManifestSearch } from "./manifest_load.ts";
import { describeSource, type LoadedRuleSource, loadRuleSources } from "./rule_sources.ts";

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

/** The manifest's line in a trace. */
function describeManifest(manifest: StandingRules["manifest"]): string {
  switch (manifest.kind) {
    case "off":
      return "manifest: turned off";
    case "none":
      return "manifest: no manifest found (set LESSONS_MANIFEST_PATH)";
    case "invalid":
      return `manifest: ${manifest.error}`;
    case "ok": {
      const { lessons, invalid } = manifest.selection;
      const bad = invalid.length > 0 ? `; invalid lessons skipped: ${invalid.join(" | ")}` : "";
      return lessons.length === 0
        ? `manifest: ${manifest.location.path} has no active directives or protocols${bad}`
        : `manifest: ${lessons.length} directives and protocols from ${manifest.location.path}${bad}`;
    }
  }
}

/** What loading needs from the settings. */
export type StandingRulesSettings =
  & Pick<Settings, "sources" | "rulesFiles" | "claudeDir" | "home">
  & ManifestSearch;

/**
 * Loads every source that `settings` turns on, for the project at `cwd`. Never throws: a source
 * that cannot be read gives nothing and says why in `trace`.
 */
export async function loadStandingRules(
  settings: StandingRulesSettings,
  cwd: string | undefined,
): Promise<StandingRules> {
  const on = new Set<SourceName>(settings.sources);
  const manifest = on.has("manifest")
    ? await findManifest(settings, cwd)
    : { kind: "off" as const };
  const sources = loadRuleSources({
    cwd,
    userDir: settings.claudeDir,
    home: settings.home,
    sources: on,
    extraFiles: settings.rulesFiles,
  });
  const lessons = manifest.kind === "ok" ? manifest.selection.lessons : [];
  const blocks = sources.flatMap((s) => s.blocks);
  // Places with nothing there are left out of the trace unless named in the settings.
  const shown = sources.filter((s) => s.status !== "missing" || s.scope === "configured");
  return {
    manifest,
    sources,
    lessons,
    blocks,
    trace: [describeManifest(manifest), ...shown.map(describeSource)],
  };
}
