/**
 * A measurement, not a test: does real Claude Code put CLAUDE.md (a marked section of it included)
 * into the first model request after a compaction, and where? Run:
 * `deno run -A scripts/measure/measure_claude_md_after_compact.ts [resume|auto]`; prints one JSON line.
 * `resume`: `/compact` as its own `claude -p --resume` turn, then a next turn (each turn is a new
 * process, which loads CLAUDE.md at its own start). `auto`: one process climbs past an
 * auto-compaction (`CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000`) and goes on in the new context: only
 * a reload because of the compaction can put CLAUDE.md there. No plugin is loaded: only Claude
 * Code's own reloading is measured. A capture hook records InstructionsLoaded.
 */
import { join } from "node:path";
import { locateClaude } from "../loopback/claude_cli.ts";
import { type Json, Scenario, textOf } from "../../tests/e2e/harness.ts";

const cli = await locateClaude();
if ("problem" in cli) throw new Error(cli.problem);

const PROJECT_MARK = "PROJECT-CLAUDE-MD-MARKER-7f3a";
const USER_MARK = "USER-CLAUDE-MD-MARKER-91c2";
const REINJECT_MARK = "REINJECT-MD-MARKER-4b6d";
const LOCAL_MARK = "LOCAL-CLAUDE-MD-MARKER-2e8f";
const DOT_MARK = "DOT-CLAUDE-MD-MARKER-c5a1";

/** Where `needle` appears in each request: `system`, or the index of the message holding it. */
function where(requests: Json[], needle: string): (string | number)[][] {
  return requests.map((request) => {
    const found: (string | number)[] = [];
    if (textOf(request.system).includes(needle)) found.push("system");
    const messages = Array.isArray(request.messages) ? request.messages as Json[] : [];
    messages.forEach((m, i) => {
      if (textOf(m.content).includes(needle)) found.push(i);
    });
    return found;
  });
}

const mode = Deno.args[0] ?? "auto";
const auto = mode === "auto";
const bash = (command: string) => [{ name: "Bash", input: { command } }];
const s = await Scenario.start(cli.bin, {
  name: "measure-claude-md-compact",
  manifest: null,
  pluginDirs: [],
  capturePayloads: true,
  files: {
    "work/CLAUDE.md": `# Project\n\n<!-- reinject -->\n- ${PROJECT_MARK}: keep it.\n` +
      `<!-- /reinject -->\n`,
    "work/.claude/reinject.md": `- ${REINJECT_MARK}\n`,
    "work/CLAUDE.local.md": `<!-- reinject -->\n- ${LOCAL_MARK}\n<!-- /reinject -->\n`,
    "work/.claude/CLAUDE.md": `<!-- reinject -->\n- ${DOT_MARK}\n<!-- /reinject -->\n`,
    "home/.claude/CLAUDE.md": `- ${USER_MARK}\n`,
  },
  env: auto ? { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" } : {},
  unbacked: "a measurement: only where CLAUDE.md lands matters",
  script: {
    main: auto
      ? [
        { usage: { input_tokens: 20_000 }, tools: bash("echo 1") },
        // Past the 67,000-token point: Claude Code compacts before its next request.
        { usage: { input_tokens: 68_000 }, tools: bash("echo 2") },
        { usage: { input_tokens: 6_000 }, tools: bash("echo 3") },
        { usage: { input_tokens: 7_000 }, text: "After compaction." },
      ]
      : [
        { usage: { input_tokens: 20_000 }, tools: bash("echo 1") },
        { usage: { input_tokens: 21_000 }, text: "Finished." },
        { usage: { input_tokens: 6_000 }, text: "After compaction." },
      ],
  },
});
try {
  // InstructionsLoaded is captured too: the capture hook's settings list only some events.
  const settingsPath = join(s.home, ".claude", "settings.json");
  const settings = JSON.parse(await Deno.readTextFile(settingsPath));
  settings.hooks.InstructionsLoaded = settings.hooks.SessionStart;
  await Deno.writeTextFile(settingsPath, JSON.stringify(settings, null, 2));
  const turns = auto
    ? [["Climb.", false]]
    : [["First turn.", false], ["/compact", true], ["Next.", true]];
  for (const [prompt, resume] of turns) {
    const t = await s.turn(prompt as string, { model: "claude-sonnet-4-6", resume: !!resume });
    if (t.code !== 0) throw new Error(`exit ${t.code}: ${t.stderr}`);
  }
  const requests = s.stub.requests.filter((r) => r.route !== "count_tokens");
  const routes = requests.map((r) => r.route);
  const bodies = requests.map((r) => r.body);
  const payloads = await s.payloads();
  const loaded = payloads.filter((p) => p.hook_event_name === "InstructionsLoaded")
    .map((p) => ({ reason: p.load_reason, file: String(p.file_path ?? "").replace(s.root, "") }));
  Deno.stdout.writeSync(
    new TextEncoder().encode(
      JSON.stringify({
        version: cli.version,
        mode,
        routes,
        project: where(bodies, PROJECT_MARK),
        user: where(bodies, USER_MARK),
        reinjectMd: where(bodies, REINJECT_MARK),
        local: where(bodies, LOCAL_MARK),
        dotClaude: where(bodies, DOT_MARK),
        instructionsLoaded: loaded,
      }) + "\n",
    ),
  );
} finally {
  await s.close();
}
