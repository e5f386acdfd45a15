/**
 * Step 3a: Claude Code's auto-compaction settings for this context, read from its settings
 * files on the context's first call and then kept in the state (a reset reads them again), so a
 * call that does not fire opens no settings file (docs/benchmarks.md has the measurement).
 */
import { type CompactSettings, mergeCompactSettings } from "../core/compaction_point.ts";
import type { State } from "../schemas/state.ts";
import type { Settings } from "../settings/resolve.ts";

/** How the state keeps settings files that set nothing about auto-compaction. */
const NOTHING = '{"byModel":{}}';

/** Settings files that set nothing, as every call of a context that read them sees them. */
export const NO_SETTINGS: CompactSettings = Object.freeze({ byModel: Object.freeze({}) });

/** The settings, and the text to keep in the state when they were read on this call. */
export interface CompactSettingsRead {
  files: CompactSettings | undefined;
  /** Set when the files were read now: the state keeps it (ContextFacts.claudeSettings). */
  remember?: string;
}

/**
 * The settings this context's decisions use: none when they cannot matter (auto-compaction
 * turned off by the environment, or the thresholds never measured against the compaction
 * point), the state's copy, or the files read now.
 */
export async function compactSettingsFor(
  state: State,
  settings: Pick<
    Settings,
    "compactEnv" | "scaleForAutocompact" | "claudeDir" | "projectDir"
  >,
  cwd: string | undefined,
): Promise<CompactSettingsRead> {
  if (!settings.scaleForAutocompact || settings.compactEnv.off) return { files: undefined };
  // The usual case, files that set nothing, is kept as this text: nothing to parse per call.
  if (state.claudeSettings === NOTHING) return { files: NO_SETTINGS };
  // Loaded on first use: a call that keeps the usual settings never loads the reader.
  const { compactSettingsFrom, readCompactSources } = await import("../io/claude_settings.ts");
  const kept = state.claudeSettings === undefined
    ? undefined
    : compactSettingsFrom(state.claudeSettings);
  if (kept) return { files: kept };
  const files = mergeCompactSettings(readCompactSources({
    claudeDir: settings.claudeDir,
    projectDir: settings.projectDir ?? cwd,
    os: Deno.build.os,
  }));
  return { files, remember: JSON.stringify(files) };
}
