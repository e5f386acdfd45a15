/**
 * A measurement, not a test: does real Claude Code run a plugin's `PostToolBatch` hook, once per
 * batch of parallel tool calls, and deliver its `additionalContext` to the next model request?
 * Beside it, a `PostToolUse` hook answering the same way, for comparison. Run:
 * `deno run -A scripts/measure/measure_post_tool_batch.ts [calls]`; prints one JSON line.
 */
import { join } from "node:path";
import { locateClaude } from "../loopback/claude_cli.ts";
import { probePlugin } from "./probe_plugin.ts";
import { type Json, Scenario, textOf } from "../../tests/e2e/harness.ts";

const cli = await locateClaude();
if ("problem" in cli) throw new Error(cli.problem);
const calls = Number(Deno.args[0] ?? 3);

function plugin(): Promise<string> {
  const hook = (event: string) => ({
    hooks: [{
      type: "command",
      // Saves the payload, logs the event, answers with a marker naming the event and its run.
      command: `n=$(date +%s%N); cat > "\${CLAUDE_PLUGIN_ROOT}/${event}-$n.json"; ` +
        `printf '{"hookSpecificOutput":{"hookEventName":"${event}",` +
        `"additionalContext":"MARK-${event}-%s"}}' "$n"`,
      timeout: 5,
    }],
  });
  return probePlugin("batch", {
    PostToolBatch: [hook("PostToolBatch")],
    PostToolUse: [hook("PostToolUse")],
  });
}

const dir = await plugin();
const s = await Scenario.start(cli.bin, {
  name: "measure-post-tool-batch",
  manifest: null,
  pluginDirs: [dir],
  script: {
    main: [
      {
        usage: { input_tokens: 20_000 },
        tools: Array.from({ length: calls }, (_, i) => ({
          name: "Bash",
          input: { command: `echo ${i}` },
        })),
      },
      { usage: { input_tokens: 21_000 }, tools: [{ name: "Bash", input: { command: "echo x" } }] },
      { usage: { input_tokens: 22_000 }, text: "Finished." },
    ],
  },
  unbacked: "a measurement",
});
try {
  const t = await s.turn("Go.", { model: "claude-sonnet-4-6" });
  const requests = s.stub.requests.filter((r) => r.route === "main").map((r) => r.body as Json);
  const marks = (event: string) =>
    requests.map((r) => {
      const text = (r.messages as Json[]).map((m) => textOf(m.content)).join("\n");
      return (text.match(new RegExp(`MARK-${event}-\\d+`, "g")) ?? []).length;
    });
  const files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".json"));
  const batchPayloads = files.filter((n) => n.startsWith("PostToolBatch"))
    .map((n) => JSON.parse(Deno.readTextFileSync(join(dir, n))));
  Deno.stdout.writeSync(
    new TextEncoder().encode(
      JSON.stringify({
        version: cli.version,
        exit: t.code,
        calls,
        requests: requests.length,
        postToolUseRuns: files.filter((n) => n.startsWith("PostToolUse-")).length,
        postToolBatchRuns: batchPayloads.length,
        batchPayloadKeys: batchPayloads.map((p) => Object.keys(p).sort()),
        batchToolCounts: batchPayloads.map((p) =>
          Array.isArray(p.tool_calls) ? p.tool_calls.length : null
        ),
        postToolUseMarksPerRequest: marks("PostToolUse"),
        postToolBatchMarksPerRequest: marks("PostToolBatch"),
      }) + "\n",
    ),
  );
} finally {
  await s.close();
  await Deno.remove(dir, { recursive: true });
}
