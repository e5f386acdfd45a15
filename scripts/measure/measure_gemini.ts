/**
 * A measurement, not a test: what real Gemini CLI writes to its conversation file, in what order
 * relative to its hooks, which hooks fire, and where it compresses (docs/maintainers/gemini-facts.md).
 * Runs `gemini -p` against the loopback Gemini stand-in with a recording hook on every event: it
 * saves the hook's stdin and a copy of the conversation file as it stood when the hook started, and
 * answers AfterTool, SessionStart and PreCompress with a marker so what reached the model shows.
 *
 *     deno run -A scripts/measure/measure_gemini.ts basic|compress|<name> [out folder] [steps] [settings]
 *
 * `basic` climbs 40k, 61k, 62k; `compress` passes half of gemini-2.5-pro's 1,048,576 on a text
 * answer the next-speaker check continues ("Please continue."), the turn that compresses. A custom
 * name takes the steps (scripts/loopback/gemini_stub.ts) and settings.json additions as JSON;
 * `GEMINI_MODEL` picks the model (gemma-4-31b-it: 127,000 did not compress, 129,000 did).
 */
import { join } from "node:path";
import { type GeminiStep, startGeminiStub } from "../loopback/gemini_stub.ts";
import { baseEnv } from "../../tests/_helpers.ts";
import { findGemini } from "../../tests/e2e/npm_clis.ts";

const SCENARIOS: Record<string, GeminiStep[]> = {
  basic: [
    { input: 40_000, commands: ["echo one"] },
    { input: 61_000, commands: ["echo two"] },
    { input: 62_000, text: "All done." },
  ],
  compress: [
    { input: 500_000, commands: ["echo one"] },
    { input: 530_000, text: "Part one done.", continues: true },
    { input: 20_000, commands: ["echo three"] },
    { input: 21_000, text: "All done." },
  ],
};

const RECORDER = `import fs from "node:fs";
const input = fs.readFileSync(0, "utf8");
const p = JSON.parse(input), ev = p.hook_event_name, n = Date.now() + "-" + process.hrtime.bigint() % 1000000n;
fs.writeFileSync(process.env.MEASURE_OUT + "/" + n + "-" + ev + ".json", input);
if (p.transcript_path && fs.existsSync(p.transcript_path)) {
  fs.copyFileSync(p.transcript_path, process.env.MEASURE_OUT + "/" + n + "-" + ev + ".transcript.jsonl");
}
const tag = { AfterTool: "HOOK-ANSWER", SessionStart: "SESSION-START-ANSWER", PreCompress: "PRE-COMPRESS-ANSWER" }[ev];
if (tag) process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: ev, additionalContext: tag + " " + n } }));
`;

const [name = "basic", outArg, stepsJson, settingsJson] = Deno.args;
const steps = stepsJson ? JSON.parse(stepsJson) : SCENARIOS[name];
if (!steps) throw new Error(`no scenario ${name}: ${Object.keys(SCENARIOS).join(", ")}`);
const found = await findGemini();
if ("problem" in found) throw new Error(found.problem);
const dir = outArg ?? Deno.makeTempDirSync({ prefix: `measure-gemini-${name}-` });
const [home, project, out] = ["home", "project", "out"].map((d) => join(dir, d)) as [
  string,
  string,
  string,
];
for (const d of [join(home, ".gemini"), project, out]) Deno.mkdirSync(d, { recursive: true });
Deno.writeTextFileSync(join(dir, "record.mjs"), RECORDER);
Deno.writeTextFileSync(
  join(project, "GEMINI.md"),
  "<!-- reinject -->\nA RULE\n<!-- /reinject -->\n",
);
const events = ["AfterTool", "BeforeTool", "SessionStart", "SessionEnd", "PreCompress"];
const hook = (event: string) => [{
  ...(event.endsWith("Tool") ? { matcher: ".*" } : {}),
  hooks: [{ type: "command", command: `node ${join(dir, "record.mjs")}` }],
}];
const settings = {
  security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
  model: { skipNextSpeakerCheck: false },
  hooks: Object.fromEntries(["BeforeAgent", "AfterAgent", ...events].map((e) => [e, hook(e)])),
  ...(settingsJson ? JSON.parse(settingsJson) : {}),
};
Deno.writeTextFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(settings, null, 2));
const stub = startGeminiStub(steps, { compactInput: 3_000 });
const model = Deno.env.get("GEMINI_MODEL") ?? "gemini-2.5-pro";
const env = { GEMINI_CLI_HOME: home, GEMINI_API_KEY: "loop", GOOGLE_GEMINI_BASE_URL: stub.url };
const run = await new Deno.Command(found.bin, {
  args: ["-p", "Run the scripted steps.", "--yolo", "-m", model],
  cwd: project,
  env: baseEnv({ ...env, MEASURE_OUT: out }),
  clearEnv: true,
  stdout: "piped",
  stderr: "piped",
}).output();
await stub.close();
Deno.writeTextFileSync(join(dir, "requests.json"), JSON.stringify(stub.requests, null, 1));
const lines = [`gemini ${found.version} exited ${run.code}; ${dir}`];
for (const r of stub.requests) lines.push(`${r.route} ${r.path} ${r.input ?? ""}`);
for (const f of [...Deno.readDirSync(out)].map((e) => e.name).sort()) lines.push(`  ${f}`);
Deno.stdout.writeSync(new TextEncoder().encode(lines.join("\n") + "\n"));
