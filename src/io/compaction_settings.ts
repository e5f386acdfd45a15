/**
 * Claude Code's auto-compaction settings for a project, worked out in one place: the hook (with
 * what its state kept), `status --timeline` and `doctor` ask here instead of each finding the files.
 */
import type { CompactSettings } from "../core/compaction_point.ts";
import type { Settings } from "../settings/resolve.ts";
import { compactSettingsFor } from "./claude_settings.ts";

/**
 * The settings files' word on auto-compaction for a project at `cwd`, read afresh unless `kept`
 * (what the state remembered) still holds; none when they cannot change the span (scaling off, or
 * auto-compaction off in the environment), unless `always`: where Claude Code compacts matters
 * to doctor whether or not the hook scales for it.
 */
export function compactionSettings(
  settings: Settings,
  cwd: string | undefined,
  options: { kept?: string | undefined; always?: boolean } = {},
): { files: CompactSettings | undefined; remember?: string } {
  const matters = settings.scaleForAutocompact && !settings.compactEnv.off;
  if (!matters && !options.always) return { files: undefined };
  const projectDir = settings.projectDir ?? cwd;
  return compactSettingsFor(options.kept, {
    claudeDir: settings.claudeDir,
    projectDir,
    os: Deno.build.os,
  });
}
