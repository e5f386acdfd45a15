/**
 * Runs the end-to-end suite once per Claude Code release and summarises each run: which
 * scenarios passed, failed (and the first lines of why) or were skipped. For the compatibility
 * table (docs/compatibility.md) and the weekly run against the newest release.
 *
 *     deno task e2e-versions 2.1.337 2.1.332 2.1.328       # "latest" is npm's newest release
 *     deno task e2e-versions --out summary.md --logs logs/ 2.1.337
 *     deno task e2e-versions --repeat 3 --load 2.1.328      # three runs, every core kept busy
 *
 * Each release is installed once, as the suite installs it (scripts/loopback/claude_cli.ts), and
 * the suite runs with `CLAUDE_BIN` pointing at it. Exit code 0 only when every run passed whole.
 */
import { join } from "node:path";
import { installedClaude } from "./loopback/claude_cli.ts";
import { startBurner } from "./loopback/cpu_burner.ts";
import { baseEnv } from "./project.ts";

/** One scenario's outcome, as `deno test --reporter=tap` printed it. */
export interface Outcome {
  name: string;
  status: "ok" | "failed" | "skipped";
  /** For a failure: its message up to the harness's diagnosis, on one line. */
  why?: string;
}

/** One run of the suite on one release. */
export interface Run {
  version: string;
  /** How the run is named in the summary: the release, and which run under what. */
  label?: string;
  /** Why the suite did not run (no such release, npm failed). */
  problem?: string;
  outcomes: Outcome[];
  /** `deno test`'s exit code. */
  code?: number;
  seconds?: number;
  log?: string;
}

/** The outcomes in a TAP 14 report from `deno test --reporter=tap`. */
export function parseTap(text: string): Outcome[] {
  const outcomes: Outcome[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const match = /^(ok|not ok) \d+ - (.*?)( # SKIP.*)?$/.exec(lines[i]!);
    if (!match) continue;
    const name = match[2]!;
    if (match[3]) {
      outcomes.push({ name, status: "skipped" });
    } else if (match[1] === "ok") {
      outcomes.push({ name, status: "ok" });
    } else {
      // The YAML block that follows holds one JSON line with the message.
      let why = "";
      const json = lines[i + 1]?.trim() === "---" ? lines[i + 2]?.trim() : undefined;
      try {
        const message = String(JSON.parse(json ?? "").message ?? "");
        why = message.split("\n--- diagnosis")[0]!.replace(/\s+/g, " ").trim().slice(0, 400);
      } catch {
        why = "(no message)";
      }
      outcomes.push({ name, status: "failed", why });
    }
  }
  return outcomes;
}

/** The summary of several runs, as Markdown. */
export function render(runs: Run[], header: string): string {
  const out = [header, ""];
  out.push("| Claude Code | passed | failed | skipped | time |", "| --- | --- | --- | --- | --- |");
  for (const run of runs) {
    const n = (status: Outcome["status"]) => run.outcomes.filter((o) => o.status === status).length;
    const broken = run.problem ??
      (run.outcomes.length === 0 ? `no results (exit ${run.code})` : "");
    out.push(
      broken
        ? `| ${run.label ?? run.version} | - | - | - | not run: ${broken.replaceAll("|", "/")} |`
        : `| ${run.label ?? run.version} | ${n("ok")} | ${n("failed")} | ${
          n("skipped")
        } | ${run.seconds} s |`,
    );
  }
  for (const run of runs) {
    const failed = run.outcomes.filter((o) => o.status !== "ok");
    if (failed.length === 0 && !run.log) continue;
    out.push("", `## ${run.label ?? run.version}`, "");
    for (const o of failed) {
      out.push(`- ${o.status === "failed" ? "FAILED" : "skipped"}: ${o.name}`);
      if (o.why) out.push(`  - ${o.why}`);
    }
    if (run.log) out.push(`- full log: ${run.log}`);
  }
  return out.join("\n") + "\n";
}

function write(to: { writeSync(p: Uint8Array): number }, line: string): void {
  const bytes = new TextEncoder().encode(line);
  for (let done = 0; done < bytes.length;) done += to.writeSync(bytes.subarray(done));
}

async function text(command: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "null" }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

/**
 * Runs the suite against `version` (a release number or "latest"), logging into `logs`; with
 * `load`, every core is kept busy for the run's length by a bounded CPU burner; `n` numbers the
 * run when a release runs more than once.
 */
async function runSuite(
  version: string,
  logs: string,
  load: boolean,
  n?: number,
): Promise<Run> {
  const wanted = version === "latest"
    ? await text("npm", ["view", "@anthropic-ai/claude-code", "version"])
    : version;
  const cli = await installedClaude(wanted);
  if ("problem" in cli) return { version: wanted, problem: cli.problem, outcomes: [] };
  const label = `${wanted}${n ? ` #${n}` : ""}${load ? " (load)" : ""}`;
  const started = performance.now();
  const burner = load ? startBurner(1_800) : undefined;
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--allow-all", "--reporter=tap", "tests/e2e/"],
      cwd: join(import.meta.dirname ?? ".", ".."),
      env: baseEnv({ CLAUDE_BIN: cli.bin, CI: "true", NO_COLOR: "1" }),
      stdout: "piped",
      stderr: "piped",
    }).output();
  } finally {
    await burner?.stop();
  }
  const stdout = new TextDecoder().decode(out.stdout);
  const log = join(logs, `e2e-${wanted}${n ? `-${n}` : ""}${load ? "-load" : ""}.log`);
  await Deno.writeTextFile(log, `${stdout}\n--- stderr\n${new TextDecoder().decode(out.stderr)}`);
  return {
    version: wanted,
    label,
    outcomes: parseTap(stdout),
    code: out.code,
    seconds: Math.round((performance.now() - started) / 1000),
    log,
  };
}

if (import.meta.main) {
  const args = [...Deno.args];
  const option = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1] : undefined;
  };
  const outFile = option("--out");
  const repeat = Number(option("--repeat") ?? "1");
  const loadAt = args.indexOf("--load");
  const load = loadAt >= 0;
  if (load) args.splice(loadAt, 1);
  const logs = option("--logs") ?? await Deno.makeTempDir({ prefix: "lessons-e2e-versions-" });
  await Deno.mkdir(logs, { recursive: true });
  if (args.length === 0 || !Number.isInteger(repeat) || repeat < 1) {
    write(
      Deno.stderr,
      "usage: deno task e2e-versions [--out FILE] [--logs DIR] [--repeat N] [--load] " +
        "VERSION|latest ...\n",
    );
    Deno.exit(2);
  }
  const commit = await text("git", ["rev-parse", "--short", "HEAD"]);
  const dirty = (await text("git", ["status", "--porcelain", "--untracked-files=no"])) !== "";
  const header = `# e2e suite by Claude Code release: commit ${commit}${
    dirty ? " (with uncommitted changes)" : ""
  }, ${new Date().toISOString().slice(0, 10)}`;
  const runs: Run[] = [];
  for (const version of args) {
    for (let n = 1; n <= repeat; n++) {
      const run = await runSuite(version, logs, load, repeat > 1 ? n : undefined);
      runs.push(run);
      write(Deno.stderr, render([run], `${run.label ?? run.version} done`));
    }
  }
  const summary = render(runs, header);
  if (outFile) await Deno.writeTextFile(outFile, summary);
  write(Deno.stdout, summary);
  const whole = (r: Run) =>
    !r.problem && r.code === 0 && r.outcomes.length > 0 &&
    r.outcomes.every((o) => o.status === "ok");
  Deno.exit(runs.every(whole) ? 0 : 1);
}
