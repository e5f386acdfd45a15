/**
 * One end-to-end scenario: the real Claude Code CLI, this repository loaded as a plugin, the
 * loopback API stand-in, and a private HOME, TMPDIR and working folder; plus readers for what
 * both sides recorded (the transcript's attachments, the requests the model received).
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { dirname, join } from "node:path";
import {
  type ApiStub,
  type RecordedRequest,
  type Script,
  startApiStub,
  type Step,
  textOf,
  type ToolCall,
} from "../../scripts/loopback/api_stub.ts";
import { backedSteps, unbackedSteps } from "../../scripts/loopback/backed_steps.ts";
import { installedClaude, locateClaude } from "../../scripts/loopback/claude_cli.ts";
import { copyPlugin, ROOT, SAMPLE_MANIFEST, spawnWithStdin } from "../_helpers.ts";

export { copyPlugin, ROOT, SAMPLE_MANIFEST, textOf };

/** Claude Code's answer to a refresh too large to deliver inline (measured in 2.1.328). */
export const TOO_LARGE = "Output too large";
export const HEADER_TAG = "[lessons-reinject refresh";
export const COMPACT_TAG = "[lessons-reinject refresh compact ref=";
/** The most refreshes fit inline: Bash's own limit on what it passes inline, measured here, not
 * taken from src/, so that a wrong limit there fails this suite. */
export const INLINE_LIMIT = 10_000;
export const SONNET = "claude-sonnet-4-6";

export type Json = Record<string, unknown>;

export interface ScenarioSetup {
  /** Names the temporary folders. */
  name: string;
  /** The stand-in's script; a function when steps need the scenario's working folder. */
  script: Script | ((folders: { work: string }) => Script);
  /** Manifest text; the bundled sample manifest when absent; `null`: no manifest anywhere. */
  manifest?: string | null;
  /** Extra environment for Claude Code and, through it, the hook. */
  env?: Record<string, string>;
  /** Add a user-level hook that saves every hook payload as JSON under `payloadDir`. */
  capturePayloads?: boolean;
  /** The plugin folders to load (`--plugin-dir` each); this repository when absent. */
  pluginDirs?: string[];
  /** Files to write before the first turn, by path relative to the scenario's root folder. */
  files?: Record<string, string>;
  /**
   * Why this scenario's script may grow past what its requests carry (an impossible jump, on
   * purpose); absent, every step must be backed (`unbackedSteps` in
   * scripts/loopback/backed_steps.ts).
   */
  unbacked?: string;
}

export interface TurnOptions {
  /** `--model`; Claude Code's default model when absent or undefined. */
  model?: string | undefined;
  /** Continue the scenario's session (`--resume <id>`) instead of starting it. */
  resume?: boolean;
  /** More tools to allow beside Bash, Read and Glob. */
  allowTools?: string[];
  /** More arguments for `claude`, e.g. `--mcp-config <file>`. */
  extraArgs?: string[];
}

export interface TurnResult {
  code: number;
  /** The `--output-format json` result object. */
  result: Json;
  stderr: string;
  ms: number;
}

/** A `hook_additional_context` attachment: a refresh Claude Code accepted for one tool call. */
export interface Refresh {
  toolUseID: string;
  hookName: string;
  content: string;
  /** Position of the attachment line in the transcript. */
  line: number;
}

/** A running scenario; `close()` stops the stand-in and removes its folders. */
export class Scenario {
  readonly stub: ApiStub;
  readonly root: string;
  readonly home: string;
  readonly tmp: string;
  readonly work: string;
  readonly payloadDir: string;
  readonly sessionId = crypto.randomUUID();
  readonly turns: TurnResult[] = [];
  #env: Record<string, string>;
  #bin: string;
  #pluginDirs: string[];
  #unbacked: string | undefined;

  private constructor(bin: string, root: string, setup: ScenarioSetup) {
    this.#bin = bin;
    this.root = root;
    this.home = join(root, "home");
    this.tmp = join(root, "tmp");
    this.work = join(root, "work");
    this.payloadDir = join(root, "payloads");
    const { script, manifest, pluginDirs } = setup;
    this.stub = startApiStub(typeof script === "function" ? script({ work: this.work }) : script);
    this.#pluginDirs = pluginDirs ?? [ROOT];
    this.#unbacked = setup.unbacked;
    this.#env = {
      ...claudeEnv(this.home, this.stub.url),
      TMPDIR: this.tmp,
      ...(manifest === null ? {} : { LESSONS_MANIFEST_PATH: join(root, "manifest.json") }),
      LESSONS_DEBUG: "1",
      E2E_PAYLOADS: this.payloadDir,
      ...setup.env,
    };
  }

  /** Prepares the folders, manifest and stand-in. */
  static async start(bin: string, setup: ScenarioSetup): Promise<Scenario> {
    // realPath: Claude Code names the project folder after the resolved working directory.
    const root = await Deno.realPath(
      await Deno.makeTempDir({ prefix: `lessons-e2e-${setup.name}-` }),
    );
    const scenario = new Scenario(bin, root, setup);
    for (const dir of [scenario.home, scenario.tmp, scenario.work, scenario.payloadDir]) {
      await Deno.mkdir(dir, { recursive: true });
    }
    if (setup.manifest !== null) {
      const text = setup.manifest ?? await Deno.readTextFile(SAMPLE_MANIFEST);
      await Deno.writeTextFile(join(root, "manifest.json"), text);
    }
    for (const [relative, text] of Object.entries(setup.files ?? {})) {
      const path = join(root, relative);
      await Deno.mkdir(dirname(path), { recursive: true });
      await Deno.writeTextFile(path, text);
    }
    if (setup.capturePayloads) await scenario.#installCapture();
    return scenario;
  }

  async #installCapture(): Promise<void> {
    const save = 'f=$(mktemp "$E2E_PAYLOADS/payload-XXXXXXXX") && cat > "$f"';
    const entry = [{ matcher: ".*", hooks: [{ type: "command", command: save, timeout: 5 }] }];
    const events = ["PostToolUse", "PostToolUseFailure", "SessionStart", "PostCompact"];
    const hooks = Object.fromEntries(
      [...events, "SubagentStart", "SubagentStop"].map((event) => [event, entry]),
    );
    await Deno.mkdir(join(this.home, ".claude"), { recursive: true });
    await Deno.writeTextFile(
      join(this.home, ".claude", "settings.json"),
      JSON.stringify({ hooks }, null, 2),
    );
  }

  /** Runs `claude -p <prompt>`: a new session on the first turn, `--resume` afterwards. */
  async turn(prompt: string, options: TurnOptions = {}): Promise<TurnResult> {
    const tools = ["Bash", "Read", "Glob", ...options.allowTools ?? []];
    const args = ["-p", prompt, "--output-format", "json", "--allowedTools", ...tools];
    for (const dir of this.#pluginDirs) args.push("--plugin-dir", dir);
    if (options.model) args.push("--model", options.model);
    args.push(options.resume ? "--resume" : "--session-id", this.sessionId);
    args.push(...options.extraArgs ?? []);
    const started = performance.now();
    const out = await spawnWithStdin(this.#bin, args, "", this.#env, this.work);
    const ms = Math.round(performance.now() - started);
    let result: Json;
    try {
      result = JSON.parse(out.stdout);
    } catch {
      result = { unparsed: out.stdout };
    }
    const turn = { code: out.code, result, stderr: out.stderr, ms };
    this.turns.push(turn);
    return turn;
  }

  /**
   * Fails unless every request grew by no more than its own bytes carry at the measured rate
   * (`unbackedSteps`): a session that could happen. Every suite calls it after a scenario's
   * assertions; a scenario that sets `unbacked` has said why it may not hold.
   */
  assertBacked(): void {
    if (this.#unbacked !== undefined) return;
    const found = unbackedSteps(this.stub.requests);
    deepStrictEqual(
      found,
      [],
      `requests that grew more than their own bytes carry (scripted and physical growth, in ` +
        `tokens): ${JSON.stringify(found)}`,
    );
  }

  /** The main transcript's path, found under `$HOME/.claude/projects`. */
  async transcriptPath(): Promise<string> {
    const projects = join(this.home, ".claude", "projects");
    for await (const project of Deno.readDir(projects)) {
      const path = join(projects, project.name, `${this.sessionId}.jsonl`);
      if (await Deno.stat(path).then(() => true, () => false)) return path;
    }
    throw new Error(`no transcript for session ${this.sessionId} under ${projects}`);
  }

  /** The main transcript's lines. */
  async lines(): Promise<Json[]> {
    return await readJsonl(await this.transcriptPath());
  }

  /**
   * Copies the main transcript to the file environment variable `variable` names, if set; with
   * `name`, to the file of that name in the folder it names.
   */
  async keepTranscript(variable: string, name?: string): Promise<void> {
    const to = Deno.env.get(variable);
    if (to) await Deno.copyFile(await this.transcriptPath(), name ? join(to, name) : to);
  }

  /** The subagent transcripts (`<session>/subagents/agent-*.jsonl`) beside the main one. */
  async subagentTranscripts(): Promise<string[]> {
    const dir = join((await this.transcriptPath()).replace(/\.jsonl$/, ""), "subagents");
    const found: string[] = [];
    try {
      for await (const entry of Deno.readDir(dir)) {
        if (entry.isFile && entry.name.endsWith(".jsonl")) found.push(join(dir, entry.name));
      }
    } catch {
      // No subagent ran.
    }
    return found.sort();
  }

  /** Every hook payload the capture hook saved, in no particular order. */
  async payloads(): Promise<Json[]> {
    const found: Json[] = [];
    for await (const entry of Deno.readDir(this.payloadDir)) {
      found.push(JSON.parse(await Deno.readTextFile(join(this.payloadDir, entry.name))));
    }
    return found;
  }

  /** Requests that reached the model (main conversation or a subagent), in order. */
  modelRequests(): RecordedRequest[] {
    return this.stub.requests.filter((r) => r.route !== "count_tokens" && r.route !== "side");
  }

  /** Explains a failure: every turn's result, the hook's decision lines, the requests' routes. */
  async diagnosis(): Promise<string> {
    const lines: string[] = [`scenario folder: ${this.root}`];
    for (const turn of this.turns) {
      lines.push(
        `turn: exit ${turn.code} in ${turn.ms} ms, result ${
          JSON.stringify(turn.result).slice(0, 400)
        }, stderr ${turn.stderr.slice(0, 400)}`,
      );
    }
    lines.push(`requests: ${this.stub.requests.map((r) => r.route).join(" ")}`);
    let transcripts: string[] = [];
    try {
      transcripts = [await this.transcriptPath(), ...await this.subagentTranscripts()];
    } catch (error) {
      // A CLI that refused its arguments wrote no transcript: the turns above say why.
      lines.push(`no transcript: ${error instanceof Error ? error.message : error}`);
    }
    for (const [i, path] of transcripts.entries()) {
      try {
        for (const line of await readJsonl(path)) {
          const a = attachmentOf(line);
          if (a?.type === "hook_success" || String(a?.type).includes("error")) {
            const who = i === 0 ? "" : "(subagent) ";
            lines.push(`${who}${a?.hookName} ${a?.toolUseID}: ${String(a?.stderr ?? "").trim()}`);
          }
        }
      } catch (error) {
        lines.push(`transcript ${path}: ${error}`);
      }
    }
    return lines.join("\n");
  }

  async close(): Promise<void> {
    await this.stub.close();
    if (Deno.env.get("LESSONS_E2E_KEEP")) return;
    // Something Claude Code left behind may still write in the folder ("Directory not empty",
    // seen under load): try again a few times before failing.
    for (let attempt = 1;; attempt++) {
      try {
        return await Deno.remove(this.root, { recursive: true });
      } catch (error) {
        if (attempt === 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }
}

/** One end-to-end test: a fresh scenario, its turns, and what the main transcript must show. */
export interface ScenarioTest extends Omit<ScenarioSetup, "name"> {
  /** The test's name, as `deno test` prints it; it names the scenario's folders too. */
  name: string;
  /** Makes the plugin folder to load instead of this repository, removed after the test. */
  plugin?: () => Promise<string>;
  /** Runs the scenario's turns and returns the main transcript; one turn on Sonnet by default. */
  turns?: (s: Scenario) => Promise<Json[]>;
  /** Every refresh the main transcript records, as [call, thresholds named]; `then` when absent. */
  refreshes?: [string, number[]][];
  /** What else the scenario proves (every refresh of a tool call is checked delivered before). */
  then?: (s: Scenario, lines: Json[], refreshes: Refresh[]) => void | Promise<void>;
}

/**
 * One `claude -p` turn on {@link SONNET} (`prompt`, with `options`) that must end normally, with no
 * error reported; returns the main transcript's lines.
 */
export function turn(
  options: TurnOptions = {},
  prompt = "Run the scripted steps.",
): (s: Scenario) => Promise<Json[]> {
  return async (s) => {
    const ran = await s.turn(prompt, { model: SONNET, ...options });
    equal(ran.code, 0, `claude exited ${ran.code}: ${ran.stderr}`);
    equal(ran.result.is_error, false, `claude reported an error: ${JSON.stringify(ran.result)}`);
    return await s.lines();
  };
}

/**
 * Registers `test` with `deno test` (ignored when no Claude Code is installed, `bin` empty): starts
 * its scenario, runs its turns, checks the refreshes it expects and that every refresh of a tool
 * call reached the model ({@link assertDelivered}), runs its own checks, then that every step was
 * backed by what its requests carry ({@link Scenario.assertBacked}); explains the scenario's state
 * in a failure's message, and always closes it.
 */
export function scenarioTest(
  bin: string,
  { name, plugin, turns = turn(), refreshes: expected, then, ...setup }: ScenarioTest,
): void {
  e2eTest(bin, name, async () => {
    const dir = await plugin?.();
    try {
      const folder = name.replace(/^e2e[^:]*: /, "").replace(/[^a-z0-9]+/gi, "-").slice(0, 24);
      const s = await Scenario.start(bin, {
        name: folder,
        ...setup,
        ...(dir ? { pluginDirs: [dir] } : {}),
      });
      try {
        const lines = await turns(s);
        const refreshes = refreshesIn(lines);
        if (expected) {
          deepStrictEqual(refreshes.map((r) => [r.toolUseID, thresholdsOf(r)]), expected);
        }
        assertDelivered(s, refreshes.filter((r) => r.toolUseID !== "SessionStart"));
        await then?.(s, lines, refreshes);
        s.assertBacked();
      } catch (error) {
        const why = await s.diagnosis();
        throw new Error(
          `${error instanceof Error ? error.message : error}\n--- diagnosis\n${why}`,
          { cause: error },
        );
      } finally {
        await s.close();
      }
    } finally {
      if (dir) await Deno.remove(dir, { recursive: true });
    }
  });
}

/** Registers `fn` with `deno test`; ignored when no Claude Code is installed (`bin` empty) or `ignore`. */
function e2eTest(bin: string, name: string, fn: () => Promise<void>, ignore = false): void {
  Deno.test(
    { name, ignore: ignore || bin === "", sanitizeResources: false, sanitizeOps: false },
    fn,
  );
}

/**
 * Registers a test that drives `bin` itself, without a {@link Scenario}, in fresh folders removed
 * afterwards: `home` (with `tmp` in it for `$TMPDIR`) and `work` in `root`. Ignored when no
 * Claude Code is installed, and on Windows.
 */
export function foldersTest(
  bin: string,
  name: string,
  fn: (f: { root: string; home: string; work: string }) => Promise<void>,
): void {
  e2eTest(bin, name, async () => {
    // realPath: Claude Code names the project folder after the resolved working directory.
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "lessons-e2e-" }));
    const f = { root, home: join(root, "home"), work: join(root, "work") };
    for (const dir of [f.work, join(f.home, "tmp")]) await Deno.mkdir(dir, { recursive: true });
    try {
      await fn(f);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }, Deno.build.os === "windows");
}

/**
 * Claude Code's environment in `home`, with no traffic but the stand-in's at `url`. Without `url`
 * (the `claude plugin` commands) no API key either: with one, each command waits 18 s on the
 * network.
 */
export function claudeEnv(home: string, url?: string): Record<string, string> {
  return {
    HOME: home,
    TMPDIR: join(home, "tmp"),
    ...(url ? { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "sk-ant-test" } : {}),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
}

/** Installs the plugin in `folder` as a user does from a local folder, with `claude plugin`. */
export async function installFromFolder(
  bin: string,
  folder: string,
  env: Record<string, string>,
  cwd: string,
): Promise<void> {
  const plugin = async (...args: string[]) => {
    const done = await spawnWithStdin(bin, ["plugin", ...args], "", env, cwd);
    equal(done.code, 0, done.stdout + done.stderr);
  };
  await plugin("marketplace", "add", folder);
  await plugin("install", "lessons-reinject@lessons-reinject");
}

/**
 * Calls `<prefix>NN` numbered from `first` (01), one at each reading of `thousands` (thousands of
 * tokens), each printing what carries the next ({@link backedSteps}); the answer at `end` thousand.
 */
export function climbing(prefix: string, thousands: number[], end: number, first = 1): Step[] {
  const steps = thousands.map((k, i) => ({
    id: `${prefix}${String(first + i).padStart(2, "0")}`,
    tokens: Math.round(k * 1000),
  }));
  return backedSteps(steps, end * 1000);
}

/** An Agent call whose prompt carries `marker`: the stand-in answers the subagent from its queue. */
export function agentCall(marker: string, type = "general-purpose"): Omit<ToolCall, "id"> {
  const prompt = `Do the scripted sub task. ${marker}`;
  const input = { description: "scripted sub task", prompt, subagent_type: type };
  // A fork runs in the background.
  return { name: "Agent", input: type === "fork" ? input : { ...input, run_in_background: false } };
}

/** Three turns on {@link SONNET} around a real `/compact`; returns the main transcript's lines. */
export async function compactTurns(s: Scenario): Promise<Json[]> {
  await turn({}, "Before compaction.")(s);
  await turn({ resume: true }, "/compact")(s);
  return await turn({ resume: true }, "After compaction.")(s);
}

/**
 * The first request of the new context after a real `/compact` (the first main request after
 * the compaction request), and how many compaction restatements it and the requests after it
 * carry (each request repeats the history, so one delivered restatement counts once in each).
 */
export function restatedAfterCompaction(s: Scenario): { first: string; perRequest: number[] } {
  const requests = s.modelRequests();
  const compact = requests.findIndex((r) => r.route === "compact");
  ok(compact >= 0, "no compaction request reached the API");
  const after = requests.slice(compact).filter((r) => r.route === "main");
  ok(after.length > 0, "no request after the compaction");
  const texts = after.map((r) => JSON.stringify(r.body.messages));
  const count = (text: string) => text.split(COMPACT_TAG).length - 1;
  // Nothing of it in the compaction request itself, nor in the summary it produced.
  for (const r of requests.filter((r) => r.route === "compact")) {
    equal(count(JSON.stringify(r.body.messages)), 0, "a restatement in the compaction request");
  }
  return { first: texts[0]!, perRequest: texts.map(count) };
}

/** The hook's own decision line (LESSONS_DEBUG) for tool call `id`, from its hook_success. */
export function decisionFor(lines: Json[], id: string): string {
  const found = lines.map(attachmentOf).filter((a) =>
    a?.type === "hook_success" && a.toolUseID === id &&
    String(a.hookName).startsWith("PostToolUse")
  );
  return found.map((a) => String(a?.stderr ?? "").trim()).join(" | ");
}

/**
 * Each refresh reached the model whole, inline with its tool result, within the limit, and no
 * request carries Claude Code's "too large" answer; returns the requests that delivered them.
 */
export function assertDelivered(s: Scenario, refreshes: Refresh[]): RecordedRequest[] {
  const requests = refreshes.map((refresh) => {
    ok(refresh.content.length <= INLINE_LIMIT, `refresh is ${refresh.content.length} chars`);
    const delivered = deliveredAfter(s.modelRequests(), refresh.toolUseID);
    ok(delivered, `no request carried the result of ${refresh.toolUseID}`);
    ok(
      delivered.text.includes(refresh.content),
      `the refresh for ${refresh.toolUseID} did not reach the model whole and inline`,
    );
    ok(!delivered.text.includes(TOO_LARGE), `"${TOO_LARGE}" reached the model`);
    return delivered.request;
  });
  for (const request of s.modelRequests()) {
    ok(!JSON.stringify(request.body.messages).includes(TOO_LARGE), `"${TOO_LARGE}" in a request`);
  }
  return requests;
}

/** Parsed lines of a JSONL file, skipping any that are not JSON objects. */
export async function readJsonl(path: string): Promise<Json[]> {
  const lines: Json[] = [];
  for (const text of (await Deno.readTextFile(path)).split("\n")) {
    if (text.trim() === "") continue;
    try {
      const value = JSON.parse(text);
      if (typeof value === "object" && value !== null) lines.push(value);
    } catch {
      // A line still being written.
    }
  }
  return lines;
}

/** The `attachment` object of a transcript line, if it is an attachment. */
export function attachmentOf(line: Json): Json | undefined {
  const a = line.attachment;
  return line.type === "attachment" && typeof a === "object" && a !== null ? a as Json : undefined;
}

/** The refreshes Claude Code recorded in a transcript, in file order. */
export function refreshesIn(lines: Json[]): Refresh[] {
  const found: Refresh[] = [];
  lines.forEach((line, index) => {
    const a = attachmentOf(line);
    if (a?.type !== "hook_additional_context") return;
    const content = Array.isArray(a.content) ? a.content.join("\n") : String(a.content ?? "");
    if (!content.includes(HEADER_TAG)) return;
    found.push({
      toolUseID: String(a.toolUseID),
      hookName: String(a.hookName),
      content,
      line: index,
    });
  });
  return found;
}

/** Attachments recording a hook that failed, timed out or was cancelled. */
export function hookErrorsIn(lines: Json[]): Json[] {
  return lines.map(attachmentOf).filter((a): a is Json => {
    if (!a || typeof a.type !== "string") return false;
    if (a.type.startsWith("hook_") && /error|cancel|blocking|timeout/.test(a.type)) return true;
    return a.type === "hook_success" && a.exitCode !== undefined && a.exitCode !== 0;
  });
}

/** The thresholds a refresh header names, e.g. `[30]` or `[30, 52, 70]`. */
export function thresholdsOf(refresh: Refresh): number[] {
  const match = /\[lessons-reinject refresh ([0-9kM,]+) ref=/.exec(refresh.content);
  const scale = (label: string) => label.endsWith("k") ? 1e3 : label.endsWith("M") ? 1e6 : 1;
  return match?.[1] ? match[1].split(",").map((t) => parseFloat(t) * scale(t)) : [];
}

/**
 * What a refresh header states: a percentage ("Context refresh at 31% of the 200k-token ...") or,
 * on a large window, tokens ("Context refresh at 62,000 tokens (6% of the 1M-token ...").
 */
export function stated(
  refresh: Refresh,
): { percent?: number; tokens?: number; window: string } | undefined {
  const match = /Context refresh at (?:([0-9,]+) tokens \([0-9]+|([0-9]+))% of the ([0-9.]+[kM])-/
    .exec(refresh.content);
  if (!match?.[3]) return undefined;
  const window = match[3];
  return match[1]
    ? { tokens: Number(match[1].replaceAll(",", "")), window }
    : { percent: Number(match[2]), window };
}

/**
 * What the model received right after tool call `toolUseId`: the text of the user message that
 * carries its `tool_result` (where Claude Code puts the hook's `<system-reminder>`), in the first
 * request that contains it, plus any system text of that request.
 */
export function deliveredAfter(
  requests: RecordedRequest[],
  toolUseId: string,
): { request: RecordedRequest; text: string } | undefined {
  for (const request of requests) {
    const messages = Array.isArray(request.body.messages) ? request.body.messages as Json[] : [];
    const index = messages.findIndex((m) =>
      m.role === "user" && Array.isArray(m.content) &&
      (m.content as Json[]).some((b) => b.type === "tool_result" && b.tool_use_id === toolUseId)
    );
    if (index < 0) continue;
    // Claude Code may add the hook context as a block beside the tool_result or as the next
    // message; take everything from the tool_result message up to the next assistant turn.
    const parts: string[] = [];
    for (let i = index; i < messages.length; i++) {
      if (i > index && messages[i]?.role === "assistant") break;
      parts.push(textOf(messages[i]?.content));
    }
    parts.push(textOf(request.body.system));
    return { request, text: parts.join("\n") };
  }
  return undefined;
}

/** The `tool_result` block for `toolUseId` in one request, if it carries one. */
export function toolResult(request: RecordedRequest, toolUseId: string): Json | undefined {
  const messages = Array.isArray(request.body.messages) ? request.body.messages as Json[] : [];
  return messages.flatMap((m) => m.role === "user" && Array.isArray(m.content) ? m.content : [])
    .find((b: Json) => b.type === "tool_result" && b.tool_use_id === toolUseId);
}

/**
 * The Claude Code binary the suites drive, or "" when it cannot be had (the suite then skips,
 * saying so). Under CI=true it must be had: a missing CLI fails the suite loudly instead.
 */
export async function claudeForSuite(release?: string): Promise<string> {
  // A suite's own release, unless the run names one (CLAUDE_BIN, LESSONS_E2E_CLAUDE_VERSION).
  const named = Deno.env.get("CLAUDE_BIN") || Deno.env.get("LESSONS_E2E_CLAUDE_VERSION");
  const cli = release && !named ? await installedClaude(release) : await locateClaude();
  if ("bin" in cli) return cli.bin;
  skipUnlessCI("Claude Code", cli.problem);
  return "";
}

/** The refresh labels (`30`, `52,70`, `compact`...) `text` carries, in order. */
export function refreshLabels(text: string): string[] {
  return [...text.matchAll(/\[lessons-reinject refresh (\S+) ref=/g)].map((m) => m[1]!);
}

/** The labels new in each request's (`sent`): what the hook answered on the call before it. */
export function freshLabels(sent: string[][]): string[][] {
  return sent.map((labels, i) => labels.filter((l) => !(sent[i - 1] ?? []).includes(l)));
}

/** Says a suite skips because `what` cannot be had; under CI=true throws instead. */
export function skipUnlessCI(what: string, problem: string): true {
  if (["1", "true"].includes((Deno.env.get("CI") ?? "").toLowerCase())) {
    throw new Error(`e2e: cannot get ${what}: ${problem}`);
  }
  Deno.stderr.writeSync(
    new TextEncoder().encode(`e2e: SKIPPING, cannot get ${what}: ${problem}\n`),
  );
  return true;
}
