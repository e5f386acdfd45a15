/**
 * The sections a user marks in a CLAUDE.md file for restating, between a `<!-- reinject -->` line
 * and a `<!-- /reinject -->` line. Pure: text in, sections and problems out. Only marked text is
 * ever returned; a file with no complete section gives nothing.
 */

/** One marked section: its text verbatim (line endings as `\n`) and where it starts. */
export interface MarkedSection {
  text: string;
  /** 1-based line of the opening marker. */
  line: number;
}

export interface MarkedRules {
  sections: MarkedSection[];
  /** One phrase per odd thing found (unclosed, nested or stray markers), with its line. */
  problems: string[];
}

const OPEN = /^<!--\s*reinject\s*-->$/i;
const CLOSE = /^<!--\s*\/\s*reinject\s*-->$/i;
/** A Markdown code fence: up to 3 spaces, then 3 or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The marked sections of `text`, in file order. Rules, each tested:
 * - a marker is a line holding only `<!-- reinject -->` or `<!-- /reinject -->` (any case, any
 *   spaces inside and around); a marker elsewhere in a line is text;
 * - markers inside a fenced code block are text (documentation can show them);
 * - a section left open at the end of the file is dropped, never read to the end;
 * - an opening marker inside an open section is ignored (sections do not nest: the first closing
 *   marker ends the section), and a closing marker outside a section is ignored; both are reported;
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
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const sections: MarkedSection[] = [];
  const problems: string[] = [];
  let open: { line: number; body: string[] } | undefined;
  let fence: { char: string; length: number } | undefined;

  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const fenceMatch = FENCE.exec(raw);
    if (fence) {
      // Inside a fence only its closing fence matters: same character, at least as long.
      if (
        fenceMatch?.[1] && fenceMatch[1][0] === fence.char &&
        fenceMatch[1].length >= fence.length && raw.trim() === fenceMatch[1].trim()
      ) {
        fence = undefined;
      }
      open?.body.push(raw);
      return;
    }
    if (fenceMatch?.[1]) {
      fence = { char: fenceMatch[1][0]!, length: fenceMatch[1].length };
      open?.body.push(raw);
      return;
    }
    const bare = raw.trim();
    if (OPEN.test(bare)) {
      if (open) problems.push(`line ${lineNo}: opening marker inside an open section ignored`);
      else open = { line: lineNo, body: [] };
      return;
    }
    if (CLOSE.test(bare)) {
      if (!open) {
        problems.push(`line ${lineNo}: closing marker without an opening one ignored`);
        return;
      }
      const body = trimBlankLines(open.body);
      if (body.length > 0) sections.push({ text: body.join("\n"), line: open.line });
      open = undefined;
      return;
    }
    open?.body.push(raw);
  });
  if (open) {
    problems.push(
      `line ${open.line}: section never closed${
        fence ? " (a code fence inside it is still open)" : ""
      }; left out`,
    );
  }
  return { sections, problems };
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === "") start++;
  while (end > start && lines[end - 1]!.trim() === "") end--;
  return lines.slice(start, end);
}
