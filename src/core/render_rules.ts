/**
 * One refresh holding every source of standing rules: the manifest's lessons in the session-start
 * layout (render.ts, used as it is) and the user's own rules verbatim, each group under a heading
 * naming the file it came from, within one character budget. Pure.
 */
import type { RefreshLesson } from "./lessons.ts";
import { INLINE_LIMIT } from "./claude_code.ts";
import { type RenderedRefresh, renderRefresh } from "./render.ts";

/** One unit of the user's own rules: a marked CLAUDE.md section or a whole rules file. */
export interface RuleBlock {
  /** Names it in accounts, e.g. `CLAUDE.md#1` or `.claude/reinject.md`. */
  id: string;
  /** The heading it is shown under; blocks with the same heading are shown together. */
  heading: string;
  /** The rule text, verbatim. */
  text: string;
}

type Form = "whole" | "summary" | "omitted";

export interface CombinedRefresh {
  text: string;
  /** Rule block ids and lesson slugs, by how they appear: rules first, in rank order. */
  whole: string[];
  summarized: string[];
  omitted: string[];
  /** The lessons' own accounting, from render.ts. */
  lessons: RenderedRefresh;
}

const SUMMARY_LIMIT = 120;

/**
 * Lays out `rules` (in rank order, most important first) and `lessons` under `header` in at most
 * `maxChars` characters (never above {@link INLINE_LIMIT}). The order when the budget is tight:
 * 1. every rule block and every lesson gets at least its first line (a lesson its summary), rules
 *    first, then lessons by priority; what does not fit even so is left out and counted;
 * 2. what room is left makes rule blocks whole, in rank order, as long as every lesson keeps at
 *    least its summary line;
 * 3. then lessons get their whole message by priority (render.ts).
 * Lessons come first in the text (the session-start layout the model saw), the user's rules after.
 *
 * @example
 * ```ts
 * const r = renderCombined("[header]", [{ id: "CLAUDE.md#1", heading: "## Rules", text: "Be kind." }], [], 9500);
 * // r.text === "[header]\n\n## Rules\n\nBe kind.\n"
 * ```
 */
export function renderCombined(
  header: string,
  rules: readonly RuleBlock[],
  lessons: readonly RefreshLesson[],
  maxChars: number,
): CombinedRefresh {
  const limit = Math.min(Math.max(0, Math.floor(maxChars)), INLINE_LIMIT);
  const forms: Form[] = rules.map(() => "summary");
  const compose = () => {
    const own = layoutRules(rules, forms, limit);
    // The lessons get what the rules leave; their renderer keeps within it.
    const part = renderRefresh(header, lessons, own === "" ? limit : limit - own.length - 1);
    return { text: own === "" ? part.text : `${part.text}\n${own}\n`, lessons: part };
  };
  const intact = (c: ReturnType<typeof compose>) =>
    c.text.length <= limit && c.text.startsWith(header);
  const complete = (c: ReturnType<typeof compose>) => intact(c) && c.lessons.omitted.length === 0;

  if (complete(compose())) {
    forms.forEach((_, i) => {
      forms[i] = "whole";
      if (!complete(compose())) forms[i] = "summary";
    });
  } else {
    forms.fill("omitted");
    for (let i = 0; i < forms.length; i++) {
      forms[i] = "summary";
      if (!intact(compose())) {
        forms[i] = "omitted";
        break;
      }
    }
  }
  const final = compose();
  const idsOf = (form: Form) => rules.filter((_, i) => forms[i] === form).map((r) => r.id);
  return {
    text: final.text.length <= limit ? final.text : final.text.slice(0, limit),
    whole: [...idsOf("whole"), ...final.lessons.whole],
    summarized: [...idsOf("summary"), ...final.lessons.summarized],
    omitted: [...idsOf("omitted"), ...final.lessons.omitted],
    lessons: final.lessons,
  };
}

/**
 * A rule block's first line: the first non-blank line that is not a Markdown heading (else the
 * first heading), cut to 120 characters.
 */
export function firstLineOf(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const line = lines.find((l) => !l.startsWith("#")) ?? lines[0] ?? "";
  return line.length > SUMMARY_LIMIT ? `${line.slice(0, SUMMARY_LIMIT - 1)}…` : line;
}

function layoutRules(rules: readonly RuleBlock[], forms: readonly Form[], limit: number): string {
  const groups: { heading: string; parts: string[] }[] = [];
  let omitted = 0;
  rules.forEach((rule, i) => {
    const form = forms[i];
    if (form === "omitted") {
      omitted++;
      return;
    }
    const part = form === "whole" ? rule.text : `- ${firstLineOf(rule.text)} (first line only)`;
    const group = groups.find((g) => g.heading === rule.heading);
    if (group) group.parts.push(part);
    else groups.push({ heading: rule.heading, parts: [part] });
  });
  const blocks = groups.map((g) => [g.heading, ...g.parts].join("\n\n"));
  if (omitted > 0) {
    blocks.push(
      `(${omitted} more ${omitted === 1 ? "section" : "sections"} of your own rules left out ` +
        `to stay within ${limit} characters.)`,
    );
  }
  return blocks.join("\n\n");
}
