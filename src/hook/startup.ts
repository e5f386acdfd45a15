/**
 * SessionStart startup: the one time the hook speaks to the user (a `systemMessage`, which Claude
 * Code does not send to the model), and only when no refresh can come in this session: a state
 * folder it will not use, or rules it cannot read (an unclosed marker, an unreadable file, a
 * broken manifest) with nothing else to restate. One line; otherwise silence.
 */
import { userNotice } from "../core/claude_code.ts";
import { preparePrivateDir, stateDirFix } from "../io/state_store.ts";
import type { HookPayload } from "../schemas/payload.ts";
import type { Settings } from "../settings/resolve.ts";

/** The notice to print, or undefined, and why (for the debug line). */
export async function startupNotice(
  payload: HookPayload,
  settings: Settings,
): Promise<{ answer: string | undefined; reason: string }> {
  const problem = preparePrivateDir(settings.stateDir);
  if (problem) {
    return {
      answer: userNotice(
        `lessons-reinject: ${problem}: it will not use it, so no context refresh is given; ` +
          stateDirFix(settings.stateDir, problem),
      ),
      reason: `told the user: ${problem}`,
    };
  }
  const unread = await unreadableRules(payload.cwd, settings);
  if (unread === undefined) return { answer: undefined, reason: "the state folder is usable" };
  return {
    answer: userNotice(
      `lessons-reinject: ${unread}, and no other source has rules, so no context refresh is ` +
        "given; fix it, then `preview` shows the text",
    ),
    reason: `told the user: ${unread}`,
  };
}

/**
 * Why the rules cannot be read when nothing at all can be restated; undefined otherwise. Cheap
 * first: the own sources, and the manifest read as JSON only (its schema's check builds zod's
 * schemas, which a session's start should not pay for); the whole check only when a source is
 * broken and a manifest might still have lessons.
 */
async function unreadableRules(
  cwd: string | undefined,
  settings: Settings,
): Promise<string | undefined> {
  const { findGitRoot, readRuleSource, ruleSourceCandidates, sourceProblems } = await import(
    "../io/rule_sources.ts"
  );
  const own = ruleSourceCandidates(settings, cwd, findGitRoot(cwd)).map(readRuleSource);
  if (own.some((source) => source.blocks.length > 0)) return undefined;
  const problems = sourceProblems(own);
  const { readManifest } = await import("../io/manifest_file.ts");
  const manifest = settings.sources.includes("manifest")
    ? await readManifest(settings)
    : { kind: "off" as const };
  if (manifest.kind === "invalid") problems.unshift(manifest.error);
  if (problems.length === 0) return undefined;
  if (manifest.kind === "json") {
    const { loadStandingRules } = await import("../io/standing_rules.ts");
    if ((await loadStandingRules(settings, cwd)).lessons.length > 0) return undefined;
  }
  return problems.join("; ");
}
