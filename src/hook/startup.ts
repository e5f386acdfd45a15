/**
 * SessionStart startup: the one time the hook speaks to the user (a `systemMessage`, which Claude
 * Code shows and does not send to the model; it shows no hook's stderr), and only about what it
 * cannot use: a state folder it will not use (nothing else then matters), settings it refused
 * (`settings.problems`), and rules of the user's own it left out (an unclosed marker, an
 * unreadable file, a section over the budget). One line each, with the fix, three at most;
 * otherwise silence.
 */
import { userNotice } from "../core/claude_code.ts";
import { preparePrivateDir, stateDirFix } from "../io/state_store.ts";
import type { HookPayload } from "../schemas/payload.ts";
import { envProblems, type Settings } from "../settings/resolve.ts";

/** What to do about a setting the environment gives (its problem's line starts with its name). */
const UNSET = "correct or unset that variable";
const FIX_FILE = "correct that file (`doctor` says more)";

/** The most lines the notice takes: past it, the last says how many more `doctor` lists. */
const MAX_LINES = 3;

/** The notice to print, or undefined, and why (for the debug line). */
export async function startupNotice(
  payload: HookPayload,
  settings: Settings,
): Promise<{ answer: string | undefined; reason: string }> {
  const problem = preparePrivateDir(settings.stateDir);
  if (problem) {
    return {
      answer: userNotice(
        `lessons-reinject: ${problem.error}: it will not use it, so no context refresh is given; ` +
          stateDirFix(settings.stateDir, problem),
      ),
      reason: `told the user: ${problem.error}`,
    };
  }
  const env = envProblems(settings);
  const lines = [
    ...settings.problems.map((p) => `${p}; ${env.includes(p) ? UNSET : FIX_FILE}`),
    ...await rulesLeftOut(payload.cwd, settings),
  ];
  if (lines.length === 0) return { answer: undefined, reason: "the state folder is usable" };
  const shown = lines.length <= MAX_LINES ? lines : [
    ...lines.slice(0, MAX_LINES - 1),
    `${lines.length - MAX_LINES + 1} more problems: \`doctor\` lists them`,
  ];
  return {
    answer: userNotice(shown.map((line) => `lessons-reinject: ${line}`).join("\n")),
    reason: `told the user: ${lines.join(" | ")}`,
  };
}

/**
 * The user's own rules left out, a line each; when nothing at all can be restated, one line
 * saying so. Cheap first: the own sources, and the manifest read as JSON only (checking its lessons
 * loads the whole rules loader, which a session's start should not pay for); the whole check only
 * when a source is broken and a manifest might still have lessons.
 */
async function rulesLeftOut(cwd: string | undefined, settings: Settings): Promise<string[]> {
  const [{ findGitRoot, readRuleSource, ruleSourceCandidates, sourceProblems }, render] =
    await Promise.all([import("../io/rule_sources.ts"), import("../core/render_rules.ts")]);
  const own = ruleSourceCandidates(settings, cwd, findGitRoot(cwd)).map(readRuleSource);
  const blocks = own.flatMap((source) => source.blocks);
  // Own rules rank first in a refresh: one left out by the budget is left out whatever else.
  const over = render.renderCombined("", blocks, [], settings.maxChars).omitted
    .map((id) => `${id}: over the ${settings.maxChars}-character budget; left out`);
  const problems = [...sourceProblems(own), ...over];
  const fix = "fix it, then `preview` shows the text";
  const each = problems.map((p) => `${p}; ${fix}`);
  if (blocks.length > 0) return each;
  const { readManifest } = await import("../io/manifest_file.ts");
  const manifest = settings.sources.includes("manifest")
    ? await readManifest(settings)
    : { kind: "off" as const };
  if (manifest.kind === "invalid") problems.unshift(manifest.error);
  if (problems.length === 0) return [];
  if (manifest.kind === "json") {
    const { loadStandingRules } = await import("../io/standing_rules.ts");
    if ((await loadStandingRules(settings, cwd)).lessons.length > 0) return each;
  }
  return [
    `${problems.join("; ")}, and no other source has rules, so no context refresh is given; ${fix}`,
  ];
}
