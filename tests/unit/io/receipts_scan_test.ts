/**
 * Reading delivery receipts (src/io/transcript.ts, with the usage) from transcripts real Claude Code
 * 2.1.328 wrote (tests/fixtures/transcripts/recorded-2.1.328-*.jsonl), cut where each hook ran,
 * and judged by src/core/receipts.ts: a killed hook, a dropped and a recorded SessionStart answer,
 * an Agent call's refresh. Also: the check costs no bytes beyond the usage scan's own.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { answerAwaitingReceipt, judge, type ReceiptEvidence } from "../../../src/core/receipts.ts";
import { viewOf } from "../../../src/io/transcript.ts";
import { entries, RECORDINGS as FIXTURES } from "../../_helpers.ts";
import { memory, viewOfFile } from "./_io.ts";

interface Line {
  start: number;
  end: number;
  entry: Record<string, unknown>;
}

/** A recorded transcript's lines with their byte offsets. */
function recording(name: string): { bytes: Uint8Array; lines: Line[] } {
  const bytes = Deno.readFileSync(join(FIXTURES, `recorded-2.1.328-${name}.jsonl`));
  const lines: Line[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 10) continue;
    const text = new TextDecoder().decode(bytes.subarray(start, i));
    lines.push({ start, end: i + 1, entry: JSON.parse(text) });
    start = i + 1;
  }
  return { bytes, lines };
}

/** Where the first line matching `test` starts (and ends). */
function find(lines: Line[], test: (entry: Record<string, unknown>) => boolean): Line {
  const found = lines.find((l) => test(l.entry));
  if (!found) throw new Error("the recording lacks the line looked for");
  return found;
}

const holds = (id: string) => (e: Record<string, unknown>) =>
  e.type === "assistant" && JSON.stringify(e.message).includes(`"id":"${id}"`);
const resultOf = (id: string) => (e: Record<string, unknown>) =>
  e.type === "user" && JSON.stringify(e.message).includes(`"tool_use_id":"${id}"`);

/** This session's refresh token, read from a recorded refresh header. */
function tokenIn(lines: Line[]): string {
  for (const { entry } of lines) {
    const match = /\[lessons-reinject refresh [^\]]* ref=([0-9a-f]{8})\]/.exec(
      JSON.stringify(entry),
    );
    if (match) return match[1]!;
  }
  throw new Error("no refresh header in the recording");
}

/** The file as it stood when it was `size` bytes long, read as the hook reads it. */
function evidenceAt(
  bytes: Uint8Array,
  size: number,
  query: { from: number; calls: string[]; token: string },
): ReceiptEvidence {
  const { source } = memory(bytes.subarray(0, size));
  return viewOf(source, size, { sidechainFile: false, receipts: query }).receipts!;
}

Deno.test("a hook Claude Code killed at its timeout: missed once the next response is written", () => {
  const { bytes, lines } = recording("hook-cancelled");
  const token = tokenIn(lines);
  // The hook of toolu_k02 started when the file ended just past its assistant entry.
  const claim = find(lines, holds("toolu_k02")).end;
  const delivery = answerAwaitingReceipt("30", "toolu_k02", claim);
  const query = { from: claim, calls: ["toolu_k02"], token };
  // Its result and the hook_cancelled record are written; the next response is not yet.
  const cancelled = find(lines, (e) => JSON.stringify(e).includes('"hook_cancelled"'));
  const early = evidenceAt(bytes, cancelled.end, query);
  assertEquals(early.cancelled, ["toolu_k02"]);
  assertEquals(judge(delivery, early), { kind: "pending" });
  // The next call's hook starts just past its own assistant entry.
  const next = find(lines, holds("toolu_k03")).end;
  const evidence = evidenceAt(bytes, next, query);
  assertEquals(evidence.results, { toolu_k02: find(lines, resultOf("toolu_k02")).start });
  assertEquals(evidence.answers, {});
  assertEquals(judge(delivery, evidence), {
    kind: "missed",
    why:
      "not recorded for toolu_k02 (Claude Code cancelled the hook), and the session moved past it",
  });
  // The re-send on toolu_k03 is recorded before toolu_k04's entry.
  const resent = { ...answerAwaitingReceipt("30", "toolu_k03", next), sent: 2 };
  const later = evidenceAt(bytes, find(lines, holds("toolu_k04")).end, {
    from: next,
    calls: ["toolu_k03"],
    token,
  });
  assertEquals(judge(resent, later), { kind: "delivered" });
});

Deno.test("SessionStart(compact)'s answer: recorded under toolUseID SessionStart, or dropped", async (t) => {
  for (const [name, want] of [["answered", "delivered"], ["dropped", "missed"]] as const) {
    await t.step(name, () => {
      const { bytes, lines } = recording(`sessionstart-${name}`);
      const token = tokenIn(lines);
      // SessionStart runs before the boundary is written (measured): the claim is there.
      const boundary = find(lines, (e) => e.subtype === "compact_boundary").start;
      const delivery = answerAwaitingReceipt("compact", "SessionStart", boundary);
      const query = { from: boundary, calls: ["SessionStart"], token };
      // Before the new context's first response, the answer may still come.
      const second = find(lines, (e) =>
        e.type === "user" && e.message !== undefined &&
        JSON.stringify(e.message).includes("After compaction."));
      assertEquals(
        judge(delivery, evidenceAt(bytes, second.end, query)).kind,
        name === "answered" ? "delivered" : "pending",
      );
      // The first tool call of the new context starts past its own assistant entry.
      const first = find(lines, holds("toolu_s02")).end;
      assertEquals(judge(delivery, evidenceAt(bytes, first, query)).kind, want);
    });
  }
});

Deno.test("a refresh answered on an Agent call is recorded in the main transcript; not another session's", () => {
  const { bytes, lines } = recording("agent-call");
  const claim = find(lines, holds("toolu_g02")).end;
  const at = find(lines, holds("toolu_g03")).end;
  const evidence = (token: string) =>
    evidenceAt(bytes, at, { from: claim, calls: ["toolu_g02"], token });
  const ours = evidence(tokenIn(lines));
  assertEquals(Object.keys(ours.answers), ["toolu_g02"]);
  assertEquals(judge(answerAwaitingReceipt("30", "toolu_g02", claim), ours), { kind: "delivered" });
  // Another session's token is not this hook's answer.
  assertEquals(evidence("00000000").answers, {});
});

Deno.test("the receipt check reads no bytes beyond the usage scan's own", () => {
  const { lines } = recording("hook-cancelled");
  const path = join(FIXTURES, "recorded-2.1.328-hook-cancelled.jsonl");
  const claim = find(lines, holds("toolu_k02")).end;
  const token = tokenIn(lines);
  const plain = viewOfFile(path, { toolUseId: "toolu_k04" });
  const receipts = { from: claim, calls: ["toolu_k02"], token };
  const checked = viewOfFile(path, { toolUseId: "toolu_k04", receipts });
  ok(checked.view.receipts, "no receipt evidence");
  assertEquals(checked.bytes, plain.bytes);
  ok(plain.bytes <= 64 * 1024, `${plain.bytes} bytes`);
});

Deno.test("what a line counts for in the look-back: SessionStart's run, one response's entries, another chain's", async (t) => {
  const token = "0badc0de";
  const header = `[lessons-reinject refresh 30 ref=${token}] Context refresh`;
  const evidence = (lines: unknown[], calls: string[]) => {
    const { source, size } = memory(lines);
    return viewOf(source, size, { sidechainFile: false, receipts: { from: 0, calls, token } })
      .receipts!;
  };
  await t.step(
    "a SessionStart hook's run record, under an id of its own: outcomes are recorded",
    () => {
      const ran = (event: string) => {
        const line = entries.ran("SessionStart-7f3a", "");
        (line.attachment as Record<string, unknown>).hookEvent = event;
        return line;
      };
      assertEquals(evidence([ran("SessionStart")], ["SessionStart"]).records, true);
      assertEquals(evidence([ran("PostToolUse")], ["SessionStart"]).records, false);
    },
  );
  await t.step("the entries of one response count once", () => {
    const [a, b] = ["msg_a", "msg_b"].map((messageId) =>
      entries.assistant(1000, [], { messageId })
    );
    const lines = [a, b, { ...b!, uuid: crypto.randomUUID() }];
    const { responses } = evidence(lines, ["toolu_x"]);
    assertEquals(responses.length, 2);
    assertEquals(responses[1], 0);
  });
  await t.step("a subagent's entry in the main transcript is not this chain's receipt", () => {
    const answer = entries.refresh(header, "toolu_x");
    assertEquals(Object.keys(evidence([answer], ["toolu_x"]).answers), ["toolu_x"]);
    const sidechain = { ...answer, isSidechain: true };
    assertEquals(evidence([sidechain], ["toolu_x"]).answers, {});
  });
});
