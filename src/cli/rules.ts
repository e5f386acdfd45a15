/**
 * What the commands say about the standing rules: the sample refresh they measure without a real
 * call, a line per source, and what to do when nothing can be restated.
 */
import { type RefreshCause, refreshHeader } from "../core/header.ts";
import { isTokenThreshold } from "../core/numbers.ts";
import { thresholdsCause } from "../core/crossing.ts";
import { type CombinedRefresh, renderCombined } from "../core/render_rules.ts";
import { sourceProblems } from "../io/rule_sources.ts";
import type { StandingRules } from "../io/standing_rules.ts";
import type { Settings } from "../settings/resolve.ts";
import type { LeftOut, LeftOutWhy } from "../core/lessons.ts";

/** The refresh at `threshold`, else the first threshold (a token threshold names no window). */
export function sampleCause(
  thresholds: readonly number[],
  threshold?: number,
): Extract<RefreshCause, { kind: "thresholds" }> {
  const chosen = threshold ?? thresholds[0] ?? 30;
  const cause = thresholdsCause([chosen], undefined, isTokenThreshold(chosen) ? 0 : chosen);
  return isTokenThreshold(chosen) ? { ...cause, tokens: chosen } : cause;
}

/** `rules` laid out as that refresh (with a token of the real one's length), within the budget. */
export function sampleRefresh(rules: StandingRules, settings: Settings): CombinedRefresh {
  const header = refreshHeader(sampleCause(settings.thresholds), "00000000", rules);
  return renderCombined(header, rules.blocks, rules.lessons, settings.maxChars);
}

/**
 * One line per source, the manifest's first; where the agent's instruction files (CLAUDE.md,
 * AGENTS.md for Codex, GEMINI.md) were looked for when none was.
 */
export function sourceLines(rules: StandingRules, agent?: string): string[] {
  const name = instructionFile(agent);
  const own = rules.sources.filter((s) => s.kind === "claude-md");
  if (own.length === 0) return [...rules.trace, `${name}: turned off (sources setting)`];
  if (own.some((s) => s.status !== "missing")) return rules.trace;
  return [
    ...rules.trace,
    `${name}: none found (looked for ${own.map((s) => s.display).join(", ")})`,
  ];
}

/** The agent's own instruction file, where rules are marked: CLAUDE.md, AGENTS.md, GEMINI.md. */
const instructionFile = (agent?: string) =>
  agent === "codex" ? "AGENTS.md" : agent === "gemini" ? "GEMINI.md" : "CLAUDE.md";

/** The way to have rules restated without lessons-learned (docs/own-rules.md). */
export const CLAUDE_MD_ROUTE = "mark rules in CLAUDE.md between <!-- reinject --> and " +
  "<!-- /reinject --> lines (docs/own-rules.md)";

/** What to do about a manifest that was not found or cannot be used. */
export function manifestFix(manifest: StandingRules["manifest"]): string {
  if (manifest.kind !== "invalid") {
    return "install the lessons-learned plugin, or set LESSONS_MANIFEST_PATH to its " +
      `data/lesson-manifest.json; or ${CLAUDE_MD_ROUTE}`;
  }
  const { via, set } = manifest.location;
  const mend = set === "env"
    ? "correct LESSONS_MANIFEST_PATH, or unset it to use the installed lessons-learned plugin's"
    : set === "config"
    ? `correct ${via}, or remove it to use the installed lessons-learned plugin's`
    : "reinstall the lessons-learned plugin, or set LESSONS_MANIFEST_PATH to a valid manifest";
  return `${mend}; or ${CLAUDE_MD_ROUTE}`;
}

/**
 * Why nothing can be restated, and what to do, in one line; undefined when some rule can be. A
 * rules source that could not be read (an unclosed marker, an unreadable file) is named by path
 * and line; `agent`: whose instruction files were looked in (AGENTS.md for Codex).
 */
export function nothingToRestate(rules: StandingRules, agent?: string): string | undefined {
  if (rules.lessons.length > 0 || rules.blocks.length > 0) return undefined;
  const m = rules.manifest;
  const problems = sourceProblems(rules.sources);
  const marked = problems.length > 0
    ? `no rules could be read from your own (${problems.join("; ")})`
    : `no rules are marked in ${instructionFile(agent)}`;
  const why = m.kind === "off"
    ? `the manifest is turned off (sources setting) and ${marked}; ${CLAUDE_MD_ROUTE}`
    : m.kind === "none"
    ? `no manifest found and ${marked}; ${manifestFix(m)}`
    : m.kind === "invalid"
    ? `${m.error}; ${manifestFix(m)}`
    : `${m.location.path} has no active directives or protocols, and ${marked}; add lessons, ` +
      `or ${CLAUDE_MD_ROUTE}`;
  return `nothing to restate: ${why}`;
}

const WHY: Record<LeftOutWhy, string> = {
  "scope": "scoped to another project",
  "session-start-cap": "past session start's cap",
  "session-start-budget": "over session start's budget",
  "refresh-budget": "over this refresh's budget",
  "reminder": "a reminder: fired from tool output, not at session start",
  "unread": "not read: fix it",
};

/** `slug (why)` for each lesson or rule section left out, in the order given. */
export function leftOutList(excluded: readonly LeftOut[]): string[] {
  return excluded.map(({ id, why }) => `${id} (${WHY[why]})`);
}
