/**
 * Real Codex CLI (0.171.0 pinned; `LESSONS_E2E_CODEX_VERSION` or `CODEX_BIN` for another) with
 * this checkout installed as the README says (`codex plugin marketplace add <checkout>`, `codex
 * plugin add lessons-reinject@lessons-reinject`), its hooks trusted with
 * `--dangerously-bypass-hook-trust`, against the loopback Responses stand-in. What reached the
 * model is read from the requests the stand-in recorded.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  inputText,
  type ResponsesStep,
  type ResponsesStub,
  startResponsesStub,
} from "../../scripts/loopback/responses_stub.ts";
import { baseEnv, ROOT, SAMPLE_MANIFEST } from "../_helpers.ts";
import { findCodex } from "./codex_cli.ts";

const RULE = "Name every file you touch (AGENTS-MD-MARKED-RULE).";
const found = await findCodex();
// As tests/e2e/harness.ts does for Claude Code: under CI=true a missing Codex fails loudly.
const ci = ["1", "true"].includes((Deno.env.get("CI") ?? "").toLowerCase());
const ignore = "problem" in found && !ci;
if ("problem" in found) {
  Deno.stderr.writeSync(new TextEncoder().encode(`codex e2e: ${found.problem}\n`));
}

interface Run {
  stub: ResponsesStub;
  home: string;
  project: string;
  code: number;
  stderr: string;
}

const decoder = new TextDecoder();

async function codex(home: string, project: string, args: string[], env: Record<string, string>) {
  if ("problem" in found) throw new Error(found.problem);
  const out = await new Deno.Command(found.bin, {
    args,
    cwd: project,
    env: baseEnv({ CODEX_HOME: home, OPENAI_API_KEY: "sk-loop", ...env }),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** A Codex home with this checkout installed as a plugin, lessons-learned's manifest, a project. */
async function install(options: { compactLimit?: number } = {}) {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-codex-e2e-" });
  const [home, project, state] = [join(dir, "codex"), join(dir, "project"), join(dir, "state")];
  Deno.mkdirSync(project, { recursive: true });
  Deno.mkdirSync(home, { recursive: true });
  Deno.writeTextFileSync(
    join(project, "AGENTS.md"),
    `# Project\n\nPlain guidance.\n\n<!-- reinject -->\n${RULE}\n<!-- /reinject -->\n`,
  );
  // Where lessons-learned keeps its manifest when Codex installed it (codex-facts.md).
  const data = join(
    home,
    "plugins",
    "cache",
    "lessons-learned",
    "lessons-learned",
    "1.0.0",
    "data",
  );
  Deno.mkdirSync(data, { recursive: true });
  Deno.copyFileSync(SAMPLE_MANIFEST, join(data, "lesson-manifest.json"));
  const env = { LESSONS_STATE_DIR: state };
  for (
    const args of [["plugin", "marketplace", "add", ROOT], [
      "plugin",
      "add",
      "lessons-reinject@lessons-reinject",
    ]]
  ) {
    const out = await codex(home, project, args, env);
    assertEquals(out.code, 0, `codex ${args.join(" ")}: ${out.stderr}`);
  }
  return { dir, home, project, env, compactLimit: options.compactLimit };
}

/** One `codex exec` turn answered by `steps`; `model_context_window = 200000` (written 190,000). */
async function run(
  setup: Awaited<ReturnType<typeof install>>,
  steps: ResponsesStep[],
  prompt = "Run the scripted steps.",
): Promise<Run> {
  const stub = startResponsesStub(steps, { compactInput: 3_000 });
  const config = join(setup.home, "config.toml");
  const kept = Deno.readTextFileSync(config).replace(/^# loop[\s\S]*$/m, "");
  Deno.writeTextFileSync(
    config,
    `# loop\nmodel = "gpt-5.5"\nmodel_provider = "loop"\nmodel_context_window = 200000\n` +
      (setup.compactLimit ? `model_auto_compact_token_limit = ${setup.compactLimit}\n` : "") +
      `\n[model_providers.loop]\nname = "loop"\nbase_url = "${stub.url}/v1"\n` +
      `env_key = "OPENAI_API_KEY"\nwire_api = "responses"\nsupports_websockets = false\n\n` + kept,
  );
  try {
    const args = [
      "exec",
      "--skip-git-repo-check",
      "-s",
      "danger-full-access",
      "--dangerously-bypass-hook-trust",
      prompt,
    ];
    const out = await codex(setup.home, setup.project, args, setup.env);
    return { stub, home: setup.home, project: setup.project, code: out.code, stderr: out.stderr };
  } finally {
    await stub.close();
  }
}

/** Each main request's refresh labels, in order (what reached the model with it). */
function refreshesSent(stub: ResponsesStub): string[][] {
  return stub.requests.filter((r) => r.route !== "side" && r.route !== "other").map((r) => {
    const text = inputText(r.body.input);
    return [
      ...new Set([...text.matchAll(/\[lessons-reinject refresh (\S+) ref=/g)].map((m) => m[1]!)),
    ];
  });
}

const call = (input: number, cmd = "true"): ResponsesStep => ({ input, commands: [cmd] });

Deno.test({
  name: "Codex: refreshes reach the model on the calls crossing 30, 52 and 70 %, once each",
  ignore,
  async fn() {
    const setup = await install();
    // Of 190,000 (what Codex states for 200000) and of 200,000 alike, these calls cross.
    const steps = [40_000, 61_000, 80_000, 106_000, 120_000, 142_000, 150_000].map((n) => call(n));
    const done = await run(setup, [...steps, { input: 151_000, text: "All done." }]);
    assertEquals(done.code, 0, done.stderr.slice(-2000));
    const sent = refreshesSent(done.stub);
    // Request n+1 carries what the hook answered on call n (the call at request n).
    const fresh = sent.map((labels, i) => labels.filter((l) => !(sent[i - 1] ?? []).includes(l)));
    assertEquals(fresh, [[], [], ["30"], [], ["52"], [], ["70"], []], JSON.stringify(sent));
    const text = inputText(done.stub.requests.filter((r) => r.route === "main")[2]!.body.input);
    ok(text.includes(RULE), "AGENTS.md's marked rule");
    ok(text.includes("## Non-Negotiable Directives"), "the manifest's lessons");
    ok(
      text.includes("190k-token context window"),
      text.slice(text.indexOf("[lessons-reinject"), 400),
    );
  },
});

Deno.test({
  name:
    "Codex: after an automatic compaction the rules are restated once and the schedule restarts",
  ignore,
  async fn() {
    const setup = await install({ compactLimit: 100_000 });
    const steps = [call(61_000), call(120_000), call(20_000), call(30_000), call(61_000)];
    const done = await run(setup, [...steps, { input: 62_000, text: "All done." }]);
    assertEquals(done.code, 0, done.stderr.slice(-2000));
    const routes = done.stub.requests.map((r) => r.route).filter((r) => r !== "side");
    ok(routes.includes("compact"), routes.join(","));
    const after = done.stub.requests.slice(routes.indexOf("compact") + 1)
      .filter((r) => r.route === "main");
    const labels = after.map((r) =>
      [...inputText(r.body.input).matchAll(/\[lessons-reinject refresh (\S+) ref=/g)].map((m) =>
        m[1]
      )
    );
    // The new context's first request carries the restatement, and nothing older.
    assertEquals(labels[0], ["compact"], JSON.stringify(labels));
    ok(inputText(after[0]!.body.input).includes(RULE));
    // 30 % again in the new context, once.
    assertEquals(labels.at(-1)!.filter((l) => l === "30").length, 1, JSON.stringify(labels));
    assertEquals(labels.flat().filter((l) => l === "compact").length, labels.length);
  },
});
