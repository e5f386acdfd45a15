/** The sections of a CLAUDE.md between `<!-- reinject -->` and `<!-- /reinject -->` lines. */

const OPEN = /^<!--\s*reinject\s*-->$/i;
const CLOSE = /^<!--\s*\/\s*reinject\s*-->$/i;
/** A Markdown code fence: up to 3 spaces, then 3 or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A marker the reader could not use, and its line; `leftOut`: a section was dropped for it. */
export type MarkerProblem = { line: number; problem: string; leftOut: boolean };

/** `section never closed; left out`, `closing marker without an opening one ignored`. */
export const markerText = ({ problem, leftOut }: MarkerProblem) =>
  `${problem}${leftOut ? "; left out" : " ignored"}`;

/**
 * The marked sections of `text` (docs/own-rules.md has the cases): a marker is a line of its own,
 * in any case and spacing, and is text inside a code fence; a section left open is dropped, never
 * read to the end; sections do not nest; blank lines at either end are trimmed. Each section comes
 * verbatim (`\n` line endings) with its opening marker's line; `problems` has each unclosed,
 * nested or stray marker.
 */
export function markedSections(text: string) {
  const sections: { text: string; line: number }[] = [];
  const problems: MarkerProblem[] = [];
  const odd = (line: number, problem: string, leftOut = false) =>
    problems.push({ line, problem, leftOut });
  let open: { line: number; body: string[] } | undefined;
  let fence: string | undefined;
  text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = index + 1;
    const bare = raw.trim();
    const mark = FENCE.exec(raw)?.[1];
    if (fence !== undefined || mark !== undefined) {
      // Inside a fence only its closing fence matters: the same character, at least as long.
      const closes = bare === mark && mark[0] === fence?.[0] && mark.length >= (fence?.length ?? 0);
      fence = fence === undefined ? mark : closes ? undefined : fence;
      open?.body.push(raw);
    } else if (OPEN.test(bare)) {
      if (open) odd(line, "opening marker inside an open section");
      else open = { line, body: [] };
    } else if (!CLOSE.test(bare)) {
      open?.body.push(raw);
    } else if (!open) {
      odd(line, "closing marker without an opening one");
    } else {
      const body = open.body.join("\n").replace(/^(?:[^\S\n]*\n)+|(?:\n[^\S\n]*)+$/g, "");
      if (body.trim() !== "") sections.push({ text: body, line: open.line });
      open = undefined;
    }
  });
  if (open) {
    const fenced = fence !== undefined ? " (a code fence inside it is still open)" : "";
    odd(open.line, `section never closed${fenced}`, true);
  }
  return { sections, problems };
}
