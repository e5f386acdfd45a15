/**
 * `status` shows the tool count only when the count is what decides: with no reading, a refresh
 * every N calls; with readings, the count is not kept and a "0" would only mislead.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { entries, payload, runRecorded, writeTranscript } from "../_helpers.ts";
import { cli, home } from "./_cli.ts";

/** The `tool count` row of a status report, or undefined. */
const toolCountRow = (report: string) => report.split("\n").find((l) => l.startsWith("tool count"));

Deno.test("status: no tool count row when readings decide, one when the count does", async () => {
  const { env, ...box } = home();
  // Nine calls with readings (10% to 18%): no refresh, and no count kept.
  writeTranscript(box.transcript, []);
  const lines: Record<string, unknown>[] = [];
  for (let i = 0; i < 9; i++) {
    const line = entries.assistant(20_000 + 2_000 * i, [`toolu_c${i}`]);
    lines.push(line, entries.toolResult(`toolu_c${i}`));
    writeTranscript(box.transcript, lines);
    await runRecorded(
      payload("PostToolUse.Bash", {
        session_id: line.sessionId,
        transcript_path: box.transcript,
        tool_use_id: `toolu_c${i}`,
      }),
      env,
    );
  }
  const measured = await cli(["status", "--transcript", box.transcript], env);
  assertEquals(measured.code, 0, measured.stderr);
  assertEquals(toolCountRow(measured.stdout), undefined, measured.stdout);

  // No usage anywhere: the count decides, so it is shown.
  const bare = entries.toolResult("toolu_none");
  writeTranscript(box.transcript, [bare]);
  const counted = await cli(["status", "--transcript", box.transcript], env);
  assertEquals(counted.code, 0, counted.stderr);
  const row = toolCountRow(counted.stdout);
  ok(row?.includes("(fallback refresh every 20 calls)"), counted.stdout);
});
