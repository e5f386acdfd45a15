/** The line that stands for a text cut short: a rule's, or a lesson's without a summary. */

const SUMMARY_LIMIT = 120;

/** Its first non-heading line, at most 120 characters: `firstLine("# T\nDo x.")` is `Do x.`. */
export function firstLine(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const line = lines.find((l) => !l.startsWith("#")) ?? lines[0] ?? "";
  return line.length > SUMMARY_LIMIT ? `${line.slice(0, SUMMARY_LIMIT - 1)}…` : line;
}
