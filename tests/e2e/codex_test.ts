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
  type ResponsesStep,
  type ResponsesStub,
  startResponsesStub,
} from "../../scripts/loopback/responses_stub.ts";
import { textIn } from "../../scripts/loopback/loopback_server.ts";
import { ROOT, SAMPLE_MANIFEST, spawnWithStdin } from "../_helpers.ts";
import { findCodex } from "./npm_clis.ts";
import { freshLabels, refreshLabels, skipUnlessCI } from "./harness.ts";

const RULE = "Name every file you touch (AGENTS-MD-MARKED-RULE).";
const found = await findCodex();
const ignore = "problem" in found && skipUnlessCI("Codex", found.problem);

/**
 * One `codex exec` turn answered by `steps`, with `model_context_window = 200000` (which Codex
 * states as 190,000), in a fresh Codex home with this checkout installed as a plugin,
 * lessons-learned's manifest and a project; returns the requests that reached the model.
 */
async function run(steps: ResponsesStep[], compactLimit?: number): Promise<ResponsesStub> {
  if ("problem" in found) throw new Error(found.problem);
  const dir = Deno.makeTempDirSync({ prefix: "lessons-codex-e2e-" });
  const [home, project] = [join(dir, "codex"), join(dir, "project")];
  Deno.mkdirSync(project, { recursive: true });
  Deno.writeTextFileSync(
    join(project, "AGENTS.md"),
    `# Project\n\nPlain guidance.\n\n<!-- reinject -->\n${RULE}\n<!-- /reinject -->\n`,
  );
  // Where lessons-learned keeps its manifest when Codex installed it (codex-facts.md).
  const data = join(home, "plugins/cache/lessons-learned/lessons-learned/1.0.0/data");
  Deno.mkdirSync(data, { recursive: true });
  Deno.copyFileSync(SAMPLE_MANIFEST, join(data, "lesson-manifest.json"));
  const env = {
    CODEX_HOME: home,
    OPENAI_API_KEY: "sk-loop",
    LESSONS_STATE_DIR: join(dir, "state"),
  };
  const codex = async (args: string[]) => {
    const out = await spawnWithStdin(found.bin, args, "", env, project);
    assertEquals(out.code, 0, `codex ${args[0]} ${args[1]}: ${out.stderr.slice(-2000)}`);
  };
  await codex(["plugin", "marketplace", "add", ROOT]);
  await codex(["plugin", "add", "lessons-reinject@lessons-reinject"]);
  const stub = startResponsesStub(steps, { compactInput: 3_000 });
  const config = join(home, "config.toml");
  Deno.writeTextFileSync(
    config,
    `model = "gpt-5.5"\nmodel_provider = "loop"\nmodel_context_window = 200000\n` +
      (compactLimit ? `model_auto_compact_token_limit = ${compactLimit}\n` : "") +
      `\n[model_providers.loop]\nname = "loop"\nbase_url = "${stub.url}/v1"\n` +
      `env_key = "OPENAI_API_KEY"\nwire_api = "responses"\nsupports_websockets = false\n\n` +
      Deno.readTextFileSync(config),
  );
  try {
    const bypass = ["-s", "danger-full-access", "--dangerously-bypass-hook-trust"];
    await codex(["exec", "--skip-git-repo-check", ...bypass, "Run the scripted steps."]);
    return stub;
  } finally {
    await stub.close();
  }
}

/** The refresh labels each main request carries, in order (what reached the model with it). */
const labelsOf = (stub: ResponsesStub, after = -1) =>
  stub.requests.filter((r, i) => i > after && r.route === "main")
    .map((r) => refreshLabels(textIn(r.body.input)));

const call = (input: number): ResponsesStep => ({ input, commands: ["true"] });

Deno.test({
  name: "Codex: refreshes reach the model on the calls crossing 30, 52 and 70 %, once each",
  ignore,
  async fn() {
    // Of 190,000 (what Codex states for 200000) and of 200,000 alike, these calls cross.
    const steps = [40_000, 61_000, 80_000, 106_000, 120_000, 142_000, 150_000].map(call);
    const stub = await run([...steps, { input: 151_000, text: "All done." }]);
    const sent = labelsOf(stub).map((labels) => [...new Set(labels)]);
    // Request n+1 carries what the hook answered on call n (the call at request n).
    const fresh = freshLabels(sent);
    assertEquals(fresh, [[], [], ["30"], [], ["52"], [], ["70"], []], JSON.stringify(sent));
    const text = textIn(stub.requests.filter((r) => r.route === "main")[2]!.body.input);
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
    const steps = [call(61_000), call(120_000), call(20_000), call(30_000), call(61_000)];
    const stub = await run([...steps, { input: 62_000, text: "All done." }], 100_000);
    const compact = stub.requests.findIndex((r) => r.route === "compact");
    ok(compact >= 0, stub.requests.map((r) => r.route).join(","));
    const labels = labelsOf(stub, compact);
    // The new context's first request carries the restatement, and nothing older.
    assertEquals(labels[0], ["compact"], JSON.stringify(labels));
    const first = stub.requests.find((r, i) => i > compact && r.route === "main")!;
    ok(textIn(first.body.input).includes(RULE));
    // 30 % again in the new context, once.
    assertEquals(labels.at(-1)!.filter((l) => l === "30").length, 1, JSON.stringify(labels));
    assertEquals(labels.flat().filter((l) => l === "compact").length, labels.length);
  },
});
