/**
 * After a compaction event: what the boundary Claude Code just wrote proves about the window
 * (`preTokens` near 167k on auto: 200k; above 200k: 1M) and, for an auto-compaction, where this
 * session compacts, kept in the context's state so the next context is measured against them
 * (core/window.ts `proven`, core/compaction_point.ts `learned`).
 */
import { compactsEarly } from "../core/compaction_point.ts";
import type { Settings } from "../settings/resolve.ts";
import { compactSettingsFor } from "./compaction_settings.ts";
import { loadState, saveState, stateOf, withLock } from "../io/state_store.ts";
import type { StatePaths } from "../io/state_store.ts";
import { scanHistory, withTranscript } from "../io/transcript.ts";
import { applyFacts } from "../core/context_facts.ts";
import { compactionFacts } from "./look_back.ts";

/** How far back to look for the boundary just written. */
const SCAN_BYTES = 1024 * 1024;

/**
 * Records the window the newest compaction in `transcriptPath` proves and the point it shows, if
 * any, and Claude Code's auto-compaction settings read afresh for the new context; returns a
 * phrase for the trace, or undefined when nothing was learned. Never throws.
 */
export async function recordCompactionWindow(
  paths: StatePaths,
  transcriptPath: string | undefined,
  settings: Pick<
    Settings,
    "disable1m" | "compactEnv" | "scaleForAutocompact" | "claudeDir" | "projectDir"
  >,
  cwd: string | undefined,
): Promise<string | undefined> {
  if (transcriptPath === undefined) return undefined;
  const tail = await withTranscript(
    transcriptPath,
    (source, size) => scanHistory(source, size, { maxBytes: SCAN_BYTES }),
  );
  if ("error" in tail || tail.compaction === undefined) return undefined;
  const compaction = tail.compaction;
  try {
    return await withLock(paths.lock, async () => {
      const current = stateOf(loadState(paths.state));
      // A reset is where the settings are read again (a call then opens none of them).
      const read = await compactSettingsFor({ fired: [], toolCount: 0 }, settings, cwd);
      const early = compactsEarly(settings.compactEnv, read.files);
      const facts = compactionFacts(compaction, current, settings.disable1m, early);
      await saveState(paths.state, {
        ...applyFacts(current, facts, true),
        ...(read.remember !== undefined ? { claudeSettings: read.remember } : {}),
      });
      const proven = facts.proven;
      const model = proven?.model === undefined ? "" : ` for ${proven.model}`;
      const said = [
        proven === undefined
          ? undefined
          : `the compaction at ${compaction.preTokens} tokens proves a ${proven.window}-token window${model}`,
        facts.compactedAt === undefined
          ? undefined
          : `this session auto-compacts at ${facts.compactedAt} tokens`,
      ].filter((p) => p !== undefined);
      return said.length === 0 ? undefined : said.join("; ");
    });
  } catch {
    return undefined; // A busy lock or a full disk: the next compaction or reading tells again.
  }
}
