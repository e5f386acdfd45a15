/**
 * The replay behind `status --timeline` reads the transcript a MiB at a time: lines that span
 * chunks, a line larger than a chunk, and a last line without its newline are each read whole.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { replaySession } from "../../../src/hook.ts";
import { refreshToken } from "../../../src/io/state_store.ts";
import { resolveSettings } from "../../../src/settings/resolve.ts";
import { entries, sandbox } from "../../_helpers.ts";

Deno.test("the replay finds every call and compaction of a transcript larger than its chunks", async () => {
  const { dir, transcript: path } = sandbox();
  const json = (entry: unknown) => JSON.stringify(entry);
  const MiB = 2 ** 20;
  /** A tool result padded so that the line after it starts 100 bytes before `boundary`. */
  const padded = (id: string, written: string[], boundary: number) => {
    const at = written.reduce((n, line) => n + line.length + 1, 0);
    const bare = json(entries.toolResult(id, "")).length + 1;
    return json(entries.toolResult(id, "x".repeat(boundary - 100 - at - bare)));
  };
  const lines = [json(entries.assistant(20_000, ["toolu_r1"]))];
  lines.push(padded("toolu_r1", lines, MiB)); // the next entry spans the first MiB's end
  lines.push(json(entries.assistant(40_000, ["toolu_r2"])));
  lines.push(padded("toolu_r2", lines, 3 * MiB)); // a line larger than a chunk
  lines.push(json(entries.assistant(62_000, ["toolu_r3"]))); // 31 %: crosses 30; spans 3 MiB
  lines.push(json(entries.toolResult("toolu_r3")));
  lines.push(json(entries.compactBoundary()));
  lines.push(json(entries.assistant(20_000, ["toolu_r4"])));
  // The last line without its newline: still being written.
  Deno.writeTextFileSync(path, lines.join("\n"));
  ok(lines[3]!.length > MiB);
  ok(Deno.statSync(path).size > 3 * MiB);
  const settings = resolveSettings((name) => ({ LESSONS_CONTEXT_WINDOW: "200000" })[name]);
  const replayed = await replaySession(path, refreshToken("s"), settings, undefined);
  if ("error" in replayed) throw new Error(replayed.error);
  const calls = replayed.flatMap((r) =>
    r.kind === "call" && r.reading.kind === "reading" ? [[r.toolUseId, r.reading.tokens]] : []
  );
  assertEquals(calls, [
    ["toolu_r1", 20_000],
    ["toolu_r2", 40_000],
    ["toolu_r3", 62_000],
    ["toolu_r4", 20_000],
  ]);
  const fired = replayed.flatMap((r) =>
    r.kind === "call" && r.decision.cause?.kind === "thresholds" ? [r.toolUseId] : []
  );
  assertEquals(fired, ["toolu_r3"]);
  assertEquals(replayed.filter((r) => r.kind === "compaction").length, 1);
  const missing = await replaySession(join(dir, "none.jsonl"), "t", settings, undefined);
  ok("error" in missing && missing.error.includes("none.jsonl"));
});
