/**
 * The cost of a call is bounded by where the usage sits, not by the transcript's size: with an
 * instrumented reader, a 1 GiB transcript (sparse: its head is a hole) costs the same bytes as a
 * 1 MiB one with the same tail, and far less than 1 MiB when the usage is near the end.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import {
  countingSource,
  scanUsage,
  type UsageQuery,
  withTranscript,
} from "../../../src/io/transcript.ts";
import { entries, payload, RECORDED, runHook, SAMPLE_MANIFEST } from "../../_helpers.ts";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const TOOL_USE_ID = "toolu_01BytesTestThisCallXXXX";
const TOKENS = 90_000;

/** The tail every file ends with: the recorded real transcript, then this call's entry. */
function tail(): Uint8Array {
  const recorded = Deno.readTextFileSync(RECORDED);
  const last = JSON.stringify(entries.assistant(TOKENS, [TOOL_USE_ID]));
  return new TextEncoder().encode(`${recorded}${last}\n`);
}

/** A file of exactly `size` bytes ending with `tailBytes`; the rest is a hole (sparse). */
async function sparseTranscript(path: string, size: number, tailBytes: Uint8Array) {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  try {
    await file.truncate(size - tailBytes.length);
    await file.seek(0, Deno.SeekMode.End);
    for (let at = 0; at < tailBytes.length;) at += await file.write(tailBytes.subarray(at));
  } finally {
    file.close();
  }
  assertEquals((await Deno.stat(path)).size, size);
}

/** Scans `path` as the hook does (withTranscript opens it), counting the bytes handed out. */
async function bytesFor(path: string, query: UsageQuery) {
  const scan = await withTranscript(path, async (source, size) => {
    const counted = countingSource(source);
    const result = await scanUsage(counted, size, query);
    return { result, bytesRead: counted.bytesRead };
  });
  if ("error" in scan) throw new Error(scan.error);
  return scan;
}

Deno.test("scanUsage() reads under 1 MiB of a 1 GiB transcript, the same bytes as of 1 MiB", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "lessons-bytes-" });
  try {
    const tailBytes = tail();
    const small = join(dir, "small.jsonl");
    const large = join(dir, "large.jsonl");
    await sparseTranscript(small, 1 * MiB, tailBytes);
    await sparseTranscript(large, 1 * GiB, tailBytes);

    await t.step("this call's entry (tool_use_id match)", async () => {
      const onSmall = await bytesFor(small, { toolUseId: TOOL_USE_ID });
      const onLarge = await bytesFor(large, { toolUseId: TOOL_USE_ID });
      assertEquals(onLarge.result.usage?.tokens, TOKENS);
      assertEquals(onLarge.result.usage?.matched, true);
      assert(onLarge.bytesRead < MiB, `read ${onLarge.bytesRead} bytes of 1 GiB`);
      assertEquals(onLarge.bytesRead, onSmall.bytesRead);
      assertEquals(onLarge.result.bytesRead, onLarge.bytesRead);
    });

    await t.step("the newest usage when this call's entry is not written yet", async () => {
      const query = { toolUseId: "toolu_01NotWrittenYetXXXXXXXXXX" };
      const onSmall = await bytesFor(small, query);
      const onLarge = await bytesFor(large, query);
      assertEquals(onLarge.result.usage?.tokens, TOKENS);
      assertEquals(onLarge.result.usage?.matched, false);
      assert(onLarge.bytesRead < MiB, `read ${onLarge.bytesRead} bytes of 1 GiB`);
      assertEquals(onLarge.bytesRead, onSmall.bytesRead);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the hook answers from the tail of a 1 GiB transcript", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lessons-bytes-" });
  try {
    const transcript = join(dir, "session.jsonl");
    await sparseTranscript(transcript, 1 * GiB, tail());
    const run = await runHook(
      payload("PostToolUse.Bash", { transcript_path: transcript, tool_use_id: TOOL_USE_ID }),
      {
        LESSONS_STATE_DIR: join(dir, "state"),
        LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST,
        LESSONS_CONTEXT_WINDOW: "1000000",
        LESSONS_REINJECT_WAIT_MS: "1",
        LESSONS_DEBUG: "1",
      },
    );
    const stderr = run.stderr;
    assertEquals(run.code, 0);
    assertEquals(run.stdout, "");
    assert(stderr.includes(`${TOKENS} tokens from transcript tool_use match`), stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Bytes the calling process and its reaped children have read (Linux counts a child's reads in its parent once reaped). */
function readSoFar(): number {
  const match = /rchar: (\d+)/.exec(Deno.readTextFileSync("/proc/self/io"));
  if (!match?.[1]) throw new Error("no rchar in /proc/self/io");
  return Number(match[1]);
}

Deno.test({
  name: "a session's first refresh reads no more of a 1 GiB transcript than a silent call",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "lessons-bytes-" });
    try {
      const transcript = join(dir, "session.jsonl");
      // The head is a hole without a newline: a scan reaching it would read the whole 1 GiB.
      await sparseTranscript(transcript, 1 * GiB, tail());
      const call = payload("PostToolUse.Bash", {
        transcript_path: transcript,
        tool_use_id: TOOL_USE_ID,
      });
      const env = {
        LESSONS_STATE_DIR: join(dir, "state"),
        LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST,
        LESSONS_CONTEXT_WINDOW: "200000", // 90,000 tokens: 45 %
        LESSONS_REINJECT_WAIT_MS: "1",
      };
      let before = readSoFar();
      const silent = await runHook(call, { ...env, LESSONS_REINJECT_THRESHOLDS: "50" });
      const silentBytes = readSoFar() - before;
      assertEquals(silent.stdout, "");

      before = readSoFar();
      const firing = await runHook(call, { ...env, LESSONS_REINJECT_THRESHOLDS: "40" });
      const firingBytes = readSoFar() - before;
      assert(firing.context?.startsWith("[lessons-reinject refresh 40 "), firing.stdout);
      // The manifest (a few KB), the state file and the code only a firing call loads (zod: in a
      // source run about 1.3 MB of Deno's npm cache) are the only extra reads; scanning back
      // would read 64 MiB here.
      assert(
        firingBytes < silentBytes + 4 * MiB,
        `first refresh read ${firingBytes} bytes, a silent call ${silentBytes}`,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
