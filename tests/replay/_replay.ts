/**
 * Replays one real transcript tool call by tool call through the hook (tests/replay/_adapter.ts),
 * the way Claude Code would have run it, and pairs each decision with the oracle's.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { entries, payload, RECORDINGS, SAMPLE_MANIFEST, SKELETONS } from "../_helpers.ts";
import { tempDir } from "../install/_support.ts";
import { callHook, type HookDecision } from "./_adapter.ts";
import {
  type Config,
  DEFAULT_CONFIG,
  expectCalls,
  type Expected,
  inheritedThresholds,
  type OracleCall,
  parseLines,
  TRUTH,
} from "./oracle.ts";
import { AGENT_COMPACTIONS, FORK, shapes } from "./shapes.ts";

/** What a replay sets beyond the defaults: the hook's environment, and the oracle's reading of it. */
export interface ReplayConfig {
  env: Record<string, string>;
  oracle: Config;
}

/** The defaults: nothing set. */
export const DEFAULTS: ReplayConfig = { env: {}, oracle: DEFAULT_CONFIG };

/** Sessions that ran through a gateway (their provenance: the skeletons' README, shapes.ts). */
const GATEWAY = new Set([
  "v2.1.167-main-with-workflow-subagents.jsonl",
  "v2.1.167-subagent-file-agent-ab9eaae030fe399d0.jsonl",
  "v2.1.212-newest.jsonl",
  "shape-gateway-gen-ids.jsonl",
]);

/** A subagent's own file: its parent session's file, its id and where it sits in the session. */
interface AgentFile {
  main: string;
  agentId: string;
  agentType: string;
  /** The folder under `<session>/` Claude Code wrote it to, if not `subagents`. */
  folder?: string;
}

const AGENTS: Record<string, AgentFile> = {
  // 2.1.167 nests workflow agents.
  "v2.1.167-subagent-file-agent-ab9eaae030fe399d0.jsonl": {
    main: "v2.1.167-main-with-workflow-subagents.jsonl",
    agentId: "ab9eaae030fe399d0",
    agentType: "workflow",
    folder: join("subagents", "workflows", "wf_f5b3cd7b-844"),
  },
  "recorded-2.1.328-fork-agent-ae76d425a14d91e5a.jsonl": {
    main: "recorded-2.1.328-fork-main.jsonl",
    agentId: "ae76d425a14d91e5a",
    agentType: "fork",
  },
  [AGENT_COMPACTIONS.agent]: { ...AGENT_COMPACTIONS, agentType: "general-purpose" },
  [FORK.agent]: { main: FORK.parent, agentId: FORK.agentId, agentType: "fork" },
};

let generated: string | undefined;

/** The generated shapes (tests/replay/shapes.ts), written once per process, removed at its end. */
function shapeFolder(): string {
  if (generated) return generated;
  const dir = Deno.makeTempDirSync({ prefix: "lessons-replay-shapes-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  for (const [name, shape] of Object.entries(shapes())) {
    Deno.writeTextFileSync(join(dir, name), shape);
  }
  return generated = dir;
}

/**
 * Where `file` is: in `dir` when given, else among the skeletons, our own recordings or the
 * generated shapes.
 */
function locate(file: string, dir?: string): string {
  const folders = dir !== undefined
    ? [dir]
    : file.startsWith("shape-")
    ? [shapeFolder()]
    : [SKELETONS, RECORDINGS];
  const found = folders.map((folder) => join(folder, file)).find((path) => existsSync(path));
  if (found) return found;
  throw new Error(`no transcript ${file} in ${dir ?? `${SKELETONS} or ${RECORDINGS}`}`);
}

/** Byte offsets where each line ends (just after its newline). */
function lineEnds(bytes: Uint8Array): number[] {
  const ends: number[] = [];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) ends.push(i + 1);
  if (ends.at(-1) !== bytes.length) ends.push(bytes.length);
  return ends;
}

export interface Row {
  call: OracleCall;
  hook: HookDecision;
  /** SessionStart(compact)'s answer, when the events were sent just before this call. */
  event?: HookDecision;
  agree: boolean;
}

function same(expected: Expected | undefined, hook: HookDecision | undefined): boolean {
  const kind = expected?.kind ?? "none";
  if (kind !== (hook?.kind ?? "none")) return false;
  return expected?.kind !== "thresholds" ||
    expected.thresholds.join() === hook?.thresholds.join();
}

/**
 * Replays `file` (a name the oracle's TRUTH knows) call by call, read from `from` when given (with
 * its parent session beside it, for a subagent's file), else from the committed fixtures.
 */
export async function replay(
  file: string,
  withEvents: boolean,
  from?: string,
  config: ReplayConfig = DEFAULTS,
): Promise<Row[]> {
  const path = locate(file, from);
  const truth = TRUTH[file];
  if (!truth) throw new Error(`the oracle knows nothing of ${file}`);
  const bytes = Deno.readFileSync(path);
  const lines = parseLines(new TextDecoder().decode(bytes));
  const ends = lineEnds(bytes);
  const agent = AGENTS[file];
  const mainFile = agent ? locate(agent.main, from) : undefined;
  const parentLines = truth.forkOf && mainFile
    ? parseLines(Deno.readTextFileSync(mainFile))
    : undefined;
  const inherited = parentLines ? inheritedThresholds(lines, parentLines) : [];
  // No compaction events reach a subagent's context.
  const calls = expectCalls(lines, truth, withEvents && !agent, inherited, config.oracle);

  using temp = tempDir("lessons-replay-");
  const dir = temp.dir;
  const project = join(dir, "projects", "-home-dev-project");
  const sessionId = String(
    lines.find((l) => typeof l?.sessionId === "string")?.sessionId ??
      "replay-session",
  );
  const mainPath = join(project, `${sessionId}.jsonl`);
  let target = mainPath;
  Deno.mkdirSync(project, { recursive: true });
  if (agent && mainFile) {
    // The parent's transcript exists whole; the agent's own file grows call by call.
    Deno.copyFileSync(mainFile, mainPath);
    const folder = join(project, sessionId, agent.folder ?? "subagents");
    Deno.mkdirSync(folder, { recursive: true });
    target = join(folder, `agent-${agent.agentId}.jsonl`);
  }
  Deno.writeFileSync(target, new Uint8Array());
  const append = (data: Uint8Array) => Deno.writeFileSync(target, data, { append: true });
  let written = 0;
  // What Claude Code writes once a hook's answer is delivered (tests/_helpers.ts entries), so
  // the hook's next call finds the receipt as in the real session.
  const record = (answer: HookDecision, toolUseId: string, event = "PostToolUse") => {
    if (answer.kind === "none") return;
    const line = JSON.stringify(entries.refresh(answer.text, toolUseId, event)) + "\n";
    append(new TextEncoder().encode(line));
  };
  const writeTo = (line: number) => {
    const end = ends[line] ?? bytes.length;
    if (end > written) append(bytes.subarray(written, end));
    written = Math.max(written, end);
  };
  const env: Record<string, string> = {
    LESSONS_STATE_DIR: join(dir, "state"),
    LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST,
    LESSONS_REINJECT_WAIT_MS: "1",
    LESSONS_DEBUG: "1",
    TMPDIR: dir,
    HOME: dir,
    ...(GATEWAY.has(file) ? { ANTHROPIC_BASE_URL: "https://gateway.example.invalid" } : {}),
    ...config.env,
  };
  const base = {
    session_id: sessionId,
    transcript_path: mainPath,
    cwd: "/home/dev/project",
  };
  const rows: Row[] = [];
  for (const call of calls) {
    const firstMarker = call.markersBefore[0];
    let event: HookDecision | undefined;
    if (withEvents && firstMarker !== undefined && !agent) {
      // Claude Code sends SessionStart(compact) before it writes the compaction's boundary and
      // summary, and records the answer after them (2.1.328): the hook learns what they prove
      // on a later call.
      if (firstMarker > 0) writeTo(firstMarker - 1);
      event = await callHook(payload("SessionStart.compact", base), env);
      writeTo(call.markersBefore.at(-1)!);
      record(event, "SessionStart", "SessionStart");
    }
    writeTo(call.line);
    const hook = await callHook(
      payload("PostToolUse.Bash", {
        ...base,
        tool_name: call.toolName,
        tool_use_id: call.toolUseId,
        ...(agent ? { agent_id: agent.agentId, agent_type: agent.agentType } : {}),
      }),
      env,
    );
    record(hook, call.toolUseId);
    const agree = same(call.expected, hook) && (event === undefined || same(call.event, event));
    rows.push({ call, hook, ...(event ? { event } : {}), agree });
  }
  return rows;
}
