/**
 * Text laid out to a width (`wrap`), help text too: the commands write their help as plain text
 * (prose paragraphs, a `Usage:` line, rows of a term and its description), and this wraps each
 * kind at word boundaries, so no line is wider than the terminal and no word is cut.
 */

/**
 * `text` broken at spaces into lines of at most `width`; a longer word after a `/`, else cut, but
 * never a path (a word with a `/`) inside a name: a reader copies it, so it overflows instead.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    let rest = [...word];
    const path = word.includes("/");
    while (rest.length > width) {
      if (line !== "") lines.push(line), line = "";
      const slash = rest.lastIndexOf("/", width - 1);
      // A name longer than the line, in a path: whole, up to its own `/`.
      const after = path && slash <= 0 ? rest.indexOf("/", 1) : -1;
      const cut = slash > 0 ? slash + 1 : after > 0 ? after + 1 : path ? rest.length : width;
      lines.push(rest.slice(0, cut).join(""));
      rest = rest.slice(cut);
    }
    const piece = rest.join("");
    const candidate = line === "" ? piece : `${line} ${piece}`;
    if ([...candidate].length <= width) line = candidate;
    else lines.push(line), line = piece;
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}

/** The narrowest description column before a description moves under its term. */
const MIN_DESCRIPTION = 24;

/** A row: its indent, its term (`--project DIR`), the column its description starts at. */
type Row = { indent: string; term: string; column: number; text: string };
type Part = { prose: string } | { usage: string } | { row: Row } | { verbatim: string };

/** Parses one block (no blank lines) into its parts. */
function partsOf(block: string): Part[] {
  const parts: Part[] = [];
  for (const line of block.split("\n")) {
    const last = parts.at(-1);
    const indent = line.match(/^ */)![0].length;
    const row = line.match(/^( +)(\S.*?) {2,}(\S.*)$/);
    if (indent === 0 && /^Usage: \S/.test(line)) parts.push({ usage: line });
    else if (indent === 0) {
      if (last && "prose" in last) last.prose += ` ${line}`;
      else parts.push({ prose: line });
    } else if (last && "usage" in last) last.usage += ` ${line.trim()}`;
    else if (last && "row" in last && indent >= last.row.column) last.row.text += ` ${line.trim()}`;
    else if (row) {
      const column = line.length - row[3]!.length;
      parts.push({ row: { indent: row[1]!, term: row[2]!, column, text: row[3]! } });
    } else parts.push({ verbatim: line });
  }
  return parts;
}

/** Words of a usage line, a bracketed group (`[--project DIR]`, `[--a [--b B]]`) kept whole. */
const usageWords = (usage: string): string[] =>
  usage.match(/\[(?:[^[\]]|\[[^\]]*\])*\]|\S+/g) ?? [];

/** Lines of `words` joined by spaces, at most `width` wide, the later ones after `hang` spaces. */
function fill(words: string[], width: number, hang: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const candidate = line === "" ? word : `${line} ${word}`;
    const room = lines.length === 0 ? width : width - hang;
    if (line === "" || [...candidate].length <= room) line = candidate;
    else lines.push(line), line = word;
  }
  lines.push(line);
  return lines.map((l, i) => i === 0 ? l : `${" ".repeat(hang)}${l}`);
}

/** `source` laid out to `width` columns (see the module's comment). Pure. */
export function renderHelp(source: string, width: number): string {
  const blocks = source.replace(/\n+$/, "").split(/\n{2,}/);
  const rendered = blocks.map((block) =>
    partsOf(block).flatMap((part): string[] => {
      if ("prose" in part) return wrap(part.prose, width);
      if ("verbatim" in part) return [part.verbatim];
      if ("usage" in part) {
        const words = usageWords(part.usage);
        // Options line up after `Usage: lessons-reinject <command>`, when that leaves room.
        const head = words.findIndex((w) => w.startsWith("[") || w.startsWith("--"));
        const hang = words.slice(0, head < 0 ? 2 : head).join(" ").length + 1;
        return fill(words, width, hang <= width / 2 ? hang : 4);
      }
      const { indent, term, column, text } = part.row;
      if (width - column < MIN_DESCRIPTION) {
        const under = indent.length + 4;
        return [`${indent}${term}`, ...wrap(text, width - under).map((l) => " ".repeat(under) + l)];
      }
      return wrap(text, width - column).map((line, i) =>
        `${(i === 0 ? `${indent}${term}` : "").padEnd(column)}${line}`
      );
    }).join("\n")
  );
  return `${rendered.join("\n\n")}\n`;
}
