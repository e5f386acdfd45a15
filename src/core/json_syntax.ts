/** Where a JSON or JSONC text goes wrong, in words: its line and column, and what is wrong. */
import type { ParseError } from "jsonc-parser";

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}

const SYNTAX_MESSAGES: Readonly<Record<string, string>> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: "expected ':'",
  CommaExpected: "expected ','",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: "expected the end of the file",
  InvalidCommentToken: "invalid comment",
  UnexpectedEndOfComment: "unterminated comment",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid unicode escape",
  InvalidEscapeCharacter: "invalid escape character",
  InvalidCharacter: "invalid character",
};

/** A jsonc-parser error code in words: `CommaExpected` is "expected ','". */
export function syntaxMessage(code: string): string {
  return SYNTAX_MESSAGES[code] ?? code;
}

/** Why `text`, refused by `JSON.parse`, is not JSON, on one line (its message quotes the text). */
export async function whyNotJson(text: string): Promise<string> {
  // Decoding replaced invalid UTF-8 with U+FFFD; NUL never appears in JSON text.
  if (text.includes("\u0000") || text.includes("\ufffd")) return "it is binary data, not JSON text";
  if (text.trim() === "") return "it is empty";
  const jsonc = await import("jsonc-parser");
  const errors: ParseError[] = [];
  jsonc.parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (first === undefined) return "it is not valid JSON";
  const { line, column } = lineColumn(text, first.offset);
  const why = syntaxMessage(jsonc.printParseErrorCode(first.error));
  return `it is not valid JSON (line ${line}, column ${column}: ${why})`;
}
