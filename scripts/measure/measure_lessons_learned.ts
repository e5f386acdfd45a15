/**
 * A measurement, not a test: what the lessons-learned plugin's own SessionStart hooks give the
 * model after a real `/compact`. Run with a checkout of that plugin (its hooks need `node`):
 * `deno run -A scripts/measure/measure_lessons_learned.ts <lessons-learned folder>`; prints JSON.
 */
import { locateClaude } from "../loopback/claude_cli.ts";
import { type Json, Scenario, textOf } from "../../tests/e2e/harness.ts";

const cli = await locateClaude();
if ("problem" in cli) throw new Error(cli.problem);
const plugin = Deno.args[0];
if (!plugin) throw new Error("usage: measure_lessons_learned.ts <lessons-learned folder>");

const s = await Scenario.start(cli.bin, {
  name: "measure-ll",
  manifest: null,
  pluginDirs: [plugin],
  env: { LESSONS_MANIFEST_PATH: `${plugin}/data/lesson-manifest.json` },
  script: {
    main: [
      { usage: { input_tokens: 20_000 }, tools: [{ name: "Bash", input: { command: "echo 1" } }] },
      { usage: { input_tokens: 21_000 }, text: "Finished." },
      { usage: { input_tokens: 6_000 }, text: "After compaction." },
    ],
  },
});
try {
  for (const [prompt, resume] of [["First turn.", false], ["/compact", true], ["Next.", true]]) {
    const t = await s.turn(String(prompt), { model: "claude-sonnet-4-6", resume: Boolean(resume) });
    if (t.code !== 0) throw new Error(`exit ${t.code}: ${t.stderr}`);
  }
  const requests = s.stub.requests.filter((r) => r.route !== "count_tokens");
  const routes = requests.map((r) => r.route);
  const first = requests.find((_, i) => i > routes.indexOf("compact") && routes[i] === "main");
  const messages = (first?.body.messages ?? []) as Json[];
  const text = messages.map((m) => textOf(m.content)).join("\n");
  const at = text.indexOf("SessionStart");
  const print = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  print(JSON.stringify(
    {
      routes,
      sessionStartMentions: [...text.matchAll(/SessionStart[^\n]{0,80}/g)].map((m) => m[0]),
      hasProtocol: text.includes("Lesson Reporting Protocol"),
      hasDirectivesHeading: text.includes("## Non-Negotiable Directives"),
      persisted: text.includes("Output too large") || text.includes("Preview (first 2KB)"),
      excerpt: at >= 0 ? text.slice(at, at + 600) : null,
    },
    null,
    1,
  ));
} finally {
  await s.close();
}
