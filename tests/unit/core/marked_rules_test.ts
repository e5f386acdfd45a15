import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { markedSections } from "../../../src/core/marked_rules.ts";

const O = "<!-- reinject -->";
const C = "<!-- /reinject -->";

interface Case {
  name: string;
  text: string;
  sections: [line: number, text: string][];
  problems?: string[];
}

const CASES: Case[] = [
  {
    name: "one section between the markers, nothing around it",
    text: `# Project\nIntro text.\n${O}\nAlways run the tests.\nNever push to main.\n${C}\nMore.\n`,
    sections: [[3, "Always run the tests.\nNever push to main."]],
  },
  {
    name: "several sections in one file, in file order",
    text: `${O}\nFirst.\n${C}\nbetween\n${O}\nSecond.\n${C}\n`,
    sections: [[1, "First."], [5, "Second."]],
  },
  {
    name: "no markers: nothing, never the whole file",
    text: "# Rules\nAlways run the tests.\n",
    sections: [],
  },
  {
    name: "an unclosed marker: the section is dropped, never read to the end of the file",
    text: `Intro.\n${O}\nRule.\nThe rest of a long file.\n`,
    sections: [],
    problems: ["line 2: section never closed; left out"],
  },
  {
    name: "a complete section before an unclosed one is kept",
    text: `${O}\nKept.\n${C}\n${O}\nDropped.\n`,
    sections: [[1, "Kept."]],
    problems: ["line 4: section never closed; left out"],
  },
  {
    name: "nested: the inner opening is ignored, the first closing ends the section",
    text: `${O}\nOuter.\n${O}\nInner.\n${C}\nAfter inner.\n${C}\n`,
    sections: [[1, "Outer.\nInner."]],
    problems: [
      "line 3: opening marker inside an open section ignored",
      "line 7: closing marker without an opening one ignored",
    ],
  },
  {
    name: "a stray closing marker is ignored",
    text: `${C}\n${O}\nRule.\n${C}\n`,
    sections: [[2, "Rule."]],
    problems: ["line 1: closing marker without an opening one ignored"],
  },
  {
    name: "CRLF line endings: markers found, text given with \\n",
    text: `Intro\r\n${O}\r\nRule one.\r\nRule two.\r\n${C}\r\n`,
    sections: [[2, "Rule one.\nRule two."]],
  },
  {
    name: "old Mac CR line endings",
    text: `${O}\rRule.\r${C}\r`,
    sections: [[1, "Rule."]],
  },
  {
    name: "a byte-order mark before the first marker",
    text: `\uFEFF${O}\nRule.\n${C}\n`,
    sections: [[1, "Rule."]],
  },
  {
    name: "markers inside a backtick code fence are text",
    text: `How to mark:\n\`\`\`md\n${O}\nExample rule.\n${C}\n\`\`\`\n`,
    sections: [],
  },
  {
    name: "markers inside a tilde fence are text; a real section after the fence counts",
    text: `~~~\n${O}\nexample\n${C}\n~~~\n${O}\nReal rule.\n${C}\n`,
    sections: [[6, "Real rule."]],
  },
  {
    name: "a fence inside a section is content, with a closing marker shown inside it",
    text: `${O}\nRun:\n\`\`\`sh\ndeno task test\n${C}\n\`\`\`\n${C}\n`,
    sections: [[1, `Run:\n\`\`\`sh\ndeno task test\n${C}\n\`\`\``]],
  },
  {
    name: "a shorter fence does not close a longer one",
    text: `\`\`\`\`\n\`\`\`\n${O}\nx\n${C}\n\`\`\`\`\n${O}\nReal.\n${C}\n`,
    sections: [[7, "Real."]],
  },
  {
    name: "a fence left open inside a section: the section is dropped, and says why",
    text: `${O}\n\`\`\`\nunclosed code\n${C}\n`,
    sections: [],
    problems: ["line 1: section never closed (a code fence inside it is still open); left out"],
  },
  {
    name: "marker spelling: any case, spaces inside and around",
    text: `  <!--REINJECT-->  \nA.\n\t<!--  / Reinject  -->\n`,
    sections: [[1, "A."]],
  },
  {
    name: "a marker that shares its line with text is text",
    text: `See ${O} below.\n${O} inline\nNot a section.\n${C}\n`,
    sections: [],
    problems: ["line 4: closing marker without an opening one ignored"],
  },
  {
    name: "blank lines at either end are trimmed; inner blank lines and indentation are kept",
    text: `${O}\n\n\n  - indented\n\n- next  \n\n${C}\n`,
    sections: [[1, "  - indented\n\n- next  "]],
  },
  {
    name: "an empty section is dropped",
    text: `${O}\n   \n${C}\n`,
    sections: [],
  },
  {
    name: "an empty file",
    text: "",
    sections: [],
  },
];

Deno.test("markedSections() handles each marking case", async (t) => {
  for (const c of CASES) {
    await t.step(c.name, () => {
      const got = markedSections(c.text);
      assertEquals(got.sections.map((s) => [s.line, s.text]), c.sections);
      assertEquals(got.problems, c.problems ?? []);
    });
  }
});

Deno.test("markedSections() never returns text outside the markers", () => {
  const secret = "UNMARKED-TEXT";
  const text = [secret, O, "marked", C, secret, O, secret + " in an unclosed section"].join("\n");
  const got = markedSections(text);
  assertEquals(got.sections.map((s) => s.text), ["marked"]);
});
