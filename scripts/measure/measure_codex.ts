/**
 * A measurement, not a test: what real Codex writes to its rollout, in what order relative to its
 * hooks, and which hooks fire around a compaction (docs/maintainers/codex-facts.md). Runs `codex
 * exec` against the loopback Responses stand-in with a recording hook on every event: it saves
 * the hook's stdin and a copy of the rollout as it stood when the hook started, and answers with
 * a marker so the rollout's records of hook answers can be found.
 *
 *     deno run -A scripts/measure/measure_codex.ts basic|compact|late [out folder]
 *
 * `basic` climbs 50k, 62k, 110k; `compact` sets `model_auto_compact_token_limit = 100000` and
 * passes it; `late` holds each `response.completed` 1.5 s after the function call.
 */
import { join } from "node:path";
import { type ResponsesStep, startResponsesStub } from "../loopback/responses_stub.ts";
import { baseEnv } from "../../tests/_helpers.ts";
import { locateCodex } from "../../tests/e2e/npm_clis.ts";

const SCENARIOS: Record<string, { steps: ResponsesStep[]; compactLimit?: number }> = {
  basic: {
    steps: [
      { input: 50_000, commands: ["echo one"] },
      { input: 62_000, commands: ["echo two"] },
      { input: 110_000, commands: ["echo three"] },
      { input: 150_000, text: "All done." },
    ],
  },
  compact: {
    compactLimit: 100_000,
    steps: [
      ...[50_000, 90_000, 120_000, 20_000, 30_000].map((input, i): ResponsesStep => ({
        input,
        commands: [`echo ${i}`],
      })),
      { input: 35_000, text: "All done." },
    ],
  },
  late: {
    steps: [
      { input: 50_000, cached: 40_000, commands: ["echo one"], completeDelayMs: 1_500 },
      { input: 62_000, cached: 50_000, commands: ["echo two"], completeDelayMs: 1_500 },
      { input: 70_000, text: "All done." },
    ],
  },
};

/** The recording hook: stdin and the rollout as it stands, saved; a marker answered. */
const RECORDER = `
const dir = Deno.env.get("REC_DIR");
const raw = await new Response(Deno.stdin.readable).text();
const p = JSON.parse(raw);
const n = Date.now() + "-" + Math.random().toString(36).slice(2, 6);
Deno.writeTextFileSync(dir + "/" + p.hook_event_name + "-" + n + ".json", raw);
try { Deno.copyFileSync(p.transcript_path, dir + "/" + p.hook_event_name + "-" + n + ".rollout.jsonl"); } catch {}
if (p.hook_event_name === "PostToolUse" || p.hook_event_name === "SessionStart") {
  const text = "MEASURE-RECEIPT " + p.hook_event_name + " " + (p.source ?? p.tool_use_id ?? "");
  const line = JSON.stringify({ hookSpecificOutput: { hookEventName: p.hook_event_name, additionalContext: text } }));
}
`;

if (import.meta.main) {
  const [name = "basic", outArg] = Deno.args;
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`no scenario ${name}: ${Object.keys(SCENARIOS).join(", ")}`);
  const out = outArg ?? Deno.makeTempDirSync({ prefix: `codex-measure-${name}-` });
  const [home, rec, project] = [join(out, "codex-home"), join(out, "rec"), join(out, "project")];
  for (const dir of [home, rec, project]) Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(join(out, "recorder.ts"), RECORDER);
  const stub = startResponsesStub(scenario.steps, { compactInput: 3_000 });
  Deno.writeTextFileSync(
    join(home, "config.toml"),
    `model = "gpt-5.5"\nmodel_provider = "loop"\nmodel_context_window = 200000\n` +
      (scenario.compactLimit ? `model_auto_compact_token_limit = ${scenario.compactLimit}\n` : "") +
      `\n[model_providers.loop]\nname = "loop"\nbase_url = "${stub.url}/v1"\n` +
      `env_key = "OPENAI_API_KEY"\nwire_api = "responses"\nsupports_websockets = false\n`,
  );
  const command = `REC_DIR=${rec} deno run -A ${join(out, "recorder.ts")}`;
  const hook = [{ matcher: ".*", hooks: [{ type: "command", command }] }];
  const events = ["SessionStart", "UserPromptSubmit", "PostToolUse", "PreCompact", "PostCompact"];
  Deno.writeTextFileSync(
    join(home, "hooks.json"),
    JSON.stringify({ hooks: Object.fromEntries([...events, "Stop"].map((e) => [e, hook])) }),
  );
  const codex = await locateCodex();
  const result = await new Deno.Command(codex, {
    args: [
      "exec",
      "--skip-git-repo-check",
      "-s",
      "danger-full-access",
      "--dangerously-bypass-hook-trust",
      "-C",
      project,
      "Run the scripted steps.",
    ],
    env: baseEnv({ CODEX_HOME: home, OPENAI_API_KEY: "sk-loop" }),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  await stub.close();
  Deno.writeTextFileSync(join(out, "requests.json"), JSON.stringify(stub.requests, null, 1));
  const line = JSON.stringify({
    out,
    exit: result.code,
    requests: stub.requests.map((r) => `${r.route} ${r.input ?? ""}`),
    hooks: [...Deno.readDirSync(rec)].map((e) => e.name).filter((n) => !n.includes("rollout"))
      .sort((a, b) => a.split("-")[1]!.localeCompare(b.split("-")[1]!)),
  });
  Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
}
