/**
 * The sections a user marks in a CLAUDE.md file for restating, between a `<!-- reinject -->` line
 * and a `<!-- /reinject -->` line. Pure. Only marked text is ever returned.
 */

interface MarkedRules {
  /** Each section verbatim (line endings as `\n`), with the 1-based line of its opening marker. */
  sections: { text: string; line: number }[];
  /** One phrase per odd thing found (unclosed, nested or stray markers), with its line. */
  problems: string[];
}

const OPEN = /^<!--\s*reinject\s*-->$/i;
const CLOSE = /^<!--\s*\/\s*reinject\s*-->$/i;
/** A Markdown code fence: up to 3 spaces, then 3 or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The marked sections of `text`, in file order (docs/own-rules.md has the table of cases):
 * - a marker is a line holding only the marker, in any case, with any spaces inside and around;
 * - markers inside a fenced code block are text (documentation can show them);
 * - a section left open at the end of the file is dropped, never read to the end;
 * - sections do not nest: an opening marker inside a section and a closing marker outside one
 *   are ignored, and reported;
 * - a byte-order mark and CRLF or CR line endings are accepted; blank lines at either end of a
 *   section are trimmed, and a section with nothing else is dropped.
 *
 * @example
 * ```ts
 * markedSections("# Notes\n<!-- reinject -->\nAlways run the tests.\n<!-- /reinject -->\n");
 * // { sections: [{ text: "Always run the tests.", line: 2 }], problems: [] }
 * ```
 */
export function markedSections(text: string): MarkedRules {
  const found: MarkedRules = { sections: [], problems: [] };
  let open: { line: number; body: string[] } | undefined;
  let fence: string | undefined;
  text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = index + 1;
    const bare = raw.trim();
    const mark = FENCE.exec(raw)?.[1];
    if (fence !== undefined || mark !== undefined) {
      // Inside a fence only its closing fence matters: the same character, at least as long.
      if (fence === undefined) fence = mark;
      else if (
        mark !== undefined && mark[0] === fence[0] && mark.length >= fence.length && bare === mark
      ) {
        fence = undefined;
      }
      open?.body.push(raw);
    } else if (OPEN.test(bare)) {
      if (open) found.problems.push(`line ${line}: opening marker inside an open section ignored`);
      else open = { line, body: [] };
    } else if (!CLOSE.test(bare)) {
      open?.body.push(raw);
    } else if (!open) {
      found.problems.push(`line ${line}: closing marker without an opening one ignored`);
    } else {
      const body = open.body.join("\n").replace(/^(?:[^\S\n]*\n)+|(?:\n[^\S\n]*)+$/g, "");
      if (body.trim() !== "") found.sections.push({ text: body, line: open.line });
      open = undefined;
    }
  });
  if (open) {
    const fenced = fence !== undefined ? " (a code fence inside it is still open)" : "";
    found.problems.push(`line ${open.line}: section never closed${fenced}; left out`);
  }
  return found;
}
