/**
 * One refresh of every source of standing rules within one budget: the manifest's lessons in the
 * session-start layout (render.ts), then the user's own rules verbatim, under headings naming the
 * files they came from. Pure.
 */
import type { RefreshLesson } from "./lessons.ts";
import { budgetOf, firstLine, type RenderedRefresh, renderRefresh } from "./render.ts";

/** One unit of the user's own rules: a marked CLAUDE.md section or a whole rules file. */
export interface RuleBlock {
  /** Names it in accounts: `CLAUDE.md:3`, `.claude/reinject.md`. */
  id: string;
  /** The heading it is shown under; blocks with the same heading are shown together. */
  heading: string;
  text: string;
}

/** The refresh, with the rules' ids ahead of the lessons' slugs; `lessons` is their own account. */
export interface CombinedRefresh extends RenderedRefresh {
  lessons: RenderedRefresh;
}

type Form = "whole" | "summary" | "omitted";

/**
 * Lays out `rules` (most important first) and `lessons` under `header` within `maxChars`. When
 * the budget is tight:
 * 1. every rule block and every lesson gets at least its first line (a lesson its summary), rules
 *    first, then lessons by priority; what does not fit even so is left out and counted;
 * 2. the room left makes rule blocks whole, in rank order, while every lesson keeps its summary;
 * 3. then lessons get their whole messages by priority (render.ts).
 * The lessons come first in the text (the session-start layout the model saw), the rules after.
 *
 * @example
 * ```ts
 * renderCombined("[h]", [{ id: "CLAUDE.md:2", heading: "## Rules", text: "Be kind." }], [], 9500).text;
 * // "[h]\n\n## Rules\n\nBe kind.\n"
 * ```
 */
export function renderCombined(
  header: string,
  rules: readonly RuleBlock[],
  lessons: readonly RefreshLesson[],
  maxChars: number,
): CombinedRefresh {
  const limit = budgetOf(maxChars);
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
    for (let i = 0; i < forms.length; i++) {
      forms[i] = "whole";
      if (!complete(compose())) forms[i] = "summary";
    }
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
  const { text, lessons: part } = compose();
  const ids = (form: Form) => rules.filter((_, i) => forms[i] === form).map((r) => r.id);
  return {
    text: text.slice(0, limit),
    whole: [...ids("whole"), ...part.whole],
    summarized: [...ids("summary"), ...part.summarized],
    omitted: [...ids("omitted"), ...part.omitted],
    lessons: part,
  };
}

function layoutRules(rules: readonly RuleBlock[], forms: readonly Form[], limit: number): string {
  const groups = new Map<string, string[]>();
  rules.forEach((rule, i) => {
    if (forms[i] === "omitted") return;
    const part = forms[i] === "whole" ? rule.text : `- ${firstLine(rule.text)} (first line only)`;
    const group = groups.get(rule.heading);
    if (group) group.push(part);
    else groups.set(rule.heading, [part]);
  });
  const blocks = [...groups].map(([heading, parts]) => [heading, ...parts].join("\n\n"));
  const omitted = forms.filter((f) => f === "omitted").length;
  if (omitted > 0) {
    blocks.push(
      `(${omitted} more ${omitted === 1 ? "section" : "sections"} of your own rules left out ` +
        `to stay within ${limit} characters.)`,
    );
  }
  return blocks.join("\n\n");
}
