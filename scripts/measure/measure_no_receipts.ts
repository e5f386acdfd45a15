/**
 * A measurement, not a test: what this repository's hook does on a Claude Code release whose
 * transcript records no hook outcome (2.1.96 and older: no `hook_additional_context`). A climb
 * from 22 % to 74 % on a 200k model, with this repository as the plugin; the loopback API's
 * requests say which tool results carried a refresh, and which thresholds each named.
 *
 *     deno run -A scripts/measure/measure_no_receipts.ts 2.1.96 2.1.97
 */
import { backedSteps } from "../loopback/backed_steps.ts";
import { installedClaude } from "../loopback/claude_cli.ts";
import { deliveredAfter, type Json, Scenario } from "../../tests/e2e/harness.ts";

const CLIMB = [45_000, 50_000, 62_000, 76_000, 90_000, 105_000, 120_000, 135_000, 141_000, 148_000];
const HEADER = /\[lessons-reinject refresh ([0-9a-z,:]+) ref=/g;

const print = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
for (const version of Deno.args) {
  const cli = await installedClaude(version);
  if ("problem" in cli) throw new Error(cli.problem);
  const ids = CLIMB.map((_, i) => `toolu_n${String(i + 1).padStart(2, "0")}`);
  const s = await Scenario.start(cli.bin, {
    name: `no-receipts-${version}`,
    script: {
      main: backedSteps(CLIMB.map((tokens, i) => ({ id: ids[i]!, tokens })), 150_000),
    },
  });
  try {
    const turn = await s.turn("Climb.", { model: "claude-sonnet-4-6" });
    // Per tool call: the refreshes (thresholds named) that reached the model with its result.
    const carried: Record<string, string[]> = {};
    for (const [i, id] of ids.entries()) {
      const text = deliveredAfter(s.modelRequests(), id)?.text ?? "";
      const headers = [...text.matchAll(HEADER)].map((m) => m[1]!);
      if (headers.length > 0) carried[`${id} (${CLIMB[i]! / 2_000} %)`] = headers;
    }
    const lines = (await Deno.readTextFile(await s.transcriptPath())).split("\n")
      .filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Json);
    const receipts = lines.filter((l) =>
      l.type === "attachment" && (l.attachment as Json)?.type === "hook_additional_context"
    ).length;
    print(
      JSON.stringify({ version, exit: turn.code, receipts, refreshesReachingTheModel: carried }),
    );
  } finally {
    await s.close();
  }
}
