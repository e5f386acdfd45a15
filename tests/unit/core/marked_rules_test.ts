import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { markedSections, markerText } from "../../../src/core/marked_rules.ts";

const O = "<!-- reinject -->";
const C = "<!-- /reinject -->";

/** Each case by name: the text, its sections (opening line, text), and its problems. */
const CASES: Record<string, [string, [line: number, text: string][], string[]?]> = {
  "one section between the markers, nothing around it": [
    `# Project\nIntro text.\n${O}\nAlways run the tests.\nNever push to main.\n${C}\nMore.\n`,
    [[3, "Always run the tests.\nNever push to main."]],
  ],
  "several sections in one file, in file order": [
    `${O}\nFirst.\n${C}\nbetween\n${O}\nSecond.\n${C}\n`,
    [[1, "First."], [5, "Second."]],
  ],
  "no markers: nothing, never the whole file": ["# Rules\nAlways run the tests.\n", []],
  "an unclosed marker: the section is dropped, never read to the end of the file": [
    `Intro.\n${O}\nRule.\nThe rest of a long file.\n`,
    [],
    ["line 2: section never closed; left out"],
  ],
  "a complete section before an unclosed one is kept": [
    `${O}\nKept.\n${C}\n${O}\nDropped.\n`,
    [[1, "Kept."]],
    ["line 4: section never closed; left out"],
  ],
  "nested: the inner opening is ignored, the first closing ends the section": [
    `${O}\nOuter.\n${O}\nInner.\n${C}\nAfter inner.\n${C}\n`,
    [[1, "Outer.\nInner."]],
    [
      "line 3: opening marker inside an open section ignored",
      "line 7: closing marker without an opening one ignored",
    ],
  ],
  "a stray closing marker is ignored": [
    `${C}\n${O}\nRule.\n${C}\n`,
    [[2, "Rule."]],
    ["line 1: closing marker without an opening one ignored"],
  ],
  "CRLF line endings: markers found, text given with \\n": [
    `Intro\r\n${O}\r\nRule one.\r\nRule two.\r\n${C}\r\n`,
    [[2, "Rule one.\nRule two."]],
  ],
  "old Mac CR line endings": [`${O}\rRule.\r${C}\r`, [[1, "Rule."]]],
  "a byte-order mark before the first marker": [`\uFEFF${O}\nRule.\n${C}\n`, [[1, "Rule."]]],
  "markers inside a backtick code fence are text": [
    `How to mark:\n\`\`\`md\n${O}\nExample rule.\n${C}\n\`\`\`\n`,
    [],
  ],
  "markers inside a tilde fence are text; a real section after the fence counts": [
    `~~~\n${O}\nexample\n${C}\n~~~\n${O}\nReal rule.\n${C}\n`,
    [[6, "Real rule."]],
  ],
  "a fence inside a section is content, with a closing marker shown inside it": [
    `${O}\nRun:\n\`\`\`sh\ndeno task test\n${C}\n\`\`\`\n${C}\n`,
    [[1, `Run:\n\`\`\`sh\ndeno task test\n${C}\n\`\`\``]],
  ],
  "a shorter fence does not close a longer one": [
    `\`\`\`\`\n\`\`\`\n${O}\nx\n${C}\n\`\`\`\`\n${O}\nReal.\n${C}\n`,
    [[7, "Real."]],
  ],
  "a fence left open inside a section: the section is dropped, and says why": [
    `${O}\n\`\`\`\nunclosed code\n${C}\n`,
    [],
    ["line 1: section never closed (a code fence inside it is still open); left out"],
  ],
  "marker spelling: any case, spaces inside and around": [
    `  <!--REINJECT-->  \nA.\n\t<!--  / Reinject  -->\n`,
    [[1, "A."]],
  ],
  "a marker that shares its line with text is text": [
    `See ${O} below.\n${O} inline\nNot a section.\n${C}\n`,
    [],
    ["line 4: closing marker without an opening one ignored"],
  ],
  "blank lines at either end are trimmed; inner blank lines and indentation are kept": [
    `${O}\n\n\n  - indented\n\n- next  \n\n${C}\n`,
    [[1, "  - indented\n\n- next  "]],
  ],
  "an empty section is dropped": [`${O}\n   \n${C}\n`, []],
  "an empty file": ["", []],
};

Deno.test("markedSections() handles each marking case", async (t) => {
  for (const [name, [text, sections, problems = []]] of Object.entries(CASES)) {
    await t.step(name, () => {
      const got = markedSections(text);
      assertEquals(got.sections.map((s) => [s.line, s.text]), sections);
      assertEquals(got.problems.map((p) => `line ${p.line}: ${markerText(p)}`), problems);
    });
  }
});
