import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { shapeOf, skeletonLine, skeletonOf } from "./fill.ts";

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** One line in, what must be kept and what must be gone from its skeleton. */
const CASES: { name: string; line: unknown; kept: string[]; gone: string[] }[] = [
  {
    name: "ids, types, model, version and timestamp are kept; the prompt is not",
    line: {
      parentUuid: null,
      isSidechain: false,
      type: "user",
      message: { role: "user", content: "please read ~/secret.txt" },
      uuid: "b2b4a1c3-dac2-454a-9ed3-dd78ee4848d8",
      timestamp: "2026-11-30T08:50:50.195Z",
      sessionId: "9aa8e4c5-b43c-48e3-a748-e66b451a200a",
      version: "2.1.328",
      cwd: "/home/someone/project",
      gitBranch: "feature/secret",
    },
    kept: [
      '"type":"user"',
      '"role":"user"',
      '"uuid":"b2b4a1c3-dac2-454a-9ed3-dd78ee4848d8"',
      '"timestamp":"2026-11-30T08:50:50.195Z"',
      '"sessionId":"9aa8e4c5-b43c-48e3-a748-e66b451a200a"',
      '"version":"2.1.328"',
      '"isSidechain":false',
      '"parentUuid":null',
    ],
    gone: ["secret", "someone", "feature"],
  },
  {
    name: "an assistant entry keeps its usage, message id, tool_use id and tool name",
    line: {
      type: "assistant",
      message: {
        id: "msg_01Th4VFPuCGY1BmytvVyegGS",
        model: "claude-opus-4-7",
        content: [
          { type: "thinking", thinking: "hmm, the user wants…", signature: "ErCpAgprCA4YAipA+9v" },
          { type: "text", text: "Let me look." },
          {
            type: "tool_use",
            id: "toolu_01YPv6hLMnCV5rmsThWTZnTd",
            name: "Bash",
            input: { command: "cat /etc/passwd", description: "Read users", type: "a b" },
          },
        ],
        stop_reason: "tool_use",
        usage: {
          input_tokens: 6,
          cache_creation_input_tokens: 181,
          cache_read_input_tokens: 1.5e4,
        },
      },
      requestId: "req_011CcG9hELzTuG4b74TBtz9b",
    },
    kept: [
      '"id":"msg_01Th4VFPuCGY1BmytvVyegGS"',
      '"model":"claude-opus-4-7"',
      '"id":"toolu_01YPv6hLMnCV5rmsThWTZnTd"',
      '"name":"Bash"',
      '"stop_reason":"tool_use"',
      '"input_tokens":6',
      '"cache_read_input_tokens":15000',
      '"requestId":"req_011CcG9hELzTuG4b74TBtz9b"',
    ],
    // A `type` with a space in it is not a token: free text, filled.
    gone: ["passwd", "user wants", "Let me", "Read users", "ErCp", '"a b"'],
  },
  {
    name: "compaction markers and their metadata are kept",
    line: {
      type: "system",
      subtype: "compact_boundary",
      content: "Conversation compacted",
      compactMetadata: {
        trigger: "auto",
        preTokens: 167766,
        preservedMessages: { uuids: ["16a7a876-7f15-4c8b-a190-e12a1a54d83b"] },
      },
      logicalParentUuid: "29a5b5bf-f3cd-4847-880d-2b46b9449e27",
    },
    kept: [
      '"subtype":"compact_boundary"',
      '"trigger":"auto"',
      '"preTokens":167766',
      '"uuids":["16a7a876-7f15-4c8b-a190-e12a1a54d83b"]',
      '"logicalParentUuid":"29a5b5bf-f3cd-4847-880d-2b46b9449e27"',
    ],
    gone: ["Conversation"],
  },
  {
    name: "an API error's synthetic model is kept, its message is not",
    line: {
      type: "assistant",
      isApiErrorMessage: true,
      message: { model: "<synthetic>", content: [{ type: "text", text: "API Error: 401" }] },
    },
    kept: ['"model":"<synthetic>"', '"isApiErrorMessage":true'],
    gone: ["API Error"],
  },
  {
    name: "keys that are data are filled, each differently; field names are kept",
    line: {
      type: "file-history-snapshot",
      snapshot: {
        trackedFileBackups: {
          "/home/someone/a.txt": { backupFileName: "6e8f8d726c2af233@v2" },
          "/home/someone/b.txt": { backupFileName: "6e8f8d726c2af234@v2" },
          "Makefile": { backupFileName: null },
        },
      },
      answers: { "Should I delete it?": "Yes" },
    },
    kept: ['"trackedFileBackups":{', '"backupFileName":'],
    gone: ["someone", "Makefile", "delete", "6e8f8d726c2af233"],
  },
  {
    name: "this hook's refresh header is kept where the hook reads it; the rules after it are not",
    line: {
      type: "attachment",
      attachment: {
        type: "hook_additional_context",
        content: ["[lessons-reinject refresh 30,52 ref=0a1b2c3d] Context refresh at 53%: my rule"],
        toolUseID: "toolu_stub4",
      },
    },
    kept: ['"[lessons-reinject refresh 30,52 ref=0a1b2c3d]x', '"toolUseID":"toolu_stub4"'],
    gone: ["Context refresh", "my rule"],
  },
  {
    name: "a Token usage warning inside free text is kept where it stands",
    line: {
      type: "user",
      message: { content: "before <system_warning>Token usage: 120000/200000; after" },
    },
    kept: ["x<system_warning>Token usage: 120000/200000x"],
    gone: ["before", "after"],
  },
];

for (const c of CASES) {
  Deno.test(`skeletonLine(): ${c.name}`, () => {
    const line = JSON.stringify(c.line);
    const skeleton = skeletonLine(line);
    assertEquals(bytes(skeleton), bytes(line));
    assertEquals(shapeOf(JSON.parse(skeleton)), shapeOf(JSON.parse(line)));
    for (const text of c.kept) ok(skeleton.includes(text), `${text} lost: ${skeleton}`);
    for (const text of c.gone) ok(!skeleton.includes(text), `${text} left: ${skeleton}`);
  });
}

Deno.test("skeletonLine() keeps the line's byte length through escapes and multi-byte UTF-8", () => {
  // Written by hand, not by JSON.stringify: the escapes must survive as the writer wrote them.
  const lines = [
    String.raw`{"type":"user","message":{"content":"h\u00e9llo \"q\" \\ \n\t\ud83d\ude00"}}`,
    `{"type":"user","message":{"content":"héllo ✓ 😀 中文"}}`,
    `{ "type" : "user" , "n" : 1.50 , "big" : 12345678901234567890, "e" : 1E+5 }`,
    `{"type":"user","keys":{"é/x":1,"\\u00e9/y":2}}`,
  ];
  for (const line of lines) {
    const skeleton = skeletonLine(line);
    assertEquals(bytes(skeleton), bytes(line), skeleton);
    assertEquals(shapeOf(JSON.parse(skeleton)), shapeOf(JSON.parse(line)));
    ok(!/[^\x20-\x7e]/.test(skeleton), `non-ASCII left: ${skeleton}`);
  }
  // Numbers and spacing are copied as written.
  ok(skeletonLine(lines[2]!) === lines[2]!);
});

Deno.test("skeletonOf() keeps every line and newline, and refuses what it cannot read safely", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const text = `{"type":"user","message":{"content":"one"}}\n\n{"type":"user"}\r\n`;
  const skeleton = new TextDecoder().decode(skeletonOf(encode(text)));
  assertEquals(skeleton, `{"type":"user","message":{"content":"xxx"}}\n\n{"type":"user"}\r\n`);
  // A line that is not JSON: its structure cannot be told from its text.
  throws(() => skeletonOf(encode(`{"type":"user"}\n{"type":"user","message":"cut sh`)), /line 2/);
  // Bytes that are not UTF-8 would come back as replacement characters of another length.
  throws(() => skeletonOf(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d])));
});

Deno.test("a skeleton is its own skeleton", () => {
  const line = JSON.stringify(CASES[1]!.line);
  const once = skeletonLine(line);
  assertEquals(skeletonLine(once), once);
});
