/**
 * `doctor`'s check of the user's own rules (docs/own-rules.md): each source looked at, its size
 * and what it gave, and what a refresh of everything at once would leave out of the budget.
 */
import { INLINE_LIMIT } from "../core/claude_code.ts";
import type { CombinedRefresh } from "../core/render_rules.ts";
import type { StandingRules } from "../io/standing_rules.ts";
import { count, groupDigits } from "./common.ts";
import type { Settings } from "../settings/resolve.ts";
import type { Check } from "./schemas.ts";

/**
 * The "rules" check: fails only when no source at all gives anything to restate; warns when a
 * source has odd markers or cannot be read, or when the budget leaves something out of
 * `rendered`, the one refresh every command measures (sample_refresh.ts).
 */
export function checkOwnRules(
  settings: Pick<Settings, "maxChars">,
  rules: StandingRules,
  rendered: CombinedRefresh,
): Check {
  const lines = rules.trace.slice(1); // the manifest has its own check
  const detail = (more: string) =>
    [`${count(rules.blocks.length, "section")} of your own rules`, ...lines, more]
      .filter((l) => l !== "").join("\n");
  if (rules.blocks.length === 0 && rules.lessons.length === 0) {
    return {
      name: "rules",
      status: "fail",
      detail: detail("nothing to restate from any source"),
      fix: "mark sections of CLAUDE.md between <!-- reinject --> and <!-- /reinject --> lines, " +
        "write .claude/reinject.md, or install lessons-learned (see docs/own-rules.md)",
    };
  }
  const fit = `a refresh of every source is ${groupDigits(rendered.text.length)} of ` +
    `${groupDigits(settings.maxChars)} characters: ${rendered.whole.length} whole, ` +
    `${rendered.summarized.length} first line or summary only, ${rendered.omitted.length} left ` +
    "out" + (rendered.omitted.length > 0 ? ` (${rendered.omitted.join(", ")})` : "");
  const odd = rules.sources.filter((s) =>
    s.status === "skipped" || (s.kind === "claude-md" && s.notes.some((n) => n.startsWith("line ")))
  );
  if (rendered.omitted.length > 0 || odd.length > 0) {
    return {
      name: "rules",
      status: "warn",
      detail: detail(fit),
      fix: odd.length > 0
        ? `fix ${odd.map((s) => s.display).join(", ")} as noted`
        : `raise LESSONS_REINJECT_MAX_CHARS (up to ${INLINE_LIMIT}), shorten the marked sections, ` +
          `or turn a source off (LESSONS_REINJECT_SOURCES)`,
    };
  }
  return { name: "rules", status: "ok", detail: detail(fit), fix: null };
}
