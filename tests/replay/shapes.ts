/**
 * Synthetic transcripts of session shapes real users hit but no committed transcript shows whole:
 * each one built from lines real Claude Code 2.1.328 wrote (tests/fixtures/transcripts), changed
 * only where the shape needs it, and saying where that shape was seen. Imports nothing from src/.
 */
import { join } from "node:path";
import { jsonLines, RECORDINGS, templateLine } from "../_helpers.ts";
import { sessionToken } from "./oracle.ts";

type Json = Record<string, unknown>;

const linesOf = (file: string): Json[] => jsonLines(join(RECORDINGS, file));

/** One real line of each kind the shapes need. */
function loadTemplates() {
  const climb = linesOf("recorded-2.1.328-sonnet-climb.jsonl");
  const compact = linesOf("recorded-2.1.328-compact.jsonl");
  const fork = linesOf("recorded-2.1.328-fork-agent-ae76d425a14d91e5a.jsonl");
  const find = templateLine;
  const attachmentType = (l: Json) =>
    l.type === "attachment" ? (l.attachment as Json | undefined)?.type : undefined;
  return {
    assistant: find(climb, "assistant", (l) => l.type === "assistant"),
    toolResult: find(climb, "tool_result", (l) => l.type === "user" && "toolUseResult" in l),
    refresh: find(climb, "refresh", (l) => attachmentType(l) === "hook_additional_context"),
    prompt: find(compact, "prompt", (l) => typeof (l.message as Json)?.content === "string"),
    boundary: find(compact, "boundary", (l) => l.subtype === "compact_boundary"),
    summary: find(compact, "summary", (l) => l.isCompactSummary === true),
    forkRef: find(fork, "fork-context-ref", (l) => l.type === "fork-context-ref"),
    forkDirective: find(fork, "fork directive", (l) => l.type === "user"),
  };
}

let cached: ReturnType<typeof loadTemplates> | undefined;
const templates = () => cached ??= loadTemplates();

/** A transcript written line by line, with deterministic ids, from the templates. */
class Writer {
  readonly lines: Json[] = [];
  #n = 0;
  #last: string | null = null;
  #numbered = new Map<string, number>();
  version = "2.1.328";
  /** A subagent's own file (`agentId` given): every line a sidechain line of that agent. */
  readonly sidechain: boolean;

  constructor(readonly sessionId: string, readonly tag: string, readonly agentId?: string) {
    this.sidechain = agentId !== undefined;
  }

  /** A uuid unique in this shape, stable across runs. */
  uuid(): string {
    return `${this.tag}-0000-4000-8000-${String(++this.#n).padStart(12, "0")}`;
  }

  get lastUuid(): string | null {
    return this.#last;
  }

  #push(template: Json, fields: Json): Json {
    const line: Json = structuredClone(template);
    const uuid = this.uuid();
    Object.assign(line, {
      parentUuid: this.#last,
      isSidechain: this.sidechain,
      uuid,
      timestamp: new Date(Date.UTC(2026, 10, 30, 9, 0, this.#n)).toISOString(),
      sessionId: this.sessionId,
      version: this.version,
      cwd: "/home/dev/project",
      ...(this.agentId ? { agentId: this.agentId } : {}),
      ...fields,
    });
    this.#last = uuid;
    this.lines.push(line);
    return line;
  }

  /** The model's turn calling Bash as `toolUseId`, its request holding `tokens` of context. */
  call(toolUseId: string, tokens: number, model: string, options: { gateway?: boolean } = {}) {
    const line = this.#push(templates().assistant, {});
    const message = line.message as Json;
    message.model = model;
    message.content = [{
      type: "tool_use",
      id: toolUseId,
      name: "Bash",
      input: { command: `echo ${toolUseId}`, description: toolUseId },
    }];
    if (options.gateway) {
      // An Anthropic-compatible gateway (OpenRouter): a `gen-` id, all input in input_tokens, no
      // cache fields, no request id.
      message.id = `gen-${1764000000 + this.lines.length}-${this.tag}`;
      message.usage = { input_tokens: tokens, output_tokens: 120 };
      delete line.requestId;
      delete line.requestRef;
    } else {
      message.id = `msg_${this.tag}${this.lines.length}`;
      message.usage = {
        ...(message.usage as Json),
        input_tokens: 3,
        cache_creation_input_tokens: 997,
        cache_read_input_tokens: tokens - 1000,
      };
    }
    line.requestedModel = model;
    this.result(toolUseId);
    return line;
  }

  /**
   * One Bash call by `model` at each of `tokens`, as `toolu_<prefix>NN`: numbered on from this
   * prefix's last call (the first is 01).
   */
  calls(prefix: string, model: string, tokens: number[], options: { gateway?: boolean } = {}) {
    for (const t of tokens) {
      const n = (this.#numbered.get(prefix) ?? 0) + 1;
      this.#numbered.set(prefix, n);
      this.call(`toolu_${prefix}${String(n).padStart(2, "0")}`, t, model, options);
    }
  }

  /** The model's turn starting a subagent as `toolUseId` through the Agent tool. */
  agentCall(toolUseId: string, tokens: number, prompt: string, type: string) {
    const line = this.call(toolUseId, tokens, SONNET);
    (line.message as Json).content = [{
      type: "tool_use",
      id: toolUseId,
      name: "Agent",
      input: { description: type === "fork" ? "fork" : "long task", prompt, subagent_type: type },
    }];
    return line;
  }

  /** The tool's result. */
  result(toolUseId: string): void {
    const line = this.#push(templates().toolResult, {});
    (line.message as Json).content = [{
      tool_use_id: toolUseId,
      type: "tool_result",
      content: toolUseId,
      is_error: false,
    }];
    line.toolUseResult = { stdout: toolUseId, stderr: "", interrupted: false };
  }

  /** Claude Code's record of a refresh this hook delivered on `toolUseId`. */
  refresh(thresholds: number[], percent: number, toolUseId: string): void {
    const line = this.#push(templates().refresh, {});
    const attachment = line.attachment as Json;
    attachment.toolUseID = toolUseId;
    attachment.content = [
      `[lessons-reinject refresh ${thresholds.join(",")} ref=${sessionToken(this.sessionId)}] ` +
      `Context refresh at ${percent}% of the 200k-token context window: your standing ` +
      `directives and protocols from session start, restated. They still apply.`,
    ];
  }

  /** A user's prompt (a new turn, where a `/model` switch or a resume happens). */
  prompt(text: string): void {
    const line = this.#push(templates().prompt, {});
    (line.message as Json).content = text;
  }

  /** A compaction: the boundary and the summary, as 2.1.328 writes them. */
  compact(trigger: "auto" | "manual", preTokens: number): void {
    const boundary = this.#push(templates().boundary, { parentUuid: null });
    boundary.logicalParentUuid = boundary.uuid;
    boundary.compactMetadata = { trigger, preTokens, postTokens: 4000 };
    this.#push(templates().summary, {});
  }

  /** `n` lines of JSONL. */
  text(): string {
    return this.lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  }
}

const SONNET = "claude-sonnet-4-6";
const OPUS_5 = "claude-opus-5";

/**
 * A model switch mid-session, 1M to 200k and back (2.1.328's `/model`): claude-opus-5 (natively
 * 1M) climbs to 350k, is compacted by hand (preTokens 350k: a window above 200k), then
 * claude-sonnet-4-6 (200k) climbs to 75 %, then claude-opus-5 again to 32 % of 1M. Seen: 2.1.328's
 * window function takes the model of each request; the compaction as in
 * recorded-2.1.328-compact.jsonl.
 */
function modelSwitch(): string {
  const w = new Writer("5e1f0c2a-7d3b-4e8f-9a61-0b2c3d4e5f60", "5e1f0c2a");
  w.prompt("Work on the big refactor.");
  w.calls("ms", OPUS_5, [100_000, 310_000, 350_000]); // 31 % of 1M at the second
  w.prompt("/compact");
  w.compact("manual", 350_000);
  w.prompt("/model claude-sonnet-4-6, then carry on.");
  w.calls("ms", SONNET, [20_000, 70_000, 110_000, 150_000]); // 10 % of 200k; 35, 55, 75 %
  w.prompt("/model claude-opus-5, then carry on.");
  w.calls("ms", OPUS_5, [160_000, 320_000]); // 16 % of 1M; 32 %: 30 again
  return w.text();
}

/**
 * opus-4-8 to opus-5 by 2.1.328's `/model`, both natively 1M in 2.1.328 (docs/context-windows.md):
 * one window across the switch.
 */
function opusToOpus(): string {
  const w = new Writer("6a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", "6a2b3c4d");
  w.prompt("Start.");
  w.calls("oo", "claude-opus-4-8", [250_000, 320_000]); // 32 %: 30
  w.prompt("/model claude-opus-5, then carry on.");
  w.calls("oo", OPUS_5, [400_000, 530_000]); // 53 %: 52
  return w.text();
}

/** A 200k model to a 1M one and back by 2.1.328's `/model`, without a compaction. */
function smallLargeSmall(): string {
  const w = new Writer("7b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e", "7b3c4d5e");
  w.prompt("Start.");
  w.calls("sl", SONNET, [40_000, 62_000, 106_000]); // 31 %: 30; 53 %: 52
  w.prompt("/model claude-opus-5, then carry on.");
  w.calls("sl", OPUS_5, [110_000, 150_000]); // 11 % of 1M
  w.prompt("/model claude-sonnet-4-6, then carry on.");
  w.calls("sl", SONNET, [152_000]); // 76 %: 70
  return w.text();
}

/**
 * One file spanning two Claude Code versions: claude-opus-4-7 written by 2.1.112 (200k: natively
 * 1M only from 2.1.117) auto-compacts at 167,766 tokens, as the shared v2.1.112 transcript did;
 * the session is then resumed by 2.1.328, where the same model has 1M. Every entry records its own
 * `version`, so a resumed session's file holds two.
 */
function resumedAfterUpgrade(): string {
  const w = new Writer("8c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f", "8c4d5e6f");
  w.version = "2.1.112";
  w.prompt("Start.");
  w.calls("up", "claude-opus-4-7", [62_000, 106_000, 142_000]); // 31, 53, 71 % of 200k
  w.compact("auto", 167_766);
  w.calls("up", "claude-opus-4-7", [30_000]); // 15 %
  w.version = "2.1.328";
  w.prompt("(resumed after upgrading Claude Code) carry on.");
  // 6 % of 1M, then 31 % of 1M: 30.
  w.calls("up", "claude-opus-4-7", [62_000, 106_000, 250_000, 310_000]);
  return w.text();
}

/**
 * A gateway (OpenRouter's Anthropic-compatible API): `gen-` message ids, usage only in
 * input_tokens, no request id, a provider-prefixed model id Claude Code's table does not know.
 * Seen: OpenRouter's Anthropic endpoint streams `message_start` with `id: gen-...` and usage
 * `{input_tokens, output_tokens}` only (public relay and logging-handler tests);
 * v2.1.212-newest.jsonl shows Claude Code recording such usage as is.
 */
function gateway(): string {
  const w = new Writer("9d5e6f7a-8b9c-4d0e-8f1a-3b4c5d6e7f8a", "9d5e6f7a");
  w.prompt("Start.");
  // 32 % of 200k: 30; 54 %: 52; 70.5 %: 70.
  const tokens = [30_000, 64_000, 90_000, 108_000, 141_000];
  w.calls("gw", "anthropic/claude-sonnet-4.5", tokens, { gateway: true });
  return w.text();
}

/** The fork's ids: a labelled agent id as Claude Code's `a<label>-<16 hex>` makes them. */
export const FORK = {
  parent: "shape-fork-parent.jsonl",
  agent: "shape-fork-agent.jsonl",
  sessionId: "ae6f7a8b-9c0d-4e1f-8a2b-4c5d6e7f8a9b",
  agentId: "acommentd41d8cd9-8f00b204e9800998",
};

/**
 * A fork subagent whose parent had refreshed at 30 and 52 before it forked, and at 70 after: the
 * fork inherits the first two with its context, not the third. Shapes as in the recorded 2.1.328
 * fork (recorded-2.1.328-fork-*.jsonl, CLAUDE_CODE_FORK_SUBAGENT=1, measured); the agent id is
 * labelled, as 2.1.328 names the forks it starts for a comment thread (`a` + `comment<slug>` +
 * `-` + 16 hex digits).
 */
function fork(): { parent: string; agent: string } {
  const p = new Writer(FORK.sessionId, "ae6f7a8b");
  p.prompt("Start.");
  p.call("toolu_fp01", 62_000, SONNET);
  p.refresh([30], 31, "toolu_fp01");
  p.call("toolu_fp02", 106_000, SONNET);
  p.refresh([52], 53, "toolu_fp02");
  const forkPoint = p.lastUuid;
  const agentCall = p.agentCall("toolu_fp03", 110_000, "Do the forked part.", "fork");
  p.call("toolu_fp04", 142_000, SONNET);
  p.refresh([70], 71, "toolu_fp04");

  const a = new Writer(FORK.sessionId, "b7a8b9c0", FORK.agentId);
  a.lines.push({
    ...structuredClone(templates().forkRef),
    agentId: FORK.agentId,
    parentSessionId: FORK.sessionId,
    parentLastUuid: forkPoint,
    contextLength: p.lines.length,
  });
  // The copy of the parent's Agent call, with the parent's usage, then the directive.
  a.lines.push({ ...structuredClone(agentCall), isSidechain: true, agentId: FORK.agentId });
  a.lines.push({
    ...structuredClone(templates().forkDirective),
    agentId: FORK.agentId,
    sessionId: FORK.sessionId,
  });
  // 56 %: 30 and 52 are in its inherited context; 73 %: 70 (the parent's came after the fork).
  a.calls("fa", SONNET, [112_000, 130_000, 146_000]);
  return { parent: p.text(), agent: a.text() };
}

/** A subagent that compacts twice inside its own file. */
export const AGENT_COMPACTIONS = {
  main: "shape-agent-compactions-main.jsonl",
  agent: "shape-agent-compactions.jsonl",
  sessionId: "c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f",
  agentId: "a5e1c0d7b3f9a2e48",
};

/**
 * A subagent whose own file auto-compacts twice, first at 150,000 tokens and then at 160,000, as
 * a subagent does: an `isSidechain` boundary and summary in `subagents/agent-<id>.jsonl`, with no
 * SessionStart or PostCompact event (2.1.114 wrote two such boundaries in one file of a public
 * transcript; measured points there were 193,237 and then 233,090). Each compaction is restated
 * on the first call after it, and the thresholds are measured against the tighter point, 150,000:
 * after the second compaction 56,000 tokens reach 30 % (of 183,000), which the later point (of
 * 193,000) would not.
 */
function agentCompactions(): { main: string; agent: string } {
  const { sessionId, agentId } = AGENT_COMPACTIONS;
  const m = new Writer(sessionId, "c4d5e6f7");
  m.prompt("Start.");
  m.call("toolu_am01", 30_000, SONNET);
  m.agentCall("toolu_am02", 34_000, "Do the long task.", "general");
  const a = new Writer(sessionId, "d5e6f7a8", agentId);
  a.prompt("Do the long task.");
  a.calls("ac", SONNET, [20_000, 62_000, 106_000, 141_000, 148_000]);
  a.compact("auto", 150_000);
  a.calls("ad", SONNET, [20_000, 56_000, 96_000, 130_000, 155_000]);
  a.compact("auto", 160_000);
  a.calls("ae", SONNET, [20_000, 56_000, 60_000]);
  return { main: m.text(), agent: a.text() };
}

/** The summariser's agent id as 2.1.30-2.1.80 make it: `a` + `compact` + `-` + 16 hex digits. */
export const SUMMARISER_ID = "acompact-3d346a6bf6f19caa";

/**
 * A session of 2.1.80 compacted automatically, with the compaction summariser's own transcript
 * (`subagents/agent-acompact-<hex>.jsonl`): a copy of the conversation being compacted, every
 * line a sidechain line of agent `acompact-<hex>`, then the summarising request and its answer,
 * whose usage is the whole conversation (167k, 83.5 % of 200k). Read from 2.1.80's cli.js: its
 * forked-agent runner records `[...forkContextMessages, ...promptMessages]` and every message
 * after under a fresh `a<label>-<hex>` id unless told to skip the transcript, and compaction does
 * not skip it (2.1.112 and 2.1.328 do).
 */
export function compactionSummariser(): { session: string; summariser: string; sessionId: string } {
  const sessionId = "c0ffee00-1234-4567-89ab-cdef01234567";
  const main = new Writer(sessionId, "c0ffee00");
  main.version = "2.1.80";
  main.prompt("Start.");
  main.calls("cs", SONNET, [62_000, 120_000, 160_000]);
  const conversation = structuredClone(main.lines);
  main.compact("auto", 167_000);
  main.calls("cs", SONNET, [40_000]); // 20 % after the compaction

  const agent = new Writer(sessionId, "ac0ac0ac", SUMMARISER_ID);
  agent.version = "2.1.80";
  for (const line of conversation) {
    agent.lines.push({ ...line, isSidechain: true, agentId: SUMMARISER_ID });
  }
  agent.prompt("Your task is to create a detailed summary of the conversation so far.");
  const answer = agent.call("toolu_unused", 167_000, SONNET);
  (answer.message as Json).content = [{ type: "text", text: "<summary>...</summary>" }];
  agent.lines.pop(); // no tool result: the summariser answers in text
  return { session: main.text(), summariser: agent.text(), sessionId };
}

/**
 * The first tool call after `/model` switched from claude-opus-5 (1M) to claude-sonnet-4-6
 * (200k): `before` ends with the user's new prompt, the previous reading 40k (4 % of 1M);
 * `entry` is the call's own assistant entry (70k: 35 % of 200k), which Claude Code writes while
 * the hook may already run.
 */
export function switchTurn(): { before: string; entry: string; sessionId: string } {
  const sessionId = "d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6";
  const w = new Writer(sessionId, "d1e2f3a4");
  w.prompt("Start.");
  w.call("toolu_st01", 40_000, OPUS_5);
  w.prompt("/model claude-sonnet-4-6, then carry on.");
  const before = w.text();
  const from = w.lines.length;
  w.call("toolu_st02", 70_000, SONNET);
  w.lines.pop(); // its tool result comes after the hook
  const entry = w.lines.slice(from).map((l) => JSON.stringify(l)).join("\n") + "\n";
  return { before, entry, sessionId };
}

/**
 * Every generated transcript by file name. Each shape's comment says where real Claude Code was
 * seen writing it.
 */
export function shapes(): Record<string, string> {
  const forked = fork();
  const compacting = agentCompactions();
  return {
    "shape-model-switch-1m-200k-1m.jsonl": modelSwitch(),
    "shape-model-switch-opus-4-8-opus-5.jsonl": opusToOpus(),
    "shape-model-switch-200k-1m-200k.jsonl": smallLargeSmall(),
    "shape-resumed-after-upgrade.jsonl": resumedAfterUpgrade(),
    "shape-gateway-gen-ids.jsonl": gateway(),
    [FORK.parent]: forked.parent,
    [FORK.agent]: forked.agent,
    [AGENT_COMPACTIONS.main]: compacting.main,
    [AGENT_COMPACTIONS.agent]: compacting.agent,
  };
}
