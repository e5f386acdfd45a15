/**
 * A measurement, not a test: what real Claude Code writes for a fork subagent (the Agent tool's
 * `subagent_type: "fork"`, on with `CLAUDE_CODE_FORK_SUBAGENT=1`): its file name and agent id,
 * its first line, its usage, and the payloads its hook calls carry. Run:
 * `deno run -A scripts/measure/measure_fork_agent.ts [out-folder]`; then compacts the session to see
 * which files its summariser writes. Copies the session's transcripts and the captured payloads
 * to the out folder (default: a temporary one) and prints it. Made
 * tests/fixtures/transcripts/recorded-2.1.328-fork-*.jsonl.
 */
import { basename, join } from "node:path";
import { locateClaude } from "../loopback/claude_cli.ts";
import type { Step } from "../loopback/api_stub.ts";
import { Scenario } from "../../tests/e2e/harness.ts";

const cli = await locateClaude();
if ("problem" in cli) throw new Error(cli.problem);

const FORK_MARKER = "E2E-FORK-TASK-7e2a";
const usage = (tokens: number) => ({
  input_tokens: 3,
  cache_creation_input_tokens: 997,
  cache_read_input_tokens: tokens - 1000,
});
const bash = (id: string, tokens: number): Step => ({
  usage: usage(tokens),
  tools: [{ name: "Bash", input: { command: `echo ${id}` }, id }],
});

const out = Deno.args[0] ?? await Deno.makeTempDir({ prefix: "lessons-fork-capture-" });
await Deno.mkdir(out, { recursive: true });
const s = await Scenario.start(cli.bin, {
  name: "measure-fork",
  capturePayloads: true,
  env: { CLAUDE_CODE_FORK_SUBAGENT: "1" },
  script: {
    main: [
      bash("toolu_f01", 60_000), // the parent at 30 %
      {
        usage: usage(64_000),
        tools: [{
          name: "Agent",
          id: "toolu_f02",
          input: {
            description: "scripted fork",
            prompt: `Do the scripted fork task. ${FORK_MARKER}`,
            subagent_type: "fork",
          },
        }],
      },
      bash("toolu_f03", 70_000),
      { usage: usage(72_000), text: "Finished." },
    ],
    forks: {
      [FORK_MARKER]: [
        bash("toolu_k01", 66_000), // the fork's first call: the parent's context and more
        bash("toolu_k02", 106_000),
        { usage: usage(107_000), text: "Fork done." },
      ],
    },
  },
});
try {
  const turn = await s.turn("Fork a task.", {
    model: "claude-sonnet-4-6",
    allowTools: ["Agent"],
  });
  const write = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  write(`exit ${turn.code}; served ${JSON.stringify(s.stub.served)}`);
  write(`routes: ${s.stub.requests.map((r) => r.route).join(" ")}`);
  const main = await s.transcriptPath();
  await Deno.copyFile(main, join(out, "main.jsonl"));
  for (const file of await s.subagentTranscripts()) {
    await Deno.copyFile(file, join(out, basename(file)));
    write(`subagent file: ${basename(file)}`);
  }
  // Then a real /compact: does its summariser write a subagents/agent-acompact-<hex>.jsonl, as
  // 2.1.30-2.1.80 did? (2.1.328 does not: it runs with skipTranscript.)
  const compacted = await s.turn("/compact", { resume: true, model: "claude-sonnet-4-6" });
  write(`/compact exit ${compacted.code}`);
  await Deno.copyFile(main, join(out, "main.jsonl"));
  const dir = join(main.replace(/\.jsonl$/, ""), "subagents");
  for await (const entry of Deno.readDir(dir)) {
    write(`in subagents/: ${entry.name}`);
    await Deno.copyFile(join(dir, entry.name), join(out, entry.name));
  }
  const payloads = await s.payloads();
  await Deno.writeTextFile(join(out, "payloads.json"), JSON.stringify(payloads, null, 2));
  write(`root ${s.root}; copied to ${out}`);
} finally {
  await s.close();
}
