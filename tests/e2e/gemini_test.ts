/**
 * Real Gemini CLI (0.61.0 pinned; `LESSONS_E2E_GEMINI_VERSION` or `GEMINI_BIN` for another) with
 * this checkout installed as the README says (`gemini extensions install <checkout> --consent`),
 * against the loopback Gemini API stand-in. What reached the model is read from the requests the
 * stand-in recorded.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  type GeminiStep,
  type GeminiStub,
  SNAPSHOT_MARKER,
  startGeminiStub,
} from "../../scripts/loopback/gemini_stub.ts";
import { textIn } from "../../scripts/loopback/loopback_server.ts";
import { ROOT, SAMPLE_MANIFEST, spawnWithStdin } from "../_helpers.ts";
import { findGemini } from "./npm_clis.ts";
import { freshLabels as fresh, refreshLabels, skipUnlessCI } from "./harness.ts";

const RULE = "Name every file you touch (GEMINI-MD-MARKED-RULE).";
// On Windows Gemini CLI runs hook commands in PowerShell, which cannot run hooks/run (facts page).
const windows = Deno.build.os === "windows";
const found = windows ? { problem: "Windows" } : await findGemini();
const ignore = windows || ("problem" in found && skipUnlessCI("Gemini CLI", found.problem));

/**
 * One `gemini -p` run answered by `steps`, in a fresh Gemini home with this checkout installed as
 * an extension, lessons-learned's manifest where Claude Code installs it, and a project with a
 * GEMINI.md; returns the requests that reached the model.
 */
async function run(steps: GeminiStep[]): Promise<GeminiStub> {
  if ("problem" in found) throw new Error(found.problem);
  const dir = Deno.makeTempDirSync({ prefix: "lessons-gemini-e2e-" });
  const [home, project] = [join(dir, "home"), join(dir, "project")];
  Deno.mkdirSync(join(home, ".gemini"), { recursive: true });
  Deno.mkdirSync(project, { recursive: true });
  const rules = `# Project\n\nPlain guidance.\n\n<!-- reinject -->\n${RULE}\n<!-- /reinject -->\n`;
  Deno.writeTextFileSync(join(project, "GEMINI.md"), rules);
  const data = join(dir, "claude/plugins/cache/lessons-learned/lessons-learned/1.0.0/data");
  Deno.mkdirSync(data, { recursive: true });
  Deno.copyFileSync(SAMPLE_MANIFEST, join(data, "lesson-manifest.json"));
  // An API key's auth, and the next-speaker check on: it gives a one-prompt run the user message
  // a compression needs (docs/maintainers/gemini-facts.md).
  const auth = { auth: { selectedType: "gemini-api-key" } };
  const settings = JSON.stringify({ security: auth, model: { skipNextSpeakerCheck: false } });
  Deno.writeTextFileSync(join(home, ".gemini", "settings.json"), settings);
  const stub = startGeminiStub(steps, { compactInput: 3_000 });
  const env = { GEMINI_CLI_HOME: home, GEMINI_API_KEY: "loop", GOOGLE_GEMINI_BASE_URL: stub.url };
  Object.assign(env, {
    CLAUDE_CONFIG_DIR: join(dir, "claude"),
    LESSONS_STATE_DIR: join(dir, "state"),
  });
  // Installing from a folder asks whether to trust it (a URL does not): "y".
  const gemini = async (args: string[]) => {
    const out = await spawnWithStdin(found.bin, args, "y\n", env, project);
    assertEquals(out.code, 0, `gemini ${args[0]} ${args[1]}: ${out.stderr.slice(-2000)}`);
  };
  try {
    await gemini(["extensions", "install", ROOT, "--consent"]);
    await gemini(["-p", "Run the scripted steps.", "--yolo", "-m", "gemini-2.5-pro"]);
    return stub;
  } finally {
    await stub.close();
  }
}

/** The refresh labels each main request carries, in order (what reached the model with it). */
const labelsOf = (stub: GeminiStub) =>
  stub.requests.filter((r) => r.route === "main").map((r) =>
    refreshLabels(textIn(r.body.contents))
  );

/** A call of its own: Gemini CLI stops a run that repeats one tool call 5 times (a loop). */
const call = (input: number): GeminiStep => ({ input, commands: [`echo ${input}`] });

Deno.test({
  name: "Gemini CLI: refreshes reach the model on the calls crossing 30, 52 and 70 %, once each",
  ignore,
  async fn() {
    // The same tokens as on Claude Code's 200k window: 60k, 104k, 140k of Gemini's 1,048,576.
    const steps = [40_000, 61_000, 80_000, 106_000, 120_000, 142_000, 150_000].map(call);
    const stub = await run([...steps, { input: 151_000, text: "All done." }]);
    const sent = labelsOf(stub);
    assertEquals(fresh(sent), [[], [], ["30"], [], ["52"], [], ["70"], []], JSON.stringify(sent));
    // Each once: a label stays in the history, never sent again.
    assertEquals(sent.at(-1), ["30", "52", "70"]);
    const text = textIn(stub.requests.filter((r) => r.route === "main")[2]!.body.contents);
    const refresh = text.slice(text.indexOf("[lessons-reinject refresh 30"));
    ok(refresh.includes(RULE), "GEMINI.md's marked rule");
    ok(refresh.includes("## Non-Negotiable Directives"), "the manifest's lessons");
  },
});

Deno.test({
  name: "Gemini CLI: after a compression the rules are restated once and the schedule restarts",
  ignore,
  async fn() {
    // 530,000 is past half the 1,048,576 window: the next turn ("Please continue.") compresses.
    const steps = [call(61_000), { input: 530_000, text: "Part one.", continues: true }];
    const after = [call(20_000), call(30_000), call(61_000), { input: 62_000, text: "All done." }];
    const stub = await run([...steps, ...after]);
    const compact = stub.requests.findIndex((r) => r.route === "compact");
    ok(compact >= 0, stub.requests.map((r) => r.route).join(","));
    const main = stub.requests.filter((r) => r.route === "main");
    const sent = labelsOf(stub).slice(main.findIndex((r) => stub.requests.indexOf(r) > compact));
    // The compressed history keeps no refresh; the first call of the new context restates.
    assertEquals(fresh(sent), [[], ["compact"], [], ["30"]], JSON.stringify(sent));
    // The restatement carries the manifest; GEMINI.md stays in the compressed history itself.
    const text = textIn(main.at(-1)!.body.contents);
    const restated = /<hook_context>(\[lessons-reinject refresh compact[^]*?)<\/hook_context>/
      .exec(text)?.[1];
    ok(restated?.includes("## Non-Negotiable Directives"), restated);
    ok(text.slice(0, text.indexOf(SNAPSHOT_MARKER)).includes(RULE), "GEMINI.md, kept");
  },
});
