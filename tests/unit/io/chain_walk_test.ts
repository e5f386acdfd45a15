import { deepStrictEqual as assertEquals, equal } from "node:assert/strict";
import { viewOf } from "../../../src/io/transcript.ts";
import { memory } from "./_io.ts";
import { entries } from "../../_helpers.ts";

type Entry = Record<string, unknown>;

/** Links `lines` into one chain of entries after `parent` (each entry's parent: the one before). */
function chained(parent: Entry | undefined, lines: Entry[]): Entry[] {
  let previous = parent;
  return lines.map((line) => {
    const linked = { ...line, parentUuid: previous?.uuid ?? null };
    previous = linked;
    return linked;
  });
}

const prompt = (): Entry => ({
  ...entries.toolResult("none"),
  message: { role: "user", content: "go on" },
});

function viewAt(lines: Entry[], toolUseId: string, tips: string[]) {
  const { source, size } = memory(lines);
  const view = viewOf(source, size, { sidechainFile: false, toolUseId, chainTips: tips });
  return { chain: view.chain, read: source.asked, size };
}

Deno.test("the walk from a call's entry meets its own chain's tip, not the other process's", () => {
  const [a1, r1] = chained(undefined, [
    entries.assistant(60_000, ["a1"]),
    entries.toolResult("a1"),
  ]);
  // A second process resumes after r1 (its first entry a prompt); the first goes on from r1 too.
  const [pb, b1, rb] = chained(r1, [
    prompt(),
    entries.assistant(61_000, ["b1"]),
    entries.toolResult("b1"),
  ]);
  const [pa, a2] = chained(r1, [prompt(), entries.assistant(62_000, ["a2"])]);
  const [b2] = chained(rb, [entries.assistant(63_000, ["b2"])]);
  const file = [a1!, r1!, pb!, b1!, rb!, pa!, a2!, b2!];
  const tips = [String(a1!.uuid), String(b1!.uuid)];
  // b2 is the last line: its chain goes back through b1.
  assertEquals(viewAt(file, "b2", tips).chain, {
    entry: b2!.uuid,
    message: (b2!.message as Entry).id,
    met: b1!.uuid,
    turned: false,
  });
  // a2's chain skips b's entries and meets a1, past a user's turn.
  assertEquals(viewAt(file.slice(0, 7), "a2", tips).chain?.met, a1!.uuid);
  equal(viewAt(file.slice(0, 7), "a2", tips).chain?.turned, true);
});

Deno.test("a response split over entries: its tip is met by any of them", () => {
  const [x, y] = chained(undefined, [
    entries.assistant(60_000, ["x"], { messageId: "msg_same" }),
    entries.assistant(60_000, ["y"], { messageId: "msg_same" }),
  ]);
  assertEquals(viewAt([x!, y!], "y", ["msg_same"]).chain?.met, "msg_same");
});

Deno.test("no tip in reach: a chain of its own only where the walk reached the chain's start", () => {
  const cases: [string, Entry | undefined, boolean][] = [
    ["the session's first entry: a chain beside the others", undefined, true],
    ["a compaction marker: unknown", entries.compactBoundary(), false],
    ["a parent the file does not hold: unknown", { uuid: "elsewhere" }, false],
  ];
  for (const [name, before, started] of cases) {
    const lines = chained(before, [
      entries.assistant(60_000, ["a1"]),
      entries.toolResult("a1", "x".repeat(200_000)),
      entries.assistant(61_000, ["a2"]),
    ]);
    const file = before && before.uuid !== "elsewhere" ? [before, ...lines] : lines;
    const own = { entry: lines[2]!.uuid, message: (lines[2]!.message as Entry).id };
    assertEquals(
      viewAt(file, "a2", ["unknown"]).chain,
      { ...own, ...(started && { started }) },
      name,
    );
  }
});

Deno.test("with no tips, nothing before the call's entry is read for the chain", () => {
  const lines = chained(undefined, [
    entries.assistant(60_000, ["a1"]),
    entries.toolResult("a1", "x".repeat(300_000)),
    entries.assistant(61_000, ["a2"]),
  ]);
  const { chain, read } = viewAt(lines, "a2", []);
  equal(chain?.met, undefined);
  equal(read < 200_000, true, `${read} bytes read`);
});
