/**
 * A measurement, not a test: does a release record this hook's answers to a subagent's tool calls
 * in the subagent's transcript (`hook_additional_context` in `subagents/agent-*.jsonl`), and how
 * many times does each refresh reach the subagent? A subagent climbing from 62 % to 72 %, with
 * this repository as the plugin; prints, per release, the refresh headers each of the subagent's
 * requests carries and the receipts its transcript holds.
 *
 *     deno run -A scripts/measure/measure_subagent_receipts.ts 2.1.212 2.1.328
 */
import { backedSteps, usage } from "../loopback/backed_steps.ts";
import { installedClaude } from "../loopback/claude_cli.ts";
import { attachmentOf, readJsonl, Scenario } from "../../tests/e2e/harness.ts";

const MARKER = "E2E-SUBAGENT-RECEIPTS-77a1";
const HEADER = /lessons-reinject refresh ([0-9,]+) ref=/g;

const print = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
for (const version of Deno.args) {
  const cli = await installedClaude(version);
  if ("problem" in cli) throw new Error(cli.problem);
  const s = await Scenario.start(cli.bin, {
    name: `subagent-receipts-${version}`,
    script: {
      main: [
        ...backedSteps([{ id: "toolu_m01", tokens: 30_000 }], 47_000).slice(0, 1),
        {
          usage: usage(47_000),
          tools: [{
            name: "Agent",
            id: "toolu_m02",
            input: {
              description: "scripted sub task",
              prompt: `Do the scripted sub task. ${MARKER}`,
              subagent_type: "general-purpose",
              run_in_background: false,
            },
          }],
        },
        { usage: usage(48_000), text: "Finished." },
      ],
      agents: {
        [MARKER]: [
          ...backedSteps([
            { id: "toolu_a01", tokens: 125_000 }, // 62 %: 30 and 52
            { id: "toolu_a02", tokens: 142_000 }, // 71 %: 70
            { id: "toolu_a03", tokens: 143_000 },
          ], 144_000).slice(0, 3),
          { usage: usage(144_000), text: "Report: done." },
        ],
      },
    },
  });
  try {
    const turn = await s.turn("Delegate.", { model: "claude-sonnet-4-6", allowTools: ["Agent"] });
    // Each request repeats the conversation: the headers it carries, in order.
    const perRequest = s.stub.requests.filter((r) => r.route === MARKER)
      .map((r) => [...JSON.stringify(r.body.messages).matchAll(HEADER)].map((m) => m[1]!));
    let receipts = 0;
    for (const file of await s.subagentTranscripts()) {
      receipts += (await readJsonl(file)).filter((l) =>
        attachmentOf(l)?.type === "hook_additional_context"
      ).length;
    }
    print(JSON.stringify({ version, exit: turn.code, subagentReceipts: receipts, perRequest }));
  } finally {
    await s.close();
  }
}
