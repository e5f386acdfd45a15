/**
 * `deno task bench`: times the hook as Claude Code runs it (a fresh process, payload on stdin,
 * answer on stdout) on 1 MiB, 100 MiB and 1 GiB transcripts, paired run by run with the floor
 * (`deno run --no-config` of a script that reads its stdin), and writes the table to
 * docs/maintainers/benchmarks.md. `--compare REF` runs an earlier commit's bundle in the same
 * rounds.
 */
import { buildBundle } from "../scripts/bundle.ts";
import { buildBundleAt } from "./bundle_at.ts";
import { join } from "node:path";
import { scriptArgs } from "../scripts/script_args.ts";
import { baseEnv, HOOK_PERMISSIONS, RECORDED, ROOT, SAMPLE_MANIFEST } from "../scripts/project.ts";
import { statePaths } from "../src/io/state_store.ts";
import { historyOf, viewOf, withTranscript } from "../src/io/transcript.ts";
import { measure, measurementNote, type RunSpec, type Sample } from "./measure.ts";
import { generateTranscript } from "./transcript_gen.ts";
import { type CaseResult, renderReport, type SizeResult } from "./report.ts";
import {
  type Launchers,
  launchers,
  type LauncherVariant,
  RELEASE,
  SOURCE,
  SOURCE_BUNDLE,
} from "./launchers.ts";

const USAGE = `deno task bench [--runs N] [--sizes 1MiB,100MiB,1GiB] [--source FILE] [--no-write]

  --runs N       timed runs per case and size (default 20, at least 15 for the report)
  --sizes LIST   transcript sizes (KiB, MiB, GiB suffixes)
  --source FILE  the real transcript to repeat (default: the recorded 2.1.328 one)
  --compare REF  also time the bundle of git commit REF in the same rounds (repeatable)
  --no-write     print the table, leave docs/maintainers/benchmarks.md alone
  --launchers    also time hooks/run as users run it: with the release's binary (a stand-in that
                 runs the bundle), and with no binary, from the source's bundle and from source
                 (bench/launchers.ts), paired in the same rounds

deno task bench --in-session [--runs N] [--compare REF] [--latency MS] [--launcher REF] [--no-write]
                             [--keep]
  real Claude Code, a scripted 20-call session, against an empty hook (bench/in_session.ts)`;

const encoder = new TextEncoder();
/** A progress line on stderr. */
const say = (text: string) => Deno.stderr.writeSync(encoder.encode(`${text}\n`));
/** The report on stdout. */
const print = (text: string) => Deno.stdout.writeSync(encoder.encode(`${text}\n`));

const TOOL_USE_ID = "toolu_01BenchThisCallXXXXXXXXXX";
/** A tool call whose assistant entry is not in the transcript yet. */
const LAG_TOOL_USE_ID = "toolu_01BenchNotWrittenYetXXXXX";
/** The lag case's window: its reading is 11 %, its only threshold 70 %. */
const LAG_WINDOW = 1_000_000;
/** Lessons in the firing cases' manifest (the issue's firing target is for 100). */
const MANIFEST_LESSONS = 100;
const WINDOW = 200_000;
/** The reading of the benchmark's call: 55 % of the window, between thresholds 52 and 70. */
const TOKENS = 110_000;

function parseSize(text: string): number {
  const match = /^([0-9.]+)\s*(KiB|MiB|GiB|KB|MB|GB)?$/i.exec(text.trim());
  if (!match?.[1]) throw new TypeError(`Cannot parse size "${text}"`);
  const unit = (match[2] ?? "MiB").toLowerCase()[0];
  const factor = unit === "k" ? 1024 : unit === "g" ? 1024 ** 3 : 1024 ** 2;
  return Math.round(Number(match[1]) * factor);
}

function sizeLabel(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(2)} GiB`;
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${+(bytes / 1024).toFixed(1)} KiB`;
}

/**
 * The assistant entry for the benchmark's tool call, shaped like the recorded ones, then its
 * result, as Claude Code writes them before the next call (a call whose own entry is not written
 * yet finds the transcript caught up to the response before it).
 */
function lastLines(sourceText: string, sessionId: string): string {
  const assistant = sourceText.split("\n").filter((l) => l.includes('"type":"assistant"')).at(-1);
  if (!assistant) throw new Error("the source transcript has no assistant entry");
  const entry = JSON.parse(assistant);
  entry.uuid = crypto.randomUUID();
  entry.sessionId = sessionId;
  entry.timestamp = new Date().toISOString();
  entry.message.id = `msg_01Bench${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  entry.message.content = [{
    type: "tool_use",
    id: TOOL_USE_ID,
    name: "Bash",
    input: { command: "echo bench", description: "bench" },
  }];
  Object.assign(entry.message.usage, {
    input_tokens: 2,
    cache_creation_input_tokens: 998,
    cache_read_input_tokens: TOKENS - 1000,
  });
  const user = sourceText.split("\n").find((l) => l.includes('"tool_result"'));
  if (!user) throw new Error("the source transcript has no tool_result entry");
  const result = JSON.parse(user);
  Object.assign(result, { uuid: crypto.randomUUID(), sessionId, timestamp: entry.timestamp });
  result.message.content = [{ tool_use_id: TOOL_USE_ID, type: "tool_result", content: "bench" }];
  return `${JSON.stringify(entry)}\n${JSON.stringify(result)}`;
}

interface Case {
  name: string;
  /** Runs before each timed run (untimed): puts the state where this case needs it. */
  prepare?: () => Promise<void>;
  spec: RunSpec;
  /** Why the run is not what this case measures, or undefined when it is. */
  check: (sample: Sample) => string | undefined;
  /** Held to a target: the steady non-firing call, or the firing call. */
  target?: "steady" | "firing";
}

function answerOf(stdout: string): string | undefined {
  try {
    return JSON.parse(stdout)?.hookSpecificOutput?.additionalContext;
  } catch {
    return undefined;
  }
}

/** Bytes written since the last refresh, in the steady non-firing case (see its priming). */
const SINCE_REFRESH = 192 * 1024;

async function writeState(path: string, state: unknown): Promise<void> {
  await Deno.writeTextFile(path, JSON.stringify(state), { mode: 0o600 });
}

/** The state file's name before one digest named it (`lessons-<sha256(session)[:16]>`). */
async function legacyStatePath(dir: string, sessionId: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(sessionId));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  return join(dir, `lessons-${hex.slice(0, 16)}-reinject.json`);
}

/**
 * A manifest of `count` enabled directives and protocols made from the sample's lessons, with new
 * ids, slugs, priorities and tags: more than 10,000 characters whole, so the layout summarizes.
 */
async function writeManifest(path: string, count: number): Promise<void> {
  const sample = JSON.parse(await Deno.readTextFile(SAMPLE_MANIFEST));
  const base = Object.values(sample.lessons) as Record<string, unknown>[];
  const lessons: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const from = base[i % base.length]!;
    lessons[`01JBENCH${String(i).padStart(18, "0")}`] = {
      ...from,
      slug: `${from.slug}-${i}`,
      type: i % 3 === 2 ? "protocol" : "directive",
      priority: 1 + (i * 7) % 10,
      tags: [`topic:t${i % 6}`],
      disabled: null,
      scope: null,
      summary: `${from.summary} (variant ${i})`,
    };
  }
  await Deno.writeTextFile(path, JSON.stringify({ ...sample, lessons }));
}

/**
 * A project as the firing case reads it: `cwd` a folder inside a git checkout whose CLAUDE.md has
 * a marked section and whose `.claude/reinject.md` holds rules, and a user folder whose CLAUDE.md
 * has one too (docs/own-rules.md): every own-rules source a firing call looks at, found or not.
 */
async function writeProject(tmp: string) {
  const root = join(tmp, "project");
  const cwd = join(root, "pkg");
  const home = join(tmp, "home");
  const claudeDir = join(home, ".claude");
  for (const dir of [join(root, ".git"), join(root, ".claude"), cwd, claudeDir]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  const claudeMd = (who: string) =>
    `# Notes for ${who}\n\nText the hook leaves alone.\n\n<!-- reinject -->\n` +
    `- Run the tests before every commit (${who}).\n- Never edit the main checkout.\n` +
    `<!-- /reinject -->\n\n${"More notes the hook leaves alone. ".repeat(100)}\n`;
  await Deno.writeTextFile(join(root, "CLAUDE.md"), claudeMd("the project"));
  await Deno.writeTextFile(join(claudeDir, "CLAUDE.md"), claudeMd("the user"));
  await Deno.writeTextFile(join(root, ".claude", "reinject.md"), "- Name files in snake_case.\n");
  return { cwd, home, claudeDir };
}

async function benchSize(
  targetBytes: number,
  runs: number,
  tmp: string,
  source: string,
  bundle: string,
  floor: string,
  manifest: string,
  compared: ReadonlyMap<string, string>,
  launched: readonly LauncherVariant[],
): Promise<SizeResult> {
  const sourceText = await Deno.readTextFile(source);
  const transcript = join(tmp, `transcript-${targetBytes}.jsonl`);
  const session = (kind: string) => `bench-${kind}-${targetBytes}`;
  const started = performance.now();
  const generated = await generateTranscript({
    sourcePath: source,
    outPath: transcript,
    targetBytes,
    lastLine: lastLines(sourceText, session("quiet")),
  });
  const generateSeconds = (performance.now() - started) / 1000;
  say(
    `  generated ${sizeLabel(generated.bytes)} (${generated.lines} lines) in ${
      generateSeconds.toFixed(1)
    } s`,
  );

  const stateDir = join(tmp, "state");
  const project = await writeProject(tmp);
  const env = baseEnv({
    LESSONS_STATE_DIR: stateDir,
    LESSONS_MANIFEST_PATH: manifest,
    LESSONS_CONTEXT_WINDOW: String(WINDOW),
    TMPDIR: tmp,
    // The user's folder is the bench's own: never the developer's real CLAUDE.md.
    HOME: project.home,
    CLAUDE_CONFIG_DIR: project.claudeDir,
  });
  // The call whose own entry is not written yet, far below the next threshold: 110,000 tokens
  // of 1,000,000 with 70 % the only threshold (what a waiting hook polls 250 ms for).
  const lagEnv = {
    ...env,
    LESSONS_CONTEXT_WINDOW: String(LAG_WINDOW),
    LESSONS_REINJECT_THRESHOLDS: "70",
  };
  const payloadFor = (kind: string, toolUseId = TOOL_USE_ID) => {
    const payload = JSON.parse(
      Deno.readTextFileSync(join(ROOT, "tests", "fixtures", "payloads", "PostToolUse.Bash.json")),
    );
    Object.assign(payload, {
      session_id: session(kind),
      transcript_path: transcript,
      tool_use_id: toolUseId,
      tool_input: { command: "echo bench", description: "bench" },
      cwd: project.cwd,
    });
    return new TextEncoder().encode(JSON.stringify(payload));
  };
  const [sizeEnv, sizeLagEnv] = [env, lagEnv];
  const deno = [Deno.execPath(), "run", "--quiet", "--no-prompt", ...HOOK_PERMISSIONS];
  // The bundle and the floor run without a config file, as the compiled binary does.
  const denoBare = [...deno, "--no-config"];
  const quiet = payloadFor("quiet");
  const first = payloadFor("first");
  const firstPaths = statePaths(stateDir, session("first"));

  const silent = (s: Sample) =>
    s.code !== 0 ? `exit ${s.code}` : s.stdout !== "" ? "answered (expected silence)" : undefined;
  const fired = (expect: string) => (s: Sample) =>
    s.code !== 0
      ? `exit ${s.code}`
      : answerOf(s.stdout)?.startsWith(`[lessons-reinject refresh ${expect} `)
      ? undefined
      : `no refresh ${expect}: ${s.stdout.slice(0, 80)}`;
  const dropState = () => Deno.remove(firstPaths.state).catch(() => {});
  const forgetResult = async (path: string) => {
    const state = JSON.parse(await Deno.readTextFile(path));
    delete state.results?.[LAG_TOOL_USE_ID];
    await Deno.writeTextFile(path, JSON.stringify(state));
  };

  // The bundle under test and each compared commit's: own sessions, each primed on its own (the
  // state file's name may differ between versions).
  // With --launchers, also hooks/run as users run it (bench/launchers.ts), each primed likewise.
  const variants = [
    { label: "hook bundle", cmd: [...denoBare, bundle], extra: {}, target: true },
    ...[...compared].map(([ref, file]) => ({
      label: `bundle of ${ref}`,
      cmd: [...denoBare, file],
      extra: {},
      target: false,
    })),
    ...launched.map((l) => ({ label: l.label, cmd: l.cmd, extra: l.env, target: false })),
  ];
  let debugLine = "";
  let lagLine = "";
  const cases: Case[] = [
    { name: "floor", spec: { cmd: [...denoBare, floor], stdin: quiet, env }, check: floorCheck },
    {
      name: "hook src, non-firing",
      spec: { cmd: [...deno, join(ROOT, "src", "main.ts")], stdin: quiet, env },
      check: silent,
    },
  ];
  for (const [i, variant] of variants.entries()) {
    const tag = `v${i}`;
    const steady = payloadFor(`quiet-${tag}`);
    const lag = payloadFor(`lag-${tag}`, LAG_TOOL_USE_ID);
    const fire = payloadFor(`fire-${tag}`);
    const cmd = variant.cmd;
    const env = { ...sizeEnv, ...variant.extra };
    const lagEnv = { ...sizeLagEnv, ...variant.extra };
    // Prime the steady state: the first call fires 30 and 52; every later one at 55 % is silent.
    const primed = await measure({ cmd, stdin: steady, env });
    if (!answerOf(primed.stdout)) {
      throw new Error(`${variant.label}: priming did not fire: ${primed.stdout} ${primed.stderr}`);
    }
    await measure({ cmd, stdin: lag, env: lagEnv }); // writes the lag session's state file
    // As between two thresholds of a real session: 192 KiB written since the last refresh, which
    // every later call looks through for a compaction no event reported (the look is recorded
    // as done only past 256 KiB), and the refresh's receipt seen (Claude Code records it before
    // the next call). Priming alone would leave nothing to look through and a receipt pending.
    for (
      const path of [
        (statePaths(stateDir, session(`quiet-${tag}`))).state,
        await legacyStatePath(stateDir, session(`quiet-${tag}`)),
      ]
    ) {
      const state = await Deno.readTextFile(path).then(JSON.parse).catch(() => undefined);
      if (!state) continue;
      const delivered = Array.isArray(state.deliveries)
        ? { deliveries: state.deliveries.map((d: object) => ({ ...d, status: "delivered" })) }
        : {};
      await writeState(path, { ...state, firedAt: generated.bytes - SINCE_REFRESH, ...delivered });
    }
    if (variant.target) {
      const debug = await measure({ cmd, stdin: steady, env: { ...env, LESSONS_DEBUG: "1" } });
      debugLine = debug.stderr.trim();
      if (!debugLine.includes("tool_use match")) {
        throw new Error(`the hook did not find this call's entry: ${debugLine}`);
      }
      const lagged = await measure({ cmd, stdin: lag, env: { ...lagEnv, LESSONS_DEBUG: "1" } });
      lagLine = lagged.stderr.trim();
    }
    // The firing call: 30 has fired, the reading of 55 % crosses 52.
    const fireState = {
      fired: [30],
      toolCount: 0,
      epoch: 0,
      firedPercent: 31,
      firedAt: generated.bytes - 1,
    };
    const firePaths = [
      (statePaths(stateDir, session(`fire-${tag}`))).state,
      await legacyStatePath(stateDir, session(`fire-${tag}`)),
    ];
    const resetFire = async () => {
      for (const path of firePaths) await writeState(path, fireState);
    };
    cases.push(
      {
        name: `${variant.label}, non-firing`,
        spec: { cmd, stdin: steady, env },
        check: silent,
        ...(variant.target ? { target: "steady" as const } : {}),
      },
      {
        name: `${variant.label}, non-firing, own entry not written yet (far below 70 %)`,
        spec: { cmd, stdin: lag, env: lagEnv },
        check: silent,
        // A call's hook runs once: its own result is not in the state yet, as the run before
        // this one left it (the ceiling reads a recorded call the file lacks as an unseen response).
        prepare: () => forgetResult(statePaths(stateDir, session(`lag-${tag}`)).state),
      },
      {
        name: `${variant.label}, firing (${MANIFEST_LESSONS} lessons)`,
        prepare: resetFire,
        spec: { cmd, stdin: fire, env },
        check: fired("52"),
        ...(variant.target ? { target: "firing" as const } : {}),
      },
    );
  }
  cases.push(
    {
      name: "hook bundle, firing with the state file lost (recovery scan)",
      prepare: dropState,
      spec: { cmd: [...denoBare, bundle], stdin: first, env },
      check: fired("30,52"),
    },
    {
      name: "PRD baseline (whole file)",
      spec: { cmd: [...denoBare, join(ROOT, "bench", "prd_baseline.ts")], stdin: quiet, env },
      check: (s) =>
        s.stderr.includes(`baseline tokens=${TOKENS}`)
          ? undefined
          : `failed: ${lastErrorLine(s.stderr)}`,
    },
  );

  // Warm-up: one untimed run of each case (compile caches, page cache).
  for (const c of cases) {
    await c.prepare?.();
    await measure(c.spec);
  }
  const samples = new Map<string, Sample[]>(cases.map((c) => [c.name, []]));
  for (let round = 0; round < runs; round++) {
    // Rotate the order every round, so no case always runs right after another.
    const order = cases.map((_, i) => cases[(i + round) % cases.length]!);
    for (const c of order) {
      await c.prepare?.();
      samples.get(c.name)!.push(await measure(c.spec));
    }
    Deno.stderr.writeSync(encoder.encode(`\r  round ${round + 1}/${runs}`));
  }
  say("");

  const usageScan = withTranscript(
    transcript,
    (s, size) => viewOf(s, size, { toolUseId: TOOL_USE_ID, sidechainFile: false }),
  );
  const firstToken = "00000000"; // no refresh carries it: the recovery scan reads to its limit
  const historyScan = withTranscript(
    transcript,
    (s, size) => historyOf(s, size, firstToken),
  );
  await Deno.remove(transcript);

  const results: CaseResult[] = cases.map((c) => {
    const list = samples.get(c.name)!;
    const problems = list.map(c.check).filter((p): p is string => p !== undefined);
    return {
      name: c.name,
      target: c.target,
      samples: list,
      problems: [...new Set(problems)],
      failedRuns: problems.length,
    };
  });
  return {
    label: sizeLabel(targetBytes),
    bytes: generated.bytes,
    lines: generated.lines,
    debugLine,
    lagLine,
    usageBytesRead: "error" in usageScan ? undefined : usageScan.bytesRead,
    historyBytesRead: "error" in historyScan ? undefined : historyScan.bytesRead,
    cases: results,
  };
}

function floorCheck(s: Sample): string | undefined {
  return s.code === 0 && s.stdout === "" ? undefined : `exit ${s.code}`;
}

function lastErrorLine(stderr: string): string {
  // deno-lint-ignore no-control-regex
  const lines = stderr.replace(/\x1b\[[0-9;]*m/g, "").trim().split("\n").filter((l) =>
    /error/i.test(l)
  );
  return (lines[0] ?? stderr.trim().split("\n").at(-1) ?? "").slice(0, 160);
}

/** `commit abc1234` (plus a note when src/ has uncommitted changes), for the report. */
async function describeTree(): Promise<string> {
  const git = async (...args: string[]) => {
    const out = await new Deno.Command("git", { args: ["-C", ROOT, ...args], stderr: "null" })
      .output().catch(() => undefined);
    return out?.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
  };
  const commit = await git("rev-parse", "--short", "HEAD");
  if (commit === undefined) return `the source tree at ${ROOT} (not a git checkout)`;
  const dirty = await git("status", "--porcelain", "--", "src", "deno.json", "deno.lock");
  return `commit ${commit}${dirty ? " with uncommitted changes in src/" : ""}`;
}

async function machine(): Promise<string[]> {
  const cpuinfo = await Deno.readTextFile("/proc/cpuinfo").catch(() => "");
  const meminfo = await Deno.readTextFile("/proc/meminfo").catch(() => "");
  const model = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1] ?? "unknown";
  const memKiB = Number(/MemTotal:\s*(\d+)/.exec(meminfo)?.[1] ?? NaN);
  return [
    `nproc ${navigator.hardwareConcurrency}, CPU ${model}, memory ${
      (memKiB / 1024 / 1024).toFixed(1)
    } GiB`,
    `${Deno.build.os} ${Deno.osRelease()}, Deno ${Deno.version.deno} (V8 ${Deno.version.v8})`,
  ];
}

async function main(): Promise<number> {
  if (Deno.args[0] === "--in-session") {
    const { inSessionMain } = await import("./in_session.ts");
    return await inSessionMain(Deno.args.slice(1));
  }
  const { values } = scriptArgs("bench", USAGE, {
    args: Deno.args,
    options: {
      runs: { type: "string", default: "20" },
      sizes: { type: "string", default: "1MiB,100MiB,1GiB" },
      source: { type: "string", default: RECORDED },
      "no-write": { type: "boolean", default: false },
      compare: { type: "string", multiple: true, default: [] },
      launchers: { type: "boolean", default: false },
    },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new TypeError(`Cannot use --runs ${values.runs}`);
  const sizes = values.sizes.split(",").map(parseSize);

  const tmp = await Deno.makeTempDir({ prefix: "lessons-bench-" });
  const cleanup = () => {
    try {
      Deno.removeSync(tmp, { recursive: true });
    } catch {
      // already gone
    }
  };
  const onSignal = () => {
    cleanup();
    Deno.exit(130);
  };
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  try {
    const bundle = join(tmp, "lessons-reinject.js");
    await buildBundle(bundle, ROOT);
    const compared = new Map<string, string>();
    for (const ref of values.compare) compared.set(ref, await buildBundleAt(ref, tmp));
    const launched: Launchers | undefined = values.launchers
      ? await launchers(tmp, bundle)
      : undefined;
    // The floor: an empty hook that reads its stdin to the end, as any hook must.
    const floor = join(tmp, "floor.ts");
    await Deno.writeTextFile(
      floor,
      "const b = new Uint8Array(65536);\nwhile ((await Deno.stdin.read(b)) !== null);\n",
    );
    const manifest = join(tmp, "manifest.json");
    await writeManifest(manifest, MANIFEST_LESSONS);
    const loadBefore = Deno.loadavg();
    const startedAt = new Date();
    const results: SizeResult[] = [];
    for (const size of sizes) {
      say(`${sizeLabel(size)}:`);
      results.push(
        await benchSize(
          size,
          runs,
          tmp,
          values.source,
          bundle,
          floor,
          manifest,
          compared,
          launched?.variants ?? [],
        ),
      );
    }
    const report = renderReport({
      date: startedAt.toISOString().replace(/\.\d+Z$/, "Z"),
      tree: await describeTree(),
      command: ["deno task bench", ...Deno.args].join(" "),
      machine: await machine(),
      method: measurementNote(),
      load: [loadBefore, Deno.loadavg()],
      source: values.source.startsWith(ROOT) ? values.source.slice(ROOT.length + 1) : values.source,
      bundleBytes: (await Deno.stat(bundle)).size,
      runs,
      window: WINDOW,
      tokens: TOKENS,
      sizes: results,
      ...(launched
        ? {
          pairs: [
            { name: SOURCE_BUNDLE, against: RELEASE, limit: 1.2 },
            { name: SOURCE, against: RELEASE },
            { name: SOURCE_BUNDLE, against: "hook bundle" },
          ],
          pairNote: launched.check() ??
            "The source bundle served every call of its variant (no rebuild, no build started).",
        }
        : {}),
    });
    print(report);
    if (!values["no-write"]) await writeBenchmarks(report);
    return 0;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
    cleanup();
  }
}

const BEGIN = "<!-- bench:begin (written by deno task bench) -->";
const END = "<!-- bench:end -->";

/** Replaces the generated part of docs/maintainers/benchmarks.md, keeping the text around it. */
async function writeBenchmarks(report: string): Promise<void> {
  const path = join(ROOT, "docs", "maintainers", "benchmarks.md");
  const current = await Deno.readTextFile(path).catch(() => undefined);
  const block = `${BEGIN}\n\n${report}\n\n${END}`;
  let next: string;
  if (current?.includes(BEGIN) && current.includes(END)) {
    next = current.slice(0, current.indexOf(BEGIN)) + block +
      current.slice(current.indexOf(END) + END.length);
  } else {
    next = `# Benchmarks\n\n${block}\n`;
  }
  await Deno.writeTextFile(path, next);
  // Keep the file as `deno fmt` wants it: CI checks formatting.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", path], cwd: ROOT }).output();
  say(`wrote ${path}`);
}

if (import.meta.main) Deno.exit(await main());
