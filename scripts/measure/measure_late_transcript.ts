/**
 * A measurement, not a test: how far behind the transcript is when a PostToolUse hook starts.
 * Real Claude Code runs a scripted session of instant Bash calls (some printing 29 KB, most a
 * line) with a tracing hook: a shell script that, first thing, logs the transcript's size and
 * whether the previous call's `tool_result` and this call's own `tool_use` are in the file yet,
 * and when the previous result is missing, how many milliseconds pass until it is written.
 * With `--load`, both cores are kept busy meanwhile by a bounded CPU burner it starts and stops.
 *
 *     deno run -A scripts/measure/measure_late_transcript.ts [--load] [--calls 40] [--sessions 2]
 *                                                      [--with-hook]
 *
 * `--with-hook` loads this repository's plugin beside the tracer, as a user's session has it.
 * Prints one JSON line per session and a total.
 */
import { join } from "node:path";
import type { Step } from "../loopback/api_stub.ts";
import { usage } from "../loopback/backed_steps.ts";
import { locateClaude } from "../loopback/claude_cli.ts";
import { startBurner } from "../loopback/cpu_burner.ts";
import { probePlugin } from "./probe_plugin.ts";
import { ROOT, Scenario } from "../../tests/e2e/harness.ts";

const args = [...Deno.args];
const flag = (name: string) => {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
};
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args.splice(at, 2)[1]) : fallback;
};
const load = flag("--load");
const withHook = flag("--with-hook");
const calls = option("--calls", 40);
const sessions = option("--sessions", 2);

const cli = await locateClaude();
if ("problem" in cli) throw new Error(cli.problem);

/** The tracing hook: the first thing it does is look at the transcript. */
const TRACE = `#!/bin/sh
start=$(date +%s%N)
p=$(cat)
t=$(printf '%s' "$p" | sed -n 's/.*"transcript_path":"\\([^"]*\\)".*/\\1/p')
id=$(printf '%s' "$p" | sed -n 's/.*"tool_use_id":"\\([^"]*\\)".*/\\1/p')
size=$(stat -c %s "$t" 2>/dev/null || echo 0)
n=\${id#toolu_t}
prev=$(printf 'toolu_t%03d' "$(expr "$n" - 1)")
# Both questions asked of the same bytes: the file's first $size bytes.
snap="$CLAUDE_PLUGIN_ROOT/snap.$$"
head -c "$size" "$t" > "$snap"
has_prev=$(grep -c "\\"tool_use_id\\":\\"$prev\\"" "$snap")
has_own=$(grep -c "\\"id\\":\\"$id\\"" "$snap")
rm -f "$snap"
echo "$id $size $has_prev $has_own $start" >> "$CLAUDE_PLUGIN_ROOT/trace.log"
# When the previous result is missing: how long until it is written (polled every 5 ms, in the
# background, so the hook itself ends at once).
if [ "$has_prev" = 0 ]; then
  (
    i=0
    while [ $i -lt 400 ] && ! grep -q "\\"tool_use_id\\":\\"$prev\\"" "$t"; do
      sleep 0.005
      i=$((i + 1))
    done
    echo "$id $(( ($(date +%s%N) - start) / 1000000 ))" >> "$CLAUDE_PLUGIN_ROOT/lag.log"
  ) </dev/null >/dev/null 2>&1 &
fi
`;

function tracer(): Promise<string> {
  const hook = { type: "command", command: '"${CLAUDE_PLUGIN_ROOT}/hooks/trace.sh"', timeout: 5 };
  return probePlugin("trace", { PostToolUse: [{ matcher: ".+", hooks: [hook] }] }, {
    "trace.sh": TRACE,
  });
}

/** Instant Bash calls; every fourth prints 29 KB (a result like the 35 KB one). */
function script(): Step[] {
  const steps: Step[] = [];
  for (let i = 1; i <= calls; i++) {
    const id = `toolu_t${String(i).padStart(3, "0")}`;
    const command = i % 4 === 0 ? "yes 'a log line of output' | head -c 29000" : `echo call ${i}`;
    steps.push({
      usage: usage(20_000 + i * 500),
      tools: [{ name: "Bash", input: { command }, id }],
    });
  }
  steps.push({ usage: usage(20_000 + (calls + 1) * 500), text: "Done." });
  return steps;
}

const print = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
const total = {
  hooks: 0,
  prevAbsent: 0,
  ownAbsent: 0,
  ownBeforePrevious: 0,
  prevAbsentAfterBig: 0,
  afterBig: 0,
};
const lags: number[] = [];
for (let n = 0; n < sessions; n++) {
  const dir = await tracer();
  const burner = load ? startBurner(600, 2) : undefined;
  const s = await Scenario.start(cli.bin, {
    name: `late-${n}`,
    manifest: null,
    pluginDirs: withHook ? [dir, ROOT] : [dir],
    script: { main: script() },
  });
  try {
    const turn = await s.turn("Run the calls.", { model: "claude-sonnet-4-6" });
    if (turn.code !== 0) throw new Error(`exit ${turn.code}: ${turn.stderr}`);
    const rows = (await Deno.readTextFile(join(dir, "trace.log"))).trim().split("\n")
      .map((line) => line.split(" "))
      .map(([id, size, prev, own]) => ({
        call: Number(id!.slice("toolu_t".length)),
        size: Number(size),
        prev: Number(prev) > 0,
        own: Number(own) > 0,
      }));
    // The first call has no previous call.
    const judged = rows.filter((r) => r.call > 1);
    const absent = judged.filter((r) => !r.prev);
    const afterBig = judged.filter((r) => (r.call - 1) % 4 === 0);
    total.hooks += judged.length;
    total.prevAbsent += absent.length;
    total.ownAbsent += rows.filter((r) => !r.own).length;
    total.ownBeforePrevious += judged.filter((r) => r.own && !r.prev).length;
    total.afterBig += afterBig.length;
    total.prevAbsentAfterBig += afterBig.filter((r) => !r.prev).length;
    // The background polls end within 2 s of their hook.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const lag = (await Deno.readTextFile(join(dir, "lag.log")).catch(() => "")).trim().split("\n")
      .filter((line) => line !== "" && !line.startsWith("toolu_t001 ")) // no call before it
      .map((line) => Number(line.split(" ")[1]));
    lags.push(...lag);
    print(JSON.stringify({
      version: cli.version,
      load,
      withHook,
      hooks: rows.length,
      previousResultAbsent: absent.map((r) => r.call),
      absentForMs: lag,
      ownToolUseAbsent: rows.filter((r) => !r.own).map((r) => r.call),
      // Written out of order: this call's tool_use already there, the previous result not yet.
      ownBeforePrevious: judged.filter((r) => r.own && !r.prev).map((r) => r.call),
      sizes: rows.map((r) => r.size),
    }));
  } finally {
    await burner?.stop();
    await s.close();
    await Deno.remove(dir, { recursive: true });
  }
}
lags.sort((a, b) => a - b);
print(JSON.stringify({
  version: cli.version,
  load,
  withHook,
  sessions,
  calls,
  ...total,
  absentForMs: { median: lags[Math.floor(lags.length / 2)] ?? null, max: lags.at(-1) ?? null },
}));
