/**
 * `deno task bench --in-session`: the hook's cost where users feel it. Real Claude Code replays a
 * real session's climb (37 responses from 15 % to 82 % of a 200k window: three refreshes), each
 * Bash call printing the output that carries the growth to the next reading, against the loopback
 * API stand-in, through hooks/run with a stand-in binary in dist/, interleaved run by run with an
 * empty Deno script behind the same launcher. Durations are Claude Code's own (`--debug-file`);
 * every run of ours must deliver all three refreshes to the model, each on the call that crossed.
 */
import { buildBundle } from "../scripts/bundle.ts";
import { buildBundleAt } from "./bundle_at.ts";
import { baseEnv, ROOT, SAMPLE_MANIFEST } from "../scripts/project.ts";
import { TOKENS_PER_BYTE } from "../src/core/claude_code.ts";
import { ceilingOf } from "../src/core/ceiling.ts";
import { viewOf } from "../src/io/transcript.ts";
import { join } from "node:path";
import { scriptArgs } from "../scripts/script_args.ts";
import { type RecordedRequest, startApiStub, textOf } from "../scripts/loopback/api_stub.ts";
import {
  type BackedStep,
  backedSteps,
  MAX_BACKED_TOKENS,
  unbackedSteps,
} from "../scripts/loopback/backed_steps.ts";
import { locateClaude } from "../scripts/loopback/claude_cli.ts";
import { assetName, BINARY_PERMISSIONS, targetFor } from "../scripts/release_files.ts";
import { bundleFolder, pluginCopy } from "./launchers.ts";
import { indexOfBytes } from "../scripts/index_of_bytes.ts";
import { currentBuild } from "../scripts/source_bundle.ts";

/**
 * The climb replayed: a 200k session, or with `LESSONS_BENCH_CLIMB=1m` the same session on Claude
 * Code's default model (claude-opus-5-5, 1M), its readings 1.5 times larger, so that past 60k, 104k
 * and 140k the every-window schedule's 180k and 220k are crossed too (docs/thresholds.md).
 */
const LARGE = Deno.env.get("LESSONS_BENCH_CLIMB") === "1m";
const MODEL = LARGE ? "claude-opus-5-5" : "claude-sonnet-4-6";
const WINDOW = LARGE ? 1_000_000 : 200_000;
const SCALE = 1.5;
/**
 * The context of each response, in tokens: the first context of a real session, the public
 * v2.1.185 transcript of the shared test data (`v2.1.185-three-compact-boundaries.jsonl`, a
 * first-party claude-sonnet-4-6 session), one main-chain reading per response up to its first
 * auto-compaction: from 15 % to 82 % of the 200k window, steps of 188 to 22,669 tokens.
 */
const RECORDED_READINGS: readonly number[] = [
  29_842,
  44_980,
  57_390,
  60_323,
  61_106,
  61_507,
  64_897,
  66_636,
  69_631,
  72_804,
  73_826,
  74_325,
  75_525,
  76_839,
  92_046,
  92_233,
  93_301,
  103_277,
  125_946,
  126_916,
  127_319,
  128_174,
  128_837,
  131_328,
  133_590,
  143_745,
  144_880,
  145_094,
  145_417,
  146_528,
  148_441,
  150_255,
  151_506,
  160_639,
  162_373,
  162_561,
  164_096,
];
export const READINGS: readonly number[] = LARGE ? scaled(RECORDED_READINGS) : RECORDED_READINGS;

/** The readings times SCALE, a step one Bash result cannot carry split by responses between. */
function scaled(readings: readonly number[]): number[] {
  const out: number[] = [];
  readings.forEach((reading, i) => {
    let at = Math.round(reading * SCALE);
    const next = i + 1 < readings.length ? Math.round(readings[i + 1]! * SCALE) : at;
    out.push(at);
    while (next - at > MAX_BACKED_TOKENS) out.push(at += MAX_BACKED_TOKENS - 1_000);
  });
  return out;
}
const THRESHOLDS = [30, 52, 70];
/** Where each refresh is due, in tokens, as the threshold its header names. */
const POINTS: readonly { tokens: number; threshold: number; label: string }[] = [
  { tokens: 60_000, threshold: 30, label: "30" },
  { tokens: 104_000, threshold: 52, label: "52" },
  { tokens: 140_000, threshold: 70, label: "70" },
  ...(LARGE
    ? [
      { tokens: 180_000, threshold: 180_000, label: "180k" },
      { tokens: 220_000, threshold: 220_000, label: "220k" },
    ]
    : []),
];

export const IN_SESSION_USAGE =
  `deno task bench --in-session [--runs N] [--compare REF] [--launcher REF] [--from-source]
                             [--no-write] [--keep]

  --runs N        sessions per variant, interleaved (default 10)
  --latency MS    the stand-in takes this long to answer each request, as a model does (default
                  0: at once, when the transcript lags the hooks most)
  --compare REF   also run the hook of git commit REF (its own bundle) in the same rounds
                  (repeatable)
  --launcher REF  also time hooks/run alone, as of git commit REF and now, in front of /bin/true
                  (run as Claude Code runs a hook command: bash -c), against /bin/true alone
  --from-source   also run the plugin as users have it before a release: no binary, hooks/run
                  running the source's bundle (built by the warm-up session), and the source
                  without it, in the same rounds as ours (the release's path)
  --no-write      print the table, leave the benchmarks file alone
  --keep          keep the temporary folder (debug logs, transcripts)`;

const encoder = new TextEncoder();
const say = (text: string) => Deno.stderr.writeSync(encoder.encode(`${text}\n`));
const print = (text: string) => Deno.stdout.writeSync(encoder.encode(`${text}\n`));

/** The responses that first reach each threshold (0-based): where a refresh must land. */
export function crossingCalls(): number[] {
  return POINTS.map((point) => {
    const at = READINGS.findIndex((tokens) => tokens >= point.tokens);
    if (at < 0) throw new Error(`the climb never reaches ${point.label}`);
    return at;
  });
}

/**
 * The session's responses as Bash steps: each prints what carries the growth to the next reading;
 * one whose growth is more than a Bash result passes inline makes two parallel calls.
 */
export function benchSteps(): BackedStep[] {
  return READINGS.map((tokens, i) => {
    const id = `toolu_bench${String(i + 1).padStart(2, "0")}`;
    const growth = (READINGS[i + 1] ?? tokens + 500) - tokens;
    return { id: growth > MAX_BACKED_TOKENS ? [`${id}a`, `${id}b`] : id, tokens };
  });
}

/** Every tool call id of the session, in order, and the threshold each crossing call names. */
export function benchCalls(): { ids: string[]; crossing: Map<string, string> } {
  const steps = benchSteps();
  const ids = steps.flatMap((step) => Array.isArray(step.id) ? step.id : [step.id]);
  const crossing = new Map<string, string>();
  crossingCalls().forEach((at, k) => {
    const id = steps[at]!.id;
    if (Array.isArray(id)) throw new Error(`the crossing response ${at + 1} has parallel calls`);
    crossing.set(id, POINTS[k]!.label);
  });
  return { ids, crossing };
}

/**
 * The calls of a session the ceiling lets answer without waiting even if their own entry were
 * written after the hook started: the hook's own reading and ceiling (src/io/transcript.ts,
 * src/core/ceiling.ts) on the transcript cut just before each call's entry. Unlike the timings,
 * this does not depend on how loaded the machine is.
 */
export function callsAnsweredEarly(transcript: Uint8Array, ids: string[]): string[] {
  const source = { readAt: (o: number, l: number) => transcript.slice(o, o + l) };
  const settings = {
    thresholds: THRESHOLDS,
    windowOverride: WINDOW,
    disable1m: false,
    firstParty: true,
    compactEnv: {},
    scaleForAutocompact: true,
    cadence: 40_000,
  };
  const encoder = new TextEncoder();
  const fired: number[] = [];
  const early: string[] = [];
  for (const id of ids) {
    const at = indexOfBytes(transcript, encoder.encode(`"id":"${id}"`));
    if (at < 0) continue;
    const lineStart = transcript.lastIndexOf(10, at) + 1;
    const before = viewOf(source, lineStart, { toolUseId: id, sidechainFile: false });
    const state = { fired: [...fired], toolCount: 0 };
    if (ceilingOf(before, state, settings, undefined) !== undefined) early.push(id);
    const lineEnd = transcript.indexOf(10, at) + 1;
    const own = viewOf(source, lineEnd, { toolUseId: id, sidechainFile: false }).usage;
    if (own?.matched) {
      for (const { tokens, threshold } of POINTS) {
        if (own.tokens >= tokens && !fired.includes(threshold)) fired.push(threshold);
      }
    }
  }
  return early;
}

/** The newest transcript under `home`'s Claude Code projects folder. */
async function newestTranscript(home: string): Promise<Uint8Array | undefined> {
  let newest: { path: string; mtime: number } | undefined;
  const projects = join(home, ".claude", "projects");
  const folders = await Array.fromAsync(Deno.readDir(projects)).catch(() => []);
  for (const project of folders) {
    for await (const entry of Deno.readDir(join(projects, project.name))) {
      if (!entry.isFile || !entry.name.endsWith(".jsonl")) continue;
      const path = join(projects, project.name, entry.name);
      const mtime = (await Deno.stat(path)).mtime?.getTime() ?? 0;
      if (!newest || mtime > newest.mtime) newest = { path, mtime };
    }
  }
  return newest ? await Deno.readFile(newest.path) : undefined;
}

/** One hook run as Claude Code timed it. */
export interface HookTiming {
  event: string;
  status: number;
  ms: number;
}

/** Claude Code's `Hooks: <event>:<matcher> [cmd] (plugin ...) finished with status S (N ms)`. */
export function hookTimings(debugLog: string, event = "PostToolUse:Bash"): HookTiming[] {
  const found: HookTiming[] = [];
  const pattern = /Hooks: (\S+) \[.*\] \(plugin [^)]*\) finished with status (-?\d+) \((\d+)ms\)/;
  for (const line of debugLog.split("\n")) {
    const match = pattern.exec(line);
    if (match?.[1] === event) {
      found.push({ event: match[1], status: Number(match[2]), ms: Number(match[3]) });
    }
  }
  return found;
}

/**
 * Which refresh (its threshold list, e.g. "30") reached the model right after each tool call:
 * the text from the user message holding the call's tool_result up to the next assistant turn,
 * in the first request that carries it.
 */
export function refreshesDelivered(requests: RecordedRequest[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const request of requests) {
    const messages = Array.isArray(request.body.messages)
      ? request.body.messages as Record<string, unknown>[]
      : [];
    messages.forEach((message, index) => {
      if (message.role !== "user" || !Array.isArray(message.content)) return;
      for (const block of message.content as Record<string, unknown>[]) {
        const id = block.type === "tool_result" ? String(block.tool_use_id) : undefined;
        if (!id || found.has(id)) continue;
        let text = "";
        for (let i = index; i < messages.length; i++) {
          if (i > index && messages[i]?.role === "assistant") break;
          text += textOf(messages[i]?.content) + "\n";
        }
        found.set(id, /\[lessons-reinject refresh ([0-9kM,]+) /.exec(text)?.[1] ?? "");
      }
    });
  }
  return found;
}

/** Sorted-copy percentile by nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

const median = (values: readonly number[]) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

interface Variant {
  /** "ours", "floor", or `at <commit>` for a compared commit's hook. */
  name: string;
  /** A hook that refreshes (ours or a compared one), not the empty floor. */
  hook: boolean;
  root: string;
  home: string;
  tmp: string;
  /** More environment for its sessions. */
  env?: Record<string, string>;
  /** No binary: the plugin runs from its source's bundle (true) or its source (false). */
  source?: boolean;
}

interface RunResult {
  variant: string;
  /** Per hook run that waited for its entry, how long (its debug line says). */
  waited?: number[];
  hooks: HookTiming[];
  /** The SessionStart startup hook (the launcher's startup notice), as Claude Code timed it. */
  starts: HookTiming[];
  /** Arrival-to-arrival of consecutive main-conversation requests, ms. */
  gaps: number[];
  /** Problems that make the run not what it should measure. */
  problems: string[];
  sessionMs: number;
  /** Calls the ceiling lets answer without waiting for their own entry (see callsAnsweredEarly). */
  early?: string[];
}

/** A plugin folder as an install leaves it, plus a stand-in binary in dist/ that runs `script`. */
async function pluginWith(dir: string, script: string, binary: string): Promise<string> {
  const root = join(dir, "plugin");
  await Deno.mkdir(join(root, "hooks"), { recursive: true });
  await Deno.mkdir(join(root, ".claude-plugin"), { recursive: true });
  await Deno.mkdir(join(root, "dist"), { recursive: true });
  for (
    const file of ["hooks/run", "hooks/install", "hooks/hooks.json", ".claude-plugin/plugin.json"]
  ) {
    await Deno.copyFile(join(ROOT, file), join(root, file));
  }
  await Deno.chmod(join(root, "hooks", "run"), 0o755);
  // Exactly what the compiled binary would run: the bundle (or the empty script), no config
  // file, the binary's permissions.
  const standIn = `#!/bin/sh\nexec '${Deno.execPath()}' run --no-config --quiet --no-prompt ` +
    `${BINARY_PERMISSIONS.join(" ")} '${script}' "$@"\n`;
  await Deno.writeTextFile(join(root, "dist", binary), standIn, { mode: 0o755 });
  return root;
}

async function oneSession(
  bin: string,
  variant: Variant,
  run: number,
  latencyMs: number,
): Promise<RunResult> {
  const steps = backedSteps(benchSteps(), READINGS.at(-1)! + 500);
  const stub = startApiStub({ main: steps.map((step) => ({ ...step, latencyMs })) });
  const debugFile = join(variant.tmp, `debug-${variant.name}-${run}.log`);
  const started = performance.now();
  try {
    const out = await new Deno.Command(bin, {
      args: [
        "-p",
        "Run the scripted commands.",
        "--output-format",
        "json",
        "--allowedTools",
        "Bash",
        "--plugin-dir",
        variant.root,
        "--model",
        MODEL,
        "--debug-file",
        debugFile,
      ],
      cwd: variant.tmp,
      clearEnv: true,
      env: baseEnv({
        HOME: variant.home,
        TMPDIR: variant.tmp,
        ANTHROPIC_BASE_URL: stub.url,
        ANTHROPIC_API_KEY: "sk-ant-test",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST,
        // Every hook says what it did in its record (how long it waited, for one).
        LESSONS_DEBUG: "1",
        ...variant.env,
      }),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const sessionMs = performance.now() - started;
    const problems: string[] = [];
    if (out.code !== 0) {
      problems.push(
        `claude exited ${out.code}: ${new TextDecoder().decode(out.stderr).slice(0, 200)}`,
      );
    }
    const debugLog = await Deno.readTextFile(debugFile).catch(() => "");
    const hooks = hookTimings(debugLog);
    const starts = hookTimings(debugLog, "SessionStart:startup");
    const { ids, crossing } = benchCalls();
    if (hooks.length !== ids.length) {
      problems.push(`${hooks.length} PostToolUse:Bash hook runs, not ${ids.length}`);
    }
    if (hooks.some((h) => h.status !== 0)) problems.push("a hook exited non-zero");
    const main = stub.requests.filter((r) => r.route === "main");
    const responses = READINGS.length + 1;
    if (main.length !== responses) problems.push(`${main.length} model requests, not ${responses}`);
    const unbacked = unbackedSteps(stub.requests);
    if (unbacked.length) {
      problems.push(`steps not backed by their bytes: ${JSON.stringify(unbacked)}`);
    }
    const gaps = main.slice(1).map((r, i) => r.at - main[i]!.at);
    const delivered = refreshesDelivered(main);
    // A cadence point never makes a call wait: its refresh may come on the call after the crossing.
    for (const [id, label] of crossing) {
      const next = ids[ids.indexOf(id) + 1];
      if (!/k$/.test(label) || next === undefined || delivered.get(id) !== "") continue;
      if (delivered.get(next) === label) [delivered.set(id, label), delivered.set(next, "")];
    }
    for (const id of ids) {
      const got = delivered.get(id);
      const want = variant.hook ? crossing.get(id) ?? "" : "";
      // On 1M an earlier commit has its own schedule: only that its calls reached the model.
      const own = !LARGE || !variant.name.startsWith("at ");
      if (got === undefined) problems.push(`no request carried the result of ${id}`);
      else if (own && got !== want) {
        problems.push(`${id}: refresh "${got}" reached the model, expected "${want}"`);
      }
    }
    const transcript = variant.hook ? await newestTranscript(variant.home) : undefined;
    const early = transcript && variant.name === "ours"
      ? callsAnsweredEarly(transcript, ids)
      : undefined;
    const waited = transcript &&
      [...new TextDecoder().decode(transcript).matchAll(/\(waited (\d+) ms for its entry/g)].map(
        (m) => Number(m[1]),
      );
    return {
      variant: variant.name,
      ...(waited ? { waited } : {}),
      hooks,
      starts,
      gaps,
      problems,
      sessionMs,
      ...(early === undefined ? {} : { early }),
    };
  } finally {
    await stub.close();
  }
}

interface Summary {
  name: string;
  runs: number;
  calls: number;
  median: number;
  p95: number;
  firing: number;
  quiet: number;
  /** Non-firing calls the ceiling lets answer at once, and the others (which wait when late). */
  atOnce: number;
  mayWait: number;
  gap: number;
  session: number;
  /** Median SessionStart startup hook, ms. */
  start: number;
  /** Per hook run that waited for its own entry, how long. */
  waited: number[];
}

function summarize(name: string, results: RunResult[], early: ReadonlySet<string>): Summary {
  const all = results.flatMap((r) => r.hooks.map((h) => h.ms));
  // Hook runs come in call order (a parallel pair's two may swap; neither fires).
  const { ids, crossing } = benchCalls();
  const firingCalls = new Set([...crossing.keys()].map((id) => ids.indexOf(id)));
  const firing = results.flatMap((r) =>
    r.hooks.filter((_, i) => firingCalls.has(i)).map((h) => h.ms)
  );
  const quiet = results.flatMap((r) =>
    r.hooks.filter((_, i) => !firingCalls.has(i)).map((h) => h.ms)
  );
  const earlyCalls = new Set([...early].map((id) => ids.indexOf(id)));
  const quietWhere = (atOnce: boolean) =>
    results.flatMap((r) =>
      r.hooks.filter((_, i) => !firingCalls.has(i) && earlyCalls.has(i) === atOnce)
        .map((h) => h.ms)
    );
  return {
    name,
    runs: results.length,
    calls: all.length,
    median: median(all),
    p95: percentile(all, 95),
    firing: median(firing),
    quiet: median(quiet),
    atOnce: median(quietWhere(true)),
    mayWait: median(quietWhere(false)),
    gap: median(results.flatMap((r) => r.gaps)),
    session: median(results.map((r) => r.sessionMs)),
    start: median(results.flatMap((r) => r.starts.map((h) => h.ms))),
    waited: results.flatMap((r) => r.waited ?? []),
  };
}

async function git(...args: string[]): Promise<string | undefined> {
  const out = await new Deno.Command("git", { args: ["-C", ROOT, ...args], stderr: "null" })
    .output().catch(() => undefined);
  return out?.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
}

function renderReport(info: {
  date: string;
  tree: string;
  claude: string;
  machine: string;
  load: number[][];
  runs: number;
  ours: Summary;
  floor: Summary;
  /** Compared commits' hooks, each as ours is. */
  compared: Summary[];
  delivered: number;
  /** The stand-in's answer time, ms. */
  latency: number;
  /** Per run of ours, the calls the ceiling lets answer without waiting. */
  early: string[][];
  excluded: string[];
}): string {
  const { ours, floor } = info;
  const f = (n: number) => Number.isFinite(n) ? (Math.round(n * 10) / 10).toFixed(1) : "n/a";
  const ratio = (a: number, b: number) => Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : "n/a";
  const calls = crossingCalls().map((c, k) => `${POINTS[k]!.label} on response ${c + 1}`).join(
    ", ",
  );
  const waits = ({ waited }: Summary) =>
    `${waited.length}${
      waited.length ? ` (a median ${f(median(waited))} ms, longest ${Math.max(...waited)} ms)` : ""
    }`;
  const percentText = (tokens: number) => `${Math.round((tokens / WINDOW) * 100)} %`;
  const rows = [ours, ...info.compared, floor].map((s) =>
    `| ${s.name} | ${s.runs} | ${s.calls} | ${f(s.median)} | ${f(s.p95)} | ${f(s.quiet)} | ${
      f(s.atOnce)
    } | ${f(s.mayWait)} | ${f(s.firing)} | ${f(s.gap)} | ${f(s.session / 1000)} |`
  );
  return [
    `### In a real session (\`deno task bench --in-session\`)`,
    "",
    `${info.date}, ${info.tree}, Claude Code ${info.claude} (\`${MODEL}\`), ${info.machine}; ` +
    `load average ${info.load.map((l) => l.map((x) => x.toFixed(2)).join(" ")).join(" → ")}.`,
    "",
    `Each run is a fresh \`claude -p\` session replaying the climb of a real one (the first ` +
    `context of the public v2.1.185 transcript, first-party \`claude-sonnet-4-6\`): ` +
    `${READINGS.length} responses from ${percentText(READINGS[0]!)} to ` +
    `${percentText(READINGS.at(-1)!)} of a ${LARGE ? "1M" : "200k"} window` +
    `${
      LARGE
        ? ` (on ${MODEL}, the readings 1.5 times the recorded ones, a step too large for one Bash result split)`
        : ""
    }` +
    ` (refreshes due: ${calls}), each with a ` +
    `Bash call printing what carries the growth to the next reading at ${TOKENS_PER_BYTE} tokens ` +
    `per byte (${benchCalls().ids.length} calls: one step of 22,669 tokens takes two), against ` +
    `the loopback API stand-in, which answers ${
      info.latency ? `each request after ${info.latency} ms, as a model takes` : "at once"
    }. **ours**: hooks/run → dist/.entry → a stand-in binary ` +
    `that execs \`deno run --no-config ${BINARY_PERMISSIONS.join(" ")}\` of the bundle; ` +
    `**floor**: the same launcher and stand-in running an empty script that reads stdin` +
    (info.compared.length
      ? `; **${info.compared.map((c) => c.name).join("**, **")}**: that commit's own bundle`
      : "") +
    `. The variants alternate run by run (${info.runs} each, each leading in turn). Hook ms are Claude ` +
    `Code's own (\`--debug-file\`: \`Hooks: PostToolUse:Bash ... finished with status 0 (N ms)\`); ` +
    `the gap is arrival to arrival of consecutive model requests at the stand-in.`,
    "",
    "| variant | runs | hook runs | median ms | p95 ms | median, non-firing calls | of which answered at once | of which may wait | median, firing calls | median gap between requests, ms | median session, s |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
    `Median hook: **${ratio(ours.median, floor.median)} the floor** (${f(ours.median)} vs ${
      f(floor.median)
    } ms; target 1.25x); p95 ${ratio(ours.p95, floor.p95)} (target 1.6x; ${f(ours.p95)} vs ${
      f(floor.p95)
    } ms); non-firing calls ${ratio(ours.quiet, floor.quiet)}: those the ceiling lets answer at ` +
    `once ${ratio(ours.atOnce, floor.atOnce)}, those that wait for their entry when it is late ${
      ratio(ours.mayWait, floor.mayWait)
    }; firing calls ${ratio(ours.firing, floor.firing)} (target 2x); inter-request gap ${
      f(ours.gap)
    } vs ${f(floor.gap)} ms. All three refreshes reached the model, each on the call that ` +
    `crossed, in ${info.delivered} of ${ours.runs} runs of ours. ${earlyText(info.early)} ` +
    `${waits(ours)} of ours' ${ours.calls} calls waited for their own entry (its debug line ` +
    `says so).` +
    info.compared.map((c) =>
      ` **${c.name}**: median ${ratio(c.median, floor.median)} the floor (${f(c.median)} ms), ` +
      `${waits(c)} calls waited for their entry, ` +
      `p95 ${ratio(c.p95, floor.p95)}, firing calls ${ratio(c.firing, floor.firing)}; ours ` +
      `against it: median ${ratio(ours.median, c.median)}, p95 ${ratio(ours.p95, c.p95)}, ` +
      `firing ${ratio(ours.firing, c.firing)}.`
    ).join("") +
    (info.excluded.length ? ` Left out: ${info.excluded.join("; ")}.` : ""),
  ].join("\n");
}

/** "The ceiling let N of M calls answer without waiting ..." over the runs of ours. */
function earlyText(runs: string[][]): string {
  if (runs.length === 0) return "";
  const early = runs.map((r) => r.length);
  const calls = benchCalls().ids.length;
  const low = Math.min(...early);
  const high = Math.max(...early);
  const range = low === high ? `${low}` : `${low}-${high}`;
  return `The ceiling let ${range} of the ${calls} calls of a session answer without waiting for ` +
    `their own transcript entry, even had it come late (the hook's own reading and ceiling on ` +
    `each transcript cut before the call's entry); the others wait for it when it is late.`;
}

const BEGIN = "<!-- bench-in-session:begin (written by deno task bench --in-session) -->";
const END = "<!-- bench-in-session:end -->";

/** The benchmarks document, where the standalone benchmark writes too. */
const BENCHMARKS_FILE = join(ROOT, "docs", "maintainers", "benchmarks.md");

async function writeReport(report: string): Promise<string> {
  const path = BENCHMARKS_FILE;
  const current = await Deno.readTextFile(path).catch(() => "# Benchmarks\n");
  const block = `${BEGIN}\n\n${report}\n\n${END}`;
  const next = current.includes(BEGIN) && current.includes(END)
    ? current.slice(0, current.indexOf(BEGIN)) + block +
      current.slice(current.indexOf(END) + END.length)
    : `${current.trimEnd()}\n\n${block}\n`;
  await Deno.writeTextFile(path, next);
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", path], cwd: ROOT }).output();
  return path;
}

/**
 * hooks/run's own cost: `bash -c '"<root>/hooks/run"'` in front of /bin/true as the binary, for
 * the launcher at git commit `ref` and the working tree's, against `bash -c /bin/true`, alternating
 * call by call. Returns a Markdown paragraph with the medians and 10th percentiles.
 */
async function launcherOverhead(ref: string, tmp: string, calls = 400): Promise<string> {
  const target = targetFor(Deno.build.os, Deno.build.arch);
  if (!target) throw new Error("no release target for this platform");
  const roots: [string, string][] = [];
  // A branch name moves: the report names the commit.
  const commit = await git("rev-parse", "--short", ref) ?? ref;
  for (
    const [name, text] of [
      [`hooks/run at ${commit}`, await git("show", `${ref}:hooks/run`)],
      ["hooks/run now", await Deno.readTextFile(join(ROOT, "hooks", "run"))],
    ] as const
  ) {
    if (text === undefined) throw new Error(`no hooks/run at ${ref}`);
    const root = join(tmp, `launcher-${roots.length}`);
    await Deno.mkdir(join(root, "hooks"), { recursive: true });
    await Deno.mkdir(join(root, "dist"), { recursive: true });
    await Deno.writeTextFile(join(root, "hooks", "run"), text.endsWith("\n") ? text : `${text}\n`, {
      mode: 0o755,
    });
    await Deno.copyFile("/bin/true", join(root, "dist", assetName(target)));
    await Deno.chmod(join(root, "dist", assetName(target)), 0o755);
    roots.push([name, `"${join(root, "hooks", "run")}"`]);
  }
  const cases: [string, string][] = [...roots, ["/bin/true alone", "/bin/true"]];
  const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  const once = async (command: string) => {
    const started = performance.now();
    await new Deno.Command("bash", { args: ["-c", command], stdin: "null", stdout: "null" })
      .output();
    return performance.now() - started;
  };
  for (const [, command] of cases) await once(command); // the first call writes dist/.entry
  for (let i = 0; i < calls; i++) {
    for (const [name, command] of i % 2 ? cases : [...cases].reverse()) {
      times.get(name)!.push(await once(command));
    }
  }
  const f = (n: number) => n.toFixed(2);
  const parts = cases.map(([name]) => {
    const list = times.get(name)!;
    return `${name} ${f(median(list))} ms (10th percentile ${f(percentile(list, 10))})`;
  });
  const base = median(times.get("/bin/true alone")!);
  const over = roots.map(([name]) => `${name} ${f(median(times.get(name)!) - base)} ms`);
  return `**The launcher alone** (\`--launcher ${commit}\`, ${calls} calls each, alternating; ` +
    `\`bash -c\` as Claude Code runs a hook command, /bin/true as the binary, load average ` +
    `${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}): median ${parts.join(", ")}. Above ` +
    `/bin/true alone: ${over.join(", ")}.`;
}

/** The variant without a binary running its source's bundle. */
const SOURCE_BUNDLE = "no binary: source bundle";
/** The variant without a binary or bundle, running the source. */
const SOURCE = "no binary: source";

/** The bundle the warm-up session of `v` had built, waiting for the build to end. */
async function builtBundle(v: Variant): Promise<{ folder: string; build: string }> {
  const folder = bundleFolder(join(v.home, ".cache"), v.root);
  const until = Date.now() + 120_000;
  for (;;) {
    const building = await Deno.stat(join(folder, "building")).then(() => true, () => false);
    const build = currentBuild(folder);
    if (build && !building) return { folder, build };
    if (Date.now() > until) {
      const log = await Deno.readTextFile(join(folder, "build.log")).catch(() => "no log");
      throw new Error(`${v.name}: no bundle after the warm-up session: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The variants without a binary against ours (the release's path), paired in the same rounds. */
function sourceParagraph(ours: Summary, sources: Summary[]): string {
  const f = (n: number) => Number.isFinite(n) ? n.toFixed(1) : "n/a";
  const r = (a: number, b: number) => Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : "n/a";
  return `**Without a binary** (\`--from-source\`: the same plugin with no binary, as every user ` +
    `has it before a release; hooks/run runs the source's bundle, which the warm-up session built, ` +
    `or, without the bundle's files, the source; the release cannot be downloaded, which the ` +
    `warm-up sessions' startup notices said, so the hook answers session start): ` +
    sources.map((s) =>
      `**${s.name}** median ${f(s.median)} ms, ${r(s.median, ours.median)} ours (the release's ` +
      `path, ${f(ours.median)} ms); p95 ${f(s.p95)} ms, ${r(s.p95, ours.p95)}; firing calls ` +
      `${f(s.firing)} ms, ${r(s.firing, ours.firing)}; session start (SessionStart startup, ` +
      `the startup notice) ${f(s.start)} ms against ${f(ours.start)}`
    ).join("; ") + ". Target: the source's bundle within 1.2x of ours.";
}

/** A variant's folder under `tmp`, named after it, with its own home and temp folders, made. */
async function variantFolders(tmp: string, name: string) {
  const dir = join(tmp, name.replace(/[^A-Za-z0-9._-]/g, "_"));
  const folders = { dir, home: join(dir, "home"), tmp: join(dir, "tmp") };
  await Deno.mkdir(folders.home, { recursive: true });
  await Deno.mkdir(folders.tmp, { recursive: true });
  return folders;
}

/** Runs the in-session benchmark with the arguments after `--in-session`. */
export async function inSessionMain(argv: string[]): Promise<number> {
  const { values } = scriptArgs("bench --in-session", IN_SESSION_USAGE, {
    args: argv,
    options: {
      runs: { type: "string", default: "10" },
      "no-write": { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
      launcher: { type: "string" },
      "from-source": { type: "boolean", default: false },
      compare: { type: "string", multiple: true, default: [] },
      latency: { type: "string", default: "0" },
    },
  });
  const runs = Number(values.runs);
  const latency = Number(values.latency);
  if (!Number.isInteger(latency) || latency < 0) {
    throw new TypeError(`Cannot use --latency ${values.latency}`);
  }
  if (!Number.isInteger(runs) || runs < 1) throw new TypeError(`Cannot use --runs ${values.runs}`);
  const target = targetFor(Deno.build.os, Deno.build.arch);
  if (!target || Deno.build.os === "windows") {
    say("the in-session benchmark runs on Linux and macOS (hooks/run with a shell stand-in)");
    return 1;
  }
  const cli = await locateClaude();
  if ("problem" in cli) {
    say(`cannot get Claude Code: ${cli.problem}`);
    return 1;
  }
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "lessons-bench-session-" }));
  try {
    const bundle = join(tmp, "lessons-reinject.js");
    await buildBundle(bundle, ROOT);
    const empty = join(tmp, "empty.js");
    // The same empty hook as the standalone benchmark's floor: it reads stdin with read(), as the
    // hook does (web streams would load Deno's streams code, about 5 ms, and flatter the ratio).
    await Deno.writeTextFile(
      empty,
      "const b = new Uint8Array(65536);\nwhile ((await Deno.stdin.read(b)) !== null);\n",
    );

    const scripts: [string, string, boolean][] = [["ours", bundle, true], ["floor", empty, false]];
    for (const ref of values.compare) {
      const commit = await git("rev-parse", "--short", ref) ?? ref;
      scripts.push([`at ${commit}`, await buildBundleAt(ref, tmp), true]);
    }
    const variants: Variant[] = [];
    for (const [name, script, hook] of scripts) {
      const { dir, home, tmp: work } = await variantFolders(tmp, name);
      variants.push({
        name,
        hook,
        root: await pluginWith(dir, script, assetName(target)),
        home,
        tmp: work,
      });
    }
    if (values["from-source"]) {
      for (const [name, bundled] of [[SOURCE_BUNDLE, true], [SOURCE, false]] as const) {
        const { dir, home, tmp: work } = await variantFolders(tmp, name);
        variants.push({
          name,
          hook: true,
          root: await pluginCopy(join(dir, "plugin"), true, bundled),
          home,
          tmp: work,
          // As before the first release: the download fails at once (nothing listens there), the
          // startup notice says so once a day, and the hook answers the other session starts.
          env: { LESSONS_REINJECT_RELEASE_URL: "http://127.0.0.1:9/rel" },
          source: bundled,
        });
      }
    }
    // Warm-up, untimed: Deno's code cache, the page cache, and the launcher's first call, which
    // checks the stand-in and names it in dist/.entry (without a binary: builds the bundle).
    const bundles = new Map<Variant, { folder: string; build: string }>();
    for (const v of variants) {
      const warm = await oneSession(cli.bin, v, -1, latency);
      if (warm.problems.length) say(`warm-up ${v.name}: ${warm.problems.join("; ")}`);
      if (v.source !== undefined) {
        // The first session start said the download started, the second that it failed: the
        // notice then stays silent for a day and the hook answers session start, as for a user.
        const again = await oneSession(cli.bin, v, -2, latency);
        if (again.problems.length) say(`warm-up ${v.name}: ${again.problems.join("; ")}`);
        if (v.source) bundles.set(v, await builtBundle(v));
        continue;
      }
      const entry = await Deno.readTextFile(join(v.root, "dist", ".entry")).catch(() => "");
      if (entry.trim() !== assetName(target)) {
        throw new Error(
          `${v.name}: hooks/run did not take its common path (dist/.entry: "${entry}")`,
        );
      }
    }
    const loadBefore = Deno.loadavg();
    const startedAt = new Date();
    const results: RunResult[] = [];
    for (let run = 0; run < runs; run++) {
      // Each variant leads in turn, and the order flips every other round.
      const turned = [
        ...variants.slice(run % variants.length),
        ...variants.slice(0, run % variants.length),
      ];
      const order = Math.floor(run / variants.length) % 2 === 0 ? turned : turned.reverse();
      for (const v of order) results.push(await oneSession(cli.bin, v, run, latency));
      Deno.stderr.writeSync(encoder.encode(`\r  run ${run + 1}/${runs}`));
    }
    say("");
    const good = (name: string) => results.filter((r) => r.variant === name && !r.problems.length);
    const excluded = results.filter((r) => r.problems.length).map((r) =>
      `a ${r.variant} run (${r.problems.slice(0, 2).join("; ")})`
    );
    const cpu = /model name\s*:\s*(.+)/.exec(
      await Deno.readTextFile("/proc/cpuinfo").catch(() => ""),
    )
      ?.[1];
    const commit = await git("rev-parse", "--short", "HEAD");
    const dirty = await git(
      "status",
      "--porcelain",
      "--",
      "src",
      "hooks",
      "deno.json",
      "deno.lock",
    );
    const launcher = values.launcher ? await launcherOverhead(values.launcher, tmp) : undefined;
    // The same calls of each variant's sessions, split by what ours could do on them: the ceiling's
    // verdict is the transcript's, the same in every run (kept only where every run agrees).
    const earlyRuns = good("ours").flatMap((r) => r.early === undefined ? [] : [r.early]);
    const earlyIds = new Set(
      earlyRuns[0]?.filter((id) => earlyRuns.every((run) => run.includes(id))) ?? [],
    );
    const sessions = renderReport({
      date: startedAt.toISOString().replace(/\.\d+Z$/, "Z"),
      tree: commit ? `commit ${commit}${dirty ? " with uncommitted changes" : ""}` : "no git",
      claude: cli.version,
      machine: `${navigator.hardwareConcurrency} CPUs${
        cpu ? ` (${cpu})` : ""
      }, Deno ${Deno.version.deno}`,
      load: [loadBefore, Deno.loadavg()],
      runs,
      ours: summarize("ours", good("ours"), earlyIds),
      floor: summarize("floor", good("floor"), earlyIds),
      compared: variants.filter((v) => v.hook && v.name !== "ours" && v.source === undefined).map((
        v,
      ) => summarize(v.name, good(v.name), earlyIds)),
      delivered: good("ours").length,
      latency,
      early: earlyRuns,
      excluded,
    });
    // The bundle must have served every timed session: no rebuild, no build started.
    const rebuilt = [...bundles].filter(([, b]) => currentBuild(b.folder) !== b.build);
    const sourceNote = bundles.size === 0 ? "" : `\n\n${
      sourceParagraph(
        summarize("ours", good("ours"), earlyIds),
        variants.filter((v) => v.source !== undefined).map((v) =>
          summarize(v.name, good(v.name), earlyIds)
        ),
      )
    } ${
      rebuilt.length
        ? `**The bundle was rebuilt during the timed sessions** (${rebuilt.map(([v]) => v.name)}).`
        : "The bundle served every timed session (its build did not change)."
    }`;
    const report = `${launcher ? `${sessions}\n\n${launcher}` : sessions}${sourceNote}`;
    print(report);
    if (!values["no-write"]) say(`wrote ${await writeReport(report)}`);
    return excluded.some((e) => e.includes("ours")) ? 1 : 0;
  } finally {
    if (values.keep) say(`kept ${tmp}`);
    else await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) Deno.exit(await inSessionMain(Deno.args));
