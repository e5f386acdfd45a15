/**
 * A loopback stand-in for the Anthropic Messages API: answers Claude Code's streamed requests
 * from a script of steps, each with the `usage` that sets the context percentage, and records
 * every request body so tests can see what the model received. Shared by the end-to-end suite
 * (tests/e2e) and the in-session benchmark (bench/in_session.ts).
 */
import { TOKENS_PER_BYTE } from "../../src/core/claude_code.ts";
import { requestTokens } from "./request_size.ts";
import { eventStream, pause, serveLoopback, sse } from "./loopback_server.ts";

/** Usage as the API reports it; what lands in the transcript. */
export interface StepUsage {
  input_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  output_tokens?: number;
}

export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  /** Defaults to a fresh `toolu_` id. */
  id?: string;
}

/**
 * One model turn: tool calls, or final text. `usage: "request"` reports the request's own size
 * at the measured rate (`requestTokens`, request_size.ts) and the reply's size as output: a
 * session whose usage follows what Claude Code really sent.
 */
export interface Step {
  usage: StepUsage | "request";
  tools?: ToolCall[];
  text?: string;
  /**
   * Milliseconds between the reply's content blocks, as a model streams: Claude Code starts a
   * tool call as soon as its block is complete, before the next block arrives.
   */
  blockDelayMs?: number;
  /** Milliseconds before the reply starts, as a model takes to answer (default: at once). */
  latencyMs?: number;
}

export interface Script {
  /** Turns of the main conversation, in order. */
  main: Step[];
  /**
   * Turns of subagents, keyed by a marker string: a request whose first user message contains
   * the marker is answered from that queue.
   */
  agents?: Record<string, Step[]>;
  /**
   * Turns of fork subagents, keyed by a marker string: a fork's request starts with its parent's
   * whole conversation, so it is told apart by any user message containing the marker (the fork
   * directive), checked before the first-message markers.
   */
  forks?: Record<string, Step[]>;
  /**
   * With `usage: "request"` steps: the context the first request of each queue reports; later
   * requests add how much their own size grew since (the session's growth, exactly as sent).
   * Absent, such steps report the request's size itself.
   */
  requestBase?: number;
}

export interface RecordedRequest {
  path: string;
  body: Record<string, unknown>;
  /** Which queue answered: "main", an agent marker, "compact", "side" or "count_tokens". */
  route: string;
  /** For a "compact" request: the queue whose conversation it summarises. */
  compacted?: string;
  /** When the request arrived (`performance.now()`, ms). */
  at: number;
  /** The `id` of the message that answered it (what the transcript's assistant entries carry). */
  messageId?: string;
  /** The usage reported for it (input side and output), for main and agent routes. */
  usage?: { tokens: number; outputTokens: number };
}

export interface ApiStub {
  url: string;
  requests: RecordedRequest[];
  /** Steps handed out so far, per queue. */
  served: Record<string, number>;
  close(): Promise<void>;
}

const COMPACT_PROMPT = "detailed summary of the conversation";
let idCounter = 0;

/** The text of a message content: a string, or its blocks' text and nested content. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block) => {
    if (typeof block !== "object" || block === null) return "";
    const b = block as Record<string, unknown>;
    if (typeof b.text === "string") return b.text;
    if (b.content !== undefined) return textOf(b.content);
    return "";
  }).join("\n");
}

function lastUserText(messages: unknown[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Record<string, unknown>;
    if (m?.role === "user") return textOf(m.content);
  }
  return "";
}

/** The content blocks of a step's reply, tool ids assigned. */
function replyContent(step: Step): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  if (step.text !== undefined || !step.tools?.length) {
    blocks.push({ type: "text", text: step.text ?? "Done." });
  }
  for (const tool of step.tools ?? []) {
    blocks.push({
      type: "tool_use",
      id: tool.id ?? `toolu_stub${++idCounter}`,
      name: tool.name,
      input: tool.input,
    });
  }
  return blocks;
}

/**
 * The usage a step reports for a request: its script's, or the request's own size (`base`: the
 * tokens its queue's first request reports, and that request's own size).
 */
export function usageFor(
  step: Step,
  body: Record<string, unknown>,
  reply: unknown[],
  base?: { tokens: number; first: number },
): StepUsage {
  if (step.usage !== "request") return step.usage;
  const size = requestTokens(body);
  const tokens = base ? base.tokens + size - base.first : size;
  return {
    input_tokens: 3,
    cache_creation_input_tokens: Math.min(997, Math.max(0, tokens - 3)),
    cache_read_input_tokens: Math.max(0, tokens - 1000),
    output_tokens: Math.max(1, Math.round(JSON.stringify(reply).length * TOKENS_PER_BYTE)),
  };
}

/** Context tokens of a usage: what Claude Code's statusline and the hook add up. */
export function usedTokens(usage: StepUsage): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0);
}

/** The SSE body of one streamed reply; `id` names the message. */
export function streamReply(
  model: string,
  step: Step,
  id = `msg_stub${++idCounter}`,
  stepUsage: StepUsage = step.usage === "request" ? { input_tokens: 0 } : step.usage,
  blocks: Record<string, unknown>[] = replyContent(step),
): string {
  return streamParts(model, step, id, stepUsage, blocks).join("");
}

/** The SSE events of one streamed reply: the start, each content block's, and the end. */
function streamParts(
  model: string,
  step: Step,
  id = `msg_stub${++idCounter}`,
  stepUsage: StepUsage = step.usage === "request" ? { input_tokens: 0 } : step.usage,
  blocks: Record<string, unknown>[] = replyContent(step),
): string[] {
  const parts: string[] = [];
  const usage = {
    input_tokens: stepUsage.input_tokens,
    cache_creation_input_tokens: stepUsage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: stepUsage.cache_read_input_tokens ?? 0,
    output_tokens: 1,
  };
  let out = sse("message_start", {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  });
  parts.push(out);
  blocks.forEach((block, index) => {
    out = "";
    if (block.type === "text") {
      out += sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      out += sse("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      });
    } else {
      out += sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      out += sse("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    out += sse("content_block_stop", { type: "content_block_stop", index });
    parts.push(out);
  });
  out = sse("message_delta", {
    type: "message_delta",
    delta: { stop_reason: step.tools?.length ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: stepUsage.output_tokens ?? 20 },
  });
  out += sse("message_stop", { type: "message_stop" });
  parts.push(out);
  return parts;
}

/** Starts the stand-in on 127.0.0.1 at a free port. */
export function startApiStub(script: Script): ApiStub {
  const queues: Record<string, Step[]> = { main: [...script.main] };
  for (const [marker, steps] of Object.entries(script.agents ?? {})) queues[marker] = [...steps];
  for (const [marker, steps] of Object.entries(script.forks ?? {})) queues[marker] = [...steps];
  const forkMarkers = Object.keys(script.forks ?? {});
  const requests: RecordedRequest[] = [];
  const served: Record<string, number> = {};
  // Each queue's first request size, for `requestBase`.
  const firstSize: Record<string, number> = {};

  const server = serveLoopback(async ({ path, body, at }) => {
    if (path.endsWith("/count_tokens")) {
      requests.push({ path, body, route: "count_tokens", at });
      return Response.json({ input_tokens: 1000 });
    }
    if (!path.endsWith("/v1/messages")) {
      return Response.json({ type: "error", error: { type: "not_found_error", message: "stub" } }, {
        status: 404,
      });
    }
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const model = typeof body.model === "string" ? body.model : "claude-sonnet-4-6";
    const firstUser = textOf((messages[0] as Record<string, unknown> | undefined)?.content);
    const userTexts = messages
      .filter((m) => (m as Record<string, unknown>)?.role === "user")
      .map((m) => textOf((m as Record<string, unknown>).content));
    const fork = forkMarkers.find((k) => userTexts.some((text) => text.includes(k)));
    const queue = fork ?? Object.keys(queues).find((k) => k !== "main" && firstUser.includes(k)) ??
      "main";
    let route = "side";
    let compacted: string | undefined;
    let step: Step | undefined;
    if (lastUserText(messages).includes(COMPACT_PROMPT)) {
      route = "compact";
      compacted = queue;
      // In the tags the prompt asks for: 2.1.337 asks again, once, for a summary without them.
      const text =
        "<analysis>Scripted.</analysis>\n<summary>The user ran a scripted session.</summary>";
      step = { usage: { input_tokens: 5000 }, text };
    } else if (Array.isArray(body.tools) && body.tools.length > 0) {
      route = queue;
      step = queues[route]?.shift() ?? { usage: { input_tokens: 100 }, text: "Done." };
      served[route] = (served[route] ?? 0) + 1;
    } else {
      step = { usage: { input_tokens: 10 }, text: "Scripted session" };
    }
    await pause(step.latencyMs);
    const id = `msg_stub${++idCounter}`;
    const blocks = replyContent(step);
    let base: { tokens: number; first: number } | undefined;
    if (script.requestBase !== undefined && step.usage === "request") {
      const first = firstSize[route] ?? requestTokens(body);
      firstSize[route] = first;
      base = { tokens: script.requestBase, first };
    }
    const stepUsage = usageFor(step, body, blocks, base);
    const usage = { tokens: usedTokens(stepUsage), outputTokens: stepUsage.output_tokens ?? 20 };
    requests.push({
      path,
      body,
      route,
      at,
      messageId: id,
      usage,
      ...(compacted ? { compacted } : {}),
    });
    if (body.stream !== true) {
      return Response.json({
        id,
        type: "message",
        role: "assistant",
        model,
        content: blocks,
        stop_reason: step.tools?.length ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: { ...stepUsage, output_tokens: 5 },
      });
    }
    const parts = streamParts(model, step, id, stepUsage, blocks);
    const delay = step.blockDelayMs ?? 0;
    return eventStream(parts, (i) => i > 1 ? delay : 0);
  });
  return { url: server.url, requests, served, close: server.close };
}
