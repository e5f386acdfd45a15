/** Text broken into lines of a width, at spaces. */

/** `text` broken at spaces into lines of at most `width`; a longer word after a `/`, else cut. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    let rest = [...word];
    while (rest.length > width) {
      if (line !== "") lines.push(line), line = "";
      const slash = rest.lastIndexOf("/", width - 1);
      const cut = slash > 0 ? slash + 1 : width;
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
