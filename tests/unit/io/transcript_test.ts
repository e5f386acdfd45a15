import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ByteSource } from "../../../src/io/reverse_lines.ts";
import { historyOf, historyUpTo, viewOf, withTranscript } from "../../../src/io/transcript.ts";
import { resolveWindow } from "../../../src/core/window.ts";
import { join } from "node:path";
import {
  entries,
  RECORDED,
  RECORDINGS,
  sandbox,
  SKELETON_FIGURES,
  skeletonTranscript,
} from "../../_helpers.ts";
import { jsonl, memory, viewOfFile } from "./_io.ts";

/** The piece a marker's text is searched in, a megabyte at a time. */
const MARKER_SEARCH_CHUNK = 1024 * 1024;

/** The usage scan alone: what the hook reads for a call before anything has fired. */
const scanUsage = (
  { source, size }: { source: ByteSource; size: number },
  query: { toolUseId?: string; sidechainFile?: boolean; maxBytes?: number } = {},
) => viewOf(source, size, { sidechainFile: false, ...query });

/** The search for a marker since `stopBelow`, as every call after a fire makes it. */
const markersSince = (source: ByteSource, size: number, stopBelow: number) =>
  viewOf(source, size, { sidechainFile: false, markersFrom: stopBelow });

/** The lines of a recorded transcript, blank ones left out. */
const recordedLines = (path: string) =>
  Deno.readTextFileSync(path).split("\n").filter((l) => l !== "");
const COMPACTED = RECORDED.replace("sonnet-climb", "compact");
/** This session's refresh header for `thresholds`. */
const TOKEN = "0badc0de";
const header = (thresholds: string) =>
  `[lessons-reinject refresh ${thresholds} ref=${TOKEN}] Context refresh`;

Deno.test("scanUsage() matches the README figures of every public transcript; a subagent file's only as one", async (t) => {
  for (const [file, tokens, window, model] of SKELETON_FIGURES) {
    await t.step(file, () => {
      const sidechainFile = file.includes("subagent-file");
      const scan = viewOfFile(skeletonTranscript(file), { sidechainFile }).view;
      // Every line of a subagent's file is a sidechain: read as a main transcript, none counts.
      if (sidechainFile) assertEquals(viewOfFile(skeletonTranscript(file)).view.usage, undefined);
      if (model === undefined) {
        // 1.0.x compaction (isCompactSummary, no boundary) after the last real usage: the
        // 156,089 figure describes a context that no longer exists.
        assertEquals(scan.usage, undefined);
        ok(scan.markerAfterUsage !== undefined);
        return;
      }
      assertEquals([scan.usage?.tokens, scan.usage?.model], [tokens, model]);
      // The version that wrote the entry decides (opus-4-7 was 200k by default in 2.1.112).
      const version = scan.usage?.version;
      assertEquals(resolveWindow({ model, version, tokens, firstParty: true }).window, window);
      // The tail is all it takes: far less than the file.
      ok(scan.bytesRead <= Math.max(256 * 1024, 900_000), `read ${scan.bytesRead} bytes`);
    });
  }
});

Deno.test("scanUsage() sees no reading between a 2.1.185 boundary and the first real usage after it", () => {
  // Lines 1..346: the first boundary is line 330, lines 332-334 carry all-zero usage (in-flight
  // entries, which do not count), and the first non-zero usage after the boundary is line 347.
  const lines = recordedLines(skeletonTranscript("v2.1.185-three-compact-boundaries.jsonl"));
  const scan = scanUsage(memory(lines.slice(0, 346)));
  assertEquals(scan.usage, undefined);
  ok(scan.markerAfterUsage !== undefined);
  assertEquals(scanUsage(memory(lines.slice(0, 347))).usage?.tokens, 45540);
});

Deno.test("scanUsage() finds this call's tool_use entry in a recorded real transcript", async (t) => {
  const lines = recordedLines(RECORDED);
  const cases: [string, number, boolean][] = [
    ["toolu_stub2", 40000, true],
    ["toolu_stub4", 70000, true],
    ["toolu_stub8", 110000, true], // first of two parallel Reads
    ["toolu_stub9", 110000, true],
    ["toolu_unknown", 120000, false], // newest usage, not matched
  ];
  for (const [id, tokens, matched] of cases) {
    await t.step(id, () => {
      // Cut the transcript right after this call's entry, as the hook would see it.
      const at = lines.findIndex((l) => l.includes(`"id":"${id}"`) && l.includes('"assistant"'));
      const scan = scanUsage(memory(at >= 0 ? lines.slice(0, at + 1) : lines), { toolUseId: id });
      assertEquals([scan.usage?.tokens, scan.usage?.matched], [tokens, matched]);
    });
  }
});

Deno.test("scanUsage() looks through every entry of a split response, then stops", () => {
  const split = [
    entries.assistant(30_000, ["older"], { messageId: "msg_old" }),
    entries.assistant(50_000, ["a"], { messageId: "msg_new" }),
    entries.toolResult("a"),
    entries.assistant(50_000, ["b"], { messageId: "msg_new" }),
  ];
  assertEquals(scanUsage(memory(split), { toolUseId: "a" }).usage?.matched, true);
  // An id from an older response is not looked for beyond the newest one.
  const older = scanUsage(memory(split), { toolUseId: "older" });
  assertEquals([older.usage?.tokens, older.usage?.matched], [50_000, false]);
});

Deno.test("scanUsage() knows where the newest response began, results between its entries included", async (t) => {
  // As real 2.1.112 wrote four parallel Reads (shared v2.1.112, lines 6-16): each tool_use entry
  // of one streamed response, then its result, before the next entry.
  const streamed = [
    entries.assistant(30_000, ["older"], { messageId: "msg_old" }),
    entries.toolResult("older"),
    entries.assistant(50_000, ["a"], { messageId: "msg_new" }),
    entries.toolResult("a", "x".repeat(5_000)),
    entries.assistant(50_000, ["b"], { messageId: "msg_new" }),
    entries.toolResult("b", "y".repeat(5_000)),
    entries.assistant(50_000, ["c"], { messageId: "msg_new" }),
    entries.toolResult("c"),
  ];
  const text = jsonl(streamed);
  const lineEnd = (i: number) =>
    new TextEncoder().encode(text.split("\n").slice(0, i + 1).join("\n") + "\n").length;
  await t.step("a call whose own entry is not written yet", () => {
    const scan = scanUsage(memory(text), { toolUseId: "next" });
    assertEquals(
      { tokens: scan.usage?.tokens, offset: scan.usage?.offset, firstEnd: scan.usage?.firstEnd },
      { tokens: 50_000, offset: lineEnd(5), firstEnd: lineEnd(2) },
    );
  });
  await t.step("the response is the file's first: its start is the file's", () => {
    const scan = scanUsage(memory(streamed.slice(2)), { toolUseId: "next" });
    ok(scan.usage?.firstEnd !== undefined && scan.usage.firstEnd <= scan.usage.offset);
  });
  await t.step("a byte budget that stops inside the response: start unknown", () => {
    // One 64 KiB chunk holds the last entry but not the results before it.
    const big = streamed.map((line, i) =>
      i === 5 ? entries.toolResult("b", "y".repeat(70_000)) : line
    );
    const scan = scanUsage(memory(big), { toolUseId: "next", maxBytes: 64 * 1024 });
    assertEquals([scan.usage?.tokens, scan.usage?.firstEnd], [50_000, undefined]);
  });
});

Deno.test("scanUsage() skips what must not count", async (t) => {
  // The entries usageOf() refuses (a sidechain, an API error, <synthetic>, all-zero usage) are
  // rows of its own table (tests/unit/core/transcript_entry_test.ts); the scan passes over them
  // as over these.
  const base = entries.assistant(40_000, ["x"]);
  const cases: [string, unknown][] = [
    ["progress entry with nested usage", {
      type: "progress",
      isSidechain: false,
      data: { message: base },
    }],
    ["a partial last line", JSON.stringify(base).slice(0, 200)],
    ["invalid JSON", "{not json"],
  ];
  for (const [name, line] of cases) {
    await t.step(name, () => {
      assertEquals(scanUsage(memory([entries.assistant(20_000), line])).usage?.tokens, 20_000);
    });
  }
});

Deno.test("scanUsage() honours a Token usage warning should one ever be written", () => {
  const warning = {
    type: "user",
    message: {
      content: "<system_warning>Token usage: 62000/200000; 138000 remaining</system_warning>",
    },
  };
  const scan = scanUsage(memory([entries.assistant(10_000), warning]));
  assertEquals([scan.usage?.tokens, scan.usage?.window], [62000, 200000]);
});

Deno.test("withTranscript() with viewOf() turns a missing, empty or non-file path into an error or no usage", () => {
  const { dir } = sandbox();
  const scanFile = (path: string) =>
    withTranscript(path, (source, size) => scanUsage({ source, size }));
  ok("error" in scanFile(`${dir}/missing.jsonl`));
  ok("error" in scanFile(dir));
  Deno.writeTextFileSync(`${dir}/empty.jsonl`, "");
  const empty = scanFile(`${dir}/empty.jsonl`);
  ok(!("error" in empty) && empty.usage === undefined);
});

Deno.test("historyOf() finds the newest compaction marker and this hook's refreshes after it", () => {
  const lines = [
    entries.assistant(60_000, ["a"]),
    entries.refresh(header("30"), "a"),
    entries.compactBoundary(),
    entries.assistant(70_000, ["b"]),
    entries.refresh(header("52,70"), "b"),
    entries.refresh("[lessons-reinject refresh 30 ref=ffffffff] another session's token", "b"),
    entries.refresh(`Quoted later: ${header("30")}`, "b"),
  ];
  const { source, size } = memory(lines);
  const scan = historyOf(source, size, TOKEN);
  assertEquals(scan.refreshed, [52, 70]);
  ok(scan.marker !== undefined && scan.marker > 0);
  assertEquals(scan.truncated, false);
});

Deno.test("the history walk reports a truncated scan past its byte budget; the search stops at its start", () => {
  const lines = [
    entries.compactBoundary(),
    ...Array.from({ length: 300 }, () => entries.assistant(1000)),
  ];
  const { source, size } = memory(lines);
  ok(size > 3 * 64 * 1024, "several chunks");
  const full = historyOf(source, size, "none");
  assertEquals([full.marker, full.truncated], [0, false]);
  const above = markersSince(source, size, 10);
  assertEquals([above.markerSince, above.markersChecked], [undefined, true]);
  // The budget is checked between 64 KiB reads: one read, then it stops short of the marker.
  const budget = historyOf(source, size, "none", 1000);
  assertEquals([budget.marker, budget.truncated], [undefined, true]);
});

Deno.test("the search for a marker reads its range once, and answers as the walk does", async (t) => {
  const filler = Array.from({ length: 300 }, () => entries.assistant(1000));
  // [name, lines, where the range starts (the second line, or one byte into the first), the most
  // reads it may take: the usage scan's chunk, the search's piece, the walk's chunks].
  const cases: [string, unknown[], "second line" | "one byte in", number][] = [
    // The usual call after a threshold fired: 300 entries written since, no marker among them.
    ["no marker in the range", [entries.compactBoundary(), ...filler], "second line", 2],
    ["a marker in the range", [...filler, entries.compactBoundary()], "second line", 7],
    // The marker's line starts one byte before the range: the search sees its text and hands
    // over to the walk, which passes that line over.
    ["a marker just before the range", [entries.compactBoundary(), ...filler], "one byte in", 8],
  ];
  for (const [name, lines, from, most] of cases) {
    await t.step(name, () => {
      const text = jsonl(lines);
      const { source, size } = memory(text);
      const stopBelow = from === "second line" ? text.indexOf("\n") + 1 : 1;
      const scan = markersSince(source, size, stopBelow);
      const reads = source.reads;
      // The walk line by line back to the marker: the answer to compare with.
      const walked = historyOf(source, size, "none");
      const expected = walked.marker !== undefined && walked.marker >= stopBelow
        ? walked.marker
        : undefined;
      // A marker newer than any usage is the usage scan's own find.
      assertEquals(scan.markerSince ?? scan.markerAfterUsage, expected);
      ok(reads <= most, `${reads} reads`);
    });
  }
});

Deno.test("the search finds a marker in a range longer than one search piece, even split between two", async (t) => {
  const boundary = JSON.stringify(entries.compactBoundary());
  const at = boundary.indexOf("compact_boundary");
  // Filler lines, then the boundary placed so that its marker text starts `shift` bytes before
  // the end of the first piece (the range starts after the first line).
  const head = JSON.stringify(entries.assistant(1000)) + "\n";
  const range = (shift: number) => {
    const before = MARKER_SEARCH_CHUNK - shift - at - 1;
    const pad = JSON.stringify({ type: "user", message: { content: "" } });
    const filler = pad.replace('""', JSON.stringify("x".repeat(before - pad.length)));
    return head + filler + "\n" + boundary + "\n" + JSON.stringify(entries.assistant(1000)) + "\n";
  };
  for (const shift of [0, 5, 15, 40]) {
    await t.step(`marker text ${shift} bytes before the piece's end`, () => {
      const text = range(shift);
      const { source, size } = memory(text);
      const start = head.length;
      assertEquals(text.indexOf("compact_boundary"), start + MARKER_SEARCH_CHUNK - shift);
      const scan = markersSince(source, size, start);
      assertEquals(scan.markerSince, text.indexOf(boundary));
    });
  }
});

Deno.test("the usage scan reads the boundary behind the summary entry, and the model it compacted", async (t) => {
  // Recorded from real 2.1.328: the auto boundary (preTokens 67,044) at line 85, two attachments,
  // its isCompactSummary entry at line 88; reading backwards the summary comes first.
  const auto = recordedLines(join(RECORDINGS, "recorded-2.1.328-auto-compact-window.jsonl"));
  const bySonnet = (trigger: string, preTokens: number) => ({
    trigger,
    preTokens,
    model: "claude-sonnet-4-6",
    version: "2.1.328",
  });
  await t.step("an auto-compaction's boundary, through the summary three lines after it", () => {
    const scan = scanUsage(memory(auto.slice(0, 101)), { toolUseId: "toolu_wa0" });
    ok(scan.markerAfterUsage !== undefined);
    assertEquals(scan.compaction, bySonnet("auto", 67_044));
  });
  // 2.x writes the compact_boundary and then the isCompactSummary entry: walking back, a scan
  // meets the summary first. Cut the recorded 2.1.328 session just after its summary.
  const lines = recordedLines(COMPACTED);
  const summary = lines.findIndex((l) => l.includes('"isCompactSummary":true'));
  ok(lines[summary - 1]!.includes('"subtype":"compact_boundary"'), "the boundary comes first");
  await t.step("scanUsage(): no reading since, and the compaction's evidence", () => {
    const scan = scanUsage(memory(lines.slice(0, summary + 1)));
    ok(scan.markerAfterUsage !== undefined);
    assertEquals(scan.compaction, bySonnet("manual", 107020));
  });
  await t.step("a summary with no boundary before it (1.0.x) proves nothing", () => {
    const scan = scanUsage(memory([entries.assistant(150_000, ["a"]), lines[summary]]));
    ok(scan.markerAfterUsage !== undefined);
    assertEquals(scan.compaction, undefined);
  });
  await t.step("a boundary read directly still names the model before it", () => {
    const scan = scanUsage(memory([
      entries.assistant(150_000, ["a"], { model: "claude-opus-5" }),
      entries.compactBoundary(),
    ]));
    assertEquals([scan.compaction?.model, scan.compaction?.preTokens], ["claude-opus-5", 150000]);
  });
  await t.step("the search since a point finds an older boundary's evidence too", () => {
    const { source, size } = memory([
      entries.assistant(150_000, ["a"], { model: "claude-opus-5" }),
      entries.compactBoundary(),
      entries.assistant(20_000, ["b"]),
    ]);
    const scan = markersSince(source, size, 0);
    ok(scan.markerSince !== undefined && scan.markerAfterUsage === undefined);
    assertEquals([scan.compaction?.model, scan.compaction?.preTokens], ["claude-opus-5", 150000]);
  });
});

Deno.test("historyUpTo() passes over what came after that entry, markers included", async (t) => {
  const forkPoint = entries.refresh(header("52"), "b");
  const lines = [
    entries.refresh(header("30"), "z"),
    entries.compactBoundary(),
    entries.assistant(60_000, ["a"]),
    entries.refresh(header("30"), "a"),
    entries.assistant(104_000, ["b"]),
    forkPoint,
    entries.assistant(142_000, ["c"]),
    entries.refresh(header("70"), "c"),
    entries.compactBoundary(),
  ];
  const { source, size } = memory(lines);
  await t.step("up to the entry, back to the compaction before it", () => {
    const scan = historyUpTo(source, size, TOKEN, String(forkPoint.uuid));
    assertEquals(scan?.refreshed, [30, 52]);
    ok(scan?.marker !== undefined);
  });
  await t.step("an entry that is not there: nothing", () => {
    assertEquals(historyUpTo(source, size, TOKEN, "no-such-uuid"), undefined);
  });
  await t.step("a uuid quoted in another line does not count as the entry", () => {
    const quoted = memory([
      entries.refresh(header("30"), "a"),
      entries.refresh(`${header("52")} mentions ${String(forkPoint.uuid)}`, "b"),
    ]);
    assertEquals(historyUpTo(quoted.source, quoted.size, TOKEN, String(forkPoint.uuid)), undefined);
  });
});

Deno.test("scanUsage() notes a user's prompt after the newest usage: a new turn, maybe another model", async (t) => {
  const prompt = recordedLines(COMPACTED).find((l) =>
    l.includes('"type":"user"') && !l.includes("tool_result") && !l.includes("isCompactSummary")
  );
  const usage = entries.assistant(40_000, ["a"]);
  const cases: [string, unknown[], boolean][] = [
    ["a prompt after the newest usage", [usage, prompt], true],
    ["only the tool's result after it", [usage, entries.toolResult("a")], false],
    ["a prompt before the newest usage", [prompt, usage], false],
    ["this call's own entry is there", [prompt, entries.assistant(40_000, ["now"])], false],
  ];
  for (const [name, lines, expected] of cases) {
    await t.step(name, () => {
      assertEquals(scanUsage(memory(lines), { toolUseId: "now" }).promptAfterUsage, expected);
    });
  }
});

Deno.test("scanUsage() reads a gateway's response: a gen- id, input_tokens only, no request id", () => {
  // OpenRouter's Anthropic endpoint: `message_start` with `id: gen-...` and usage
  // `{input_tokens, output_tokens}`; split over two entries as Claude Code splits every response.
  const gateway = (tokens: number, ids: string[], id: string) => {
    const line = entries.assistant(tokens, ids, {
      messageId: id,
      model: "anthropic/claude-sonnet-4.5",
    });
    const message = line.message as Record<string, unknown>;
    message.usage = { input_tokens: tokens, output_tokens: 120 };
    delete line.requestId;
    delete line.requestRef;
    return line;
  };
  const lines = [
    gateway(60_000, ["older"], "gen-1764000001-aaaa"),
    entries.toolResult("older"),
    gateway(64_000, [], "gen-1764000002-bbbb"),
    gateway(64_000, ["now"], "gen-1764000002-bbbb"),
  ];
  const scan = scanUsage(memory(lines), { toolUseId: "now" });
  assertEquals(
    [scan.usage?.tokens, scan.usage?.matched, scan.usage?.messageId, scan.usage?.outputTokens],
    [64_000, true, "gen-1764000002-bbbb", 120],
  );
  const resolved = resolveWindow({ model: scan.usage?.model, tokens: scan.usage?.tokens });
  assertEquals([resolved.window, resolved.certain], [200_000, false]);
});

Deno.test("viewOf() lists the tool_uses of the newest response whose result is not written yet", async (t) => {
  const [a, b] = ["a", "b"].map((id) => entries.assistant(40_000, [id], { messageId: "m" }));
  const [ra, rb] = [entries.toolResult("a"), entries.toolResult("b")];
  const cases: [string, unknown[], string[]][] = [
    ["its result is written", [a, ra], []],
    ["its result is not written yet: the transcript lags", [a], ["a"]],
    ["one of two parallel calls' results is missing", [a, ra, b], ["b"]],
    ["both results are in, between and after the response's entries", [a, ra, b, rb], []],
    ["a response without tool calls", [entries.assistant(40_000, [])], []],
  ];
  for (const [name, lines, expected] of cases) {
    await t.step(name, () => {
      assertEquals(scanUsage(memory(lines), { toolUseId: "now" }).usage?.unanswered, expected);
    });
  }
});
