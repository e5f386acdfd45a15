/**
 * A measurement, not a test: where real Claude Code puts a SessionStart(compact) and a
 * PostCompact hook's `additionalContext`, as what, and how many characters get through. Run:
 * `deno run -A scripts/measure/measure_compact_context.ts [sizes...]`; prints one JSON line per size.
 * A stand-in plugin answers both events with a known text; the loopback API records the requests.
 */
import { join } from "node:path";
import { locateClaude } from "../loopback/claude_cli.ts";
import { probePlugin } from "./probe_plugin.ts";
import { type Json, Scenario, textOf } from "../../tests/e2e/harness.ts";

const cli = await locateClaude();
if ("problem" in cli) throw new Error(cli.problem);

/** `BEGIN<n>` + filler + `END<n>`, exactly `n` characters. */
function body(tag: string, n: number): string {
  const head = `BEGIN-${tag}-${n}|`;
  const tail = `|END-${tag}-${n}`;
  return head + "r".repeat(Math.max(0, n - head.length - tail.length)) + tail;
}

function plugin(size: number): Promise<string> {
  const answer = (event: string, tag: string, n: number) =>
    JSON.stringify({
      hookSpecificOutput: { hookEventName: event, additionalContext: body(tag, n) },
    });
  const log = (event: string) =>
    `echo "$(date +%s%N) ${event}" >> "\${CLAUDE_PLUGIN_ROOT}/order.log"`;
  const hook = (event: string, file: string) => ({
    hooks: [{
      type: "command",
      command: `${log(event)}; cat "\${CLAUDE_PLUGIN_ROOT}/hooks/${file}"`,
      timeout: 5,
    }],
  });
  return probePlugin("probe", {
    SessionStart: [{ matcher: "compact", ...hook("SessionStart", "start.json") }],
    PostCompact: [hook("PostCompact", "post.json")],
  }, {
    "start.json": answer("SessionStart", "START", size),
    "post.json": answer("PostCompact", "POST", 200),
  });
}

function locate(requests: Json[], needle: string) {
  const found: Json[] = [];
  requests.forEach((request, r) => {
    const messages = Array.isArray(request.messages) ? request.messages as Json[] : [];
    messages.forEach((m, i) => {
      const text = textOf(m.content);
      const at = text.indexOf(needle);
      if (at < 0) return;
      const before = text.slice(Math.max(0, at - 700), at);
      found.push({ request: r, message: i, of: messages.length, role: m.role, before });
    });
    if (textOf(request.system).includes(needle)) found.push({ request: r, where: "system" });
  });
  return found;
}

const print = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
const sizes = Deno.args.length > 0 ? Deno.args.map(Number) : [9_500, 10_000, 10_001, 20_000];
for (const size of sizes) {
  const dir = await plugin(size);
  const s = await Scenario.start(cli.bin, {
    name: `measure-${size}`,
    manifest: null,
    // Only the probe plugin: this repository's hook stays out of the measurement.
    pluginDirs: [dir],
    script: {
      main: [
        {
          usage: { input_tokens: 20_000 },
          tools: [{ name: "Bash", input: { command: "echo 1" } }],
        },
        { usage: { input_tokens: 21_000 }, text: "Finished." },
        { usage: { input_tokens: 6_000 }, text: "After compaction." },
      ],
    },
  });
  try {
    const run = async (prompt: string, resume: boolean) => {
      const t = await s.turn(prompt, { model: "claude-sonnet-4-6", resume });
      if (t.code !== 0) throw new Error(`exit ${t.code}: ${t.stderr}`);
    };
    await run("First turn.", false);
    await run("/compact", true);
    await run("Second turn.", true);
    const requests = s.stub.requests.filter((r) => r.route !== "count_tokens");
    const routes = requests.map((r) => r.route);
    const compactAt = routes.indexOf("compact");
    const bodies = requests.map((r) => r.body);
    const start = locate(bodies, `BEGIN-START-${size}|`);
    const end = locate(bodies, `|END-START-${size}`);
    const post = locate(bodies, "BEGIN-POST-200|");
    // The characters of the text that reached the first request after the compaction.
    const after = bodies.find((_, i) => i > compactAt && routes[i] === "main");
    const afterText = after ? JSON.stringify(after.messages) : "";
    const whole = after ? (after.messages as Json[]).map((m) => textOf(m.content)).join("\n") : "";
    const from = whole.indexOf(`BEGIN-START-${size}|`);
    const to = whole.indexOf(`|END-START-${size}`);
    const order = await Deno.readTextFile(join(dir, "order.log")).catch(() => "");
    print(JSON.stringify({
      size,
      routes,
      compactRequest: compactAt,
      startFound: start,
      startEndFound: end.map((e) => e.request),
      deliveredChars: from >= 0 && to >= 0 ? to + `|END-START-${size}`.length - from : null,
      tooLarge: afterText.includes("Output too large"),
      postCompactFound: post,
      hookOrder: order.trim().split("\n").map((l) => l.split(" ").slice(1).join(" ")),
    }));
  } finally {
    await s.close();
    await Deno.remove(dir, { recursive: true });
  }
}
