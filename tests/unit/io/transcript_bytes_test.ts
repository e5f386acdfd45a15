/**
 * The cost of a call is bounded by where the usage sits, not by the transcript's size: with an
 * instrumented reader, a 1 GiB transcript (sparse: its head is a hole) costs the same bytes as a
 * 1 MiB one with the same tail, and far less than 1 MiB when the usage is near the end; and the
 * hook's own process, traced, reads no more of it when it fires.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import {
  entries,
  onPath,
  payload,
  RECORDED,
  runHook,
  sandbox,
  underStrace,
} from "../../_helpers.ts";
import { viewOfFile } from "./_io.ts";

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

/** A sandboxed session whose transcript is 1 GiB with tail() at its end, and this call on it. */
async function gibSession() {
  const box = sandbox();
  // The head is a hole without a newline: a scan reaching it would read the whole 1 GiB.
  await sparseTranscript(box.transcript, 1 * GiB, tail());
  const call = payload("PostToolUse.Bash", {
    transcript_path: box.transcript,
    tool_use_id: TOOL_USE_ID,
  });
  return { transcript: box.transcript, call, env: { ...box.env, LESSONS_REINJECT_WAIT_MS: "1" } };
}

Deno.test("viewOf() reads under 1 MiB of a 1 GiB transcript, the same bytes as of 1 MiB", async (t) => {
  const { dir } = sandbox();
  const tailBytes = tail();
  const small = join(dir, "small.jsonl");
  const large = join(dir, "large.jsonl");
  await sparseTranscript(small, 1 * MiB, tailBytes);
  await sparseTranscript(large, 1 * GiB, tailBytes);

  const cases: [string, string, boolean][] = [
    ["this call's entry (tool_use_id match)", TOOL_USE_ID, true],
    ["the newest usage when this call's entry is not written yet", "toolu_01NotWrittenYet", false],
  ];
  for (const [name, toolUseId, matched] of cases) {
    await t.step(name, () => {
      const onSmall = viewOfFile(small, { toolUseId });
      const onLarge = viewOfFile(large, { toolUseId });
      assertEquals([onLarge.view.usage?.tokens, onLarge.view.usage?.matched], [TOKENS, matched]);
      assert(onLarge.bytes < MiB, `read ${onLarge.bytes} bytes of 1 GiB`);
      assertEquals([onLarge.bytes, onLarge.view.bytesRead], [onSmall.bytes, onLarge.bytes]);
    });
  }
});

Deno.test("the hook answers from the tail of a 1 GiB transcript", async () => {
  const { call, env } = await gibSession();
  const run = await runHook(call, {
    ...env,
    LESSONS_CONTEXT_WINDOW: "1000000",
    // 90,000 tokens, below 50 % of a 200k session's span (100,000): silent.
    LESSONS_REINJECT_THRESHOLDS: "50",
    LESSONS_DEBUG: "1",
  });
  assertEquals([run.code, run.stdout], [0, ""]);
  assert(run.stderr.includes(`${TOKENS} tokens from transcript tool_use match`), run.stderr);
});

/**
 * Runs the hook's real entry point under strace and returns what it printed and the bytes its
 * process read from `transcript` (each read's result, the file named by strace's `-y`): the hook's
 * own reads, whatever Deno's cache or the test process read.
 */
async function tracedReads(stdin: unknown, env: Record<string, string>, transcript: string) {
  const trace = "trace=read,pread64,readv,preadv";
  const { run, lines } = await underStrace(["-y", "-s", "0", "-e", trace], stdin, env);
  let bytes = 0;
  for (const line of lines) {
    if (!line.includes(`<${transcript}>`)) continue;
    const result = /\) = (\d+)$/.exec(line);
    if (result) bytes += Number(result[1]);
  }
  return { run, bytes };
}

Deno.test({
  name: "a session's first refresh reads no more of a 1 GiB transcript than a silent call",
  // CI installs strace (.ci/run) and fails a test that lacks it.
  ignore: Deno.build.os !== "linux" || (!onPath("strace") && Deno.env.get("CI") !== "true"),
  async fn() {
    const { transcript, call, env: session } = await gibSession();
    const env = { ...session, LESSONS_CONTEXT_WINDOW: "200000" }; // 90,000 tokens: 45 %
    const silent = await tracedReads(
      call,
      { ...env, LESSONS_REINJECT_THRESHOLDS: "50" },
      transcript,
    );
    assertEquals(silent.run.stdout, "", silent.run.stderr);
    const firing = await tracedReads(
      call,
      { ...env, LESSONS_REINJECT_THRESHOLDS: "40" },
      transcript,
    );
    assert(firing.run.stdout.includes("refresh 40 "), firing.run.stdout + firing.run.stderr);
    // The tail holds the reading: a chunk or two, never the 64 MiB a scan back would read.
    assert(silent.bytes > 0 && silent.bytes < MiB, `a silent call read ${silent.bytes} bytes`);
    assert(firing.bytes <= silent.bytes, `first refresh ${firing.bytes}, silent ${silent.bytes}`);
  },
});
