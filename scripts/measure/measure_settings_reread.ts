/**
 * A measurement, not a test: does a running Claude Code session pick up a change to the
 * project's `.claude/settings.json` that moves its auto-compaction point? 2.1.329's release notes
 * say it now drops a removed `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` mid-session. Each case starts a
 * `-p` session with one settings file, rewrites it during a Bash call that waits 3 s, and reports a
 * reading that compacts under one file and not under the other: an auto `compact_boundary` in the
 * transcript says which file was in force. A hook on each call logs the override its environment
 * carries.
 *
 *     deno run -A scripts/measure/measure_settings_reread.ts 2.1.328 2.1.332
 */
import { join } from "node:path";
import type { Step } from "../loopback/api_stub.ts";
import { usage } from "../loopback/backed_steps.ts";
import { installedClaude } from "../loopback/claude_cli.ts";
import { type Json, readJsonl, Scenario } from "../../tests/e2e/harness.ts";

interface Case {
  name: string;
  before: Json;
  after: Json;
  /** The reading after the rewrite, tokens (claude-sonnet-4-6: a 200,000-token window). */
  reading: number;
  /** What a compaction at that reading means. */
  compactedMeans: string;
}

// On a 200k window: W = 200,000 - 20,000; point min(W x pct / 100, W - 13,000). autoCompactWindow
// 120,000: 87,000. PCT_OVERRIDE 50: 90,000. Neither: 167,000.
const CASES: Case[] = [
  {
    name: "autoCompactWindow 120000 kept (control)",
    before: { autoCompactWindow: 120_000 },
    after: { autoCompactWindow: 120_000 },
    reading: 95_000,
    compactedMeans: "autoCompactWindow from settings.json works in -p",
  },
  {
    name: "autoCompactWindow lowered",
    before: { autoCompactWindow: 200_000 },
    after: { autoCompactWindow: 120_000 },
    reading: 95_000,
    compactedMeans: "the new window is in force",
  },
  {
    name: "PCT_OVERRIDE kept (control)",
    before: { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50" } },
    after: { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50" } },
    reading: 100_000,
    compactedMeans: "the override from settings.json works in -p",
  },
  {
    name: "PCT_OVERRIDE removed",
    before: { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50" } },
    after: {},
    reading: 100_000,
    compactedMeans: "the removed override is still in force",
  },
  {
    name: "PCT_OVERRIDE added",
    before: {},
    after: { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50" } },
    reading: 100_000,
    compactedMeans: "the added override is in force",
  },
];

/**
 * The session: a Bash call that waits 3 s, during which this script rewrites the settings file
 * (Claude Code refuses a tool's write to its own settings files), then the reading.
 */
function script(c: Case): Step[] {
  return [
    { usage: usage(10_000), tools: [{ name: "Bash", input: { command: "sleep 3; echo waited" } }] },
    { usage: usage(c.reading), tools: [{ name: "Bash", input: { command: "echo reading" } }] },
    { usage: usage(c.reading + 500), text: "Done." },
    { usage: usage(12_000), text: "Done after compaction." },
  ];
}

const ENV_LOG =
  'echo "${CLAUDE_AUTOCOMPACT_PCT_OVERRIDE-unset}" >> "$E2E_PAYLOADS/override-seen-by-hooks.log"';

const print = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
for (const version of Deno.args) {
  const cli = await installedClaude(version);
  if ("problem" in cli) throw new Error(cli.problem);
  for (const c of CASES) {
    const s = await Scenario.start(cli.bin, {
      name: `settings-${version}`,
      manifest: null,
      pluginDirs: [],
      files: {
        "work/.claude/settings.json": JSON.stringify(c.before),
        // What a hook's environment says after the rewrite: each tool call's hook logs it.
        "home/.claude/settings.json": JSON.stringify({
          hooks: {
            PostToolUse: [{
              matcher: ".*",
              hooks: [{ type: "command", command: ENV_LOG }],
            }],
          },
        }),
      },
      script: { main: script(c) },
    });
    try {
      const running = s.turn("Wait, then read.", { model: "claude-sonnet-4-6" });
      // The first answer (the Bash call that waits) is out: rewrite the file during its wait.
      const until = Date.now() + 60_000;
      while (!s.stub.requests.some((r) => r.route === "main") && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await Deno.writeTextFile(join(s.work, ".claude", "settings.json"), JSON.stringify(c.after));
      const turn = await running;
      const boundaries = (await readJsonl(await s.transcriptPath())).filter((l) =>
        l.subtype === "compact_boundary"
      ).map((l) => l.compactMetadata as Json);
      const compacted = boundaries.some((m) => m?.trigger === "auto");
      const seen = await Deno.readTextFile(join(s.payloadDir, "override-seen-by-hooks.log"))
        .catch(() => "");
      print(JSON.stringify({
        version,
        case: c.name,
        exit: turn.code,
        compacted,
        // CLAUDE_AUTOCOMPACT_PCT_OVERRIDE in the hooks' environment, per call (both after it).
        hooksSaw: seen.trim().split("\n"),
        preTokens: boundaries.map((m) => m?.preTokens),
        meaning: compacted ? c.compactedMeans : `not: ${c.compactedMeans}`,
      }));
    } finally {
      await s.close();
    }
  }
}
