/**
 * A loopback stand-in for the Anthropic Messages API: answers Claude Code's streamed requests
 * from a script of steps, each with the `usage` that sets the context percentage, and records
 * every request body so tests can see what the model received. Shared by the end-to-end suite
 * (tests/e2e) and the in-session benchmark (bench/in_session.ts).
 */

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

/** One model turn: tool calls, or final text. */
export interface Step {
  usage: StepUsage;
  tools?: ToolCall[];
  text?: string;
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
}

export interface RecordedRequest {
  path: string;
  body: Record<string, unknown>;
  /** Which queue answered: "main", an agent marker, "compact", "side" or "count_tokens". */
  route: string;
  /** When the request arrived (`performance.now()`, ms). */
  at: number;
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

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The SSE body of one streamed reply. */
export function streamReply(model: string, step: Step): string {
  const id = `msg_stub${++idCounter}`;
  const usage = {
    input_tokens: step.usage.input_tokens,
    cache_creation_input_tokens: step.usage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: step.usage.cache_read_input_tokens ?? 0,
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
  let index = 0;
  if (step.text !== undefined || !step.tools?.length) {
    out += sse("content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "text", text: "" },
    });
    out += sse("content_block_delta", {
      type: "content_block_delta",
      index,
      delta: { type: "text_delta", text: step.text ?? "Done." },
    });
    out += sse("content_block_stop", { type: "content_block_stop", index });
    index++;
  }
  for (const tool of step.tools ?? []) {
    const toolId = tool.id ?? `toolu_stub${++idCounter}`;
    out += sse("content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: toolId, name: tool.name, input: {} },
    });
    out += sse("content_block_delta", {
      type: "content_block_delta",
      index,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(tool.input) },
    });
    out += sse("content_block_stop", { type: "content_block_stop", index });
    index++;
  }
  out += sse("message_delta", {
    type: "message_delta",
    delta: { stop_reason: step.tools?.length ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: step.usage.output_tokens ?? 20 },
  });
  out += sse("message_stop", { type: "message_stop" });
  return out;
}

/** Starts the stand-in on 127.0.0.1 at a free port. */
export function startApiStub(script: Script): ApiStub {
  const queues: Record<string, Step[]> = { main: [...script.main] };
  for (const [marker, steps] of Object.entries(script.agents ?? {})) queues[marker] = [...steps];
  for (const [marker, steps] of Object.entries(script.forks ?? {})) queues[marker] = [...steps];
  const forkMarkers = Object.keys(script.forks ?? {});
  const requests: RecordedRequest[] = [];
  const served: Record<string, number> = {};

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const at = performance.now();
    const url = new URL(req.url);
    let body: Record<string, unknown> = {};
    try {
      body = await req.json();
    } catch {
      // GETs and empty bodies.
    }
    if (url.pathname.endsWith("/count_tokens")) {
      requests.push({ path: url.pathname, body, route: "count_tokens", at });
      return Response.json({ input_tokens: 1000 });
    }
    if (!url.pathname.endsWith("/v1/messages")) {
      return Response.json({ type: "error", error: { type: "not_found_error", message: "stub" } }, {
        status: 404,
      });
    }
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const model = typeof body.model === "string" ? body.model : "claude-sonnet-4-6";
    const firstUser = textOf((messages[0] as Record<string, unknown> | undefined)?.content);
    let route = "side";
    let step: Step | undefined;
    if (lastUserText(messages).includes(COMPACT_PROMPT)) {
      route = "compact";
      step = { usage: { input_tokens: 5000 }, text: "Summary: the user ran a scripted session." };
    } else if (Array.isArray(body.tools) && body.tools.length > 0) {
      const userTexts = messages
        .filter((m) => (m as Record<string, unknown>)?.role === "user")
        .map((m) => textOf((m as Record<string, unknown>).content));
      const fork = forkMarkers.find((k) => userTexts.some((text) => text.includes(k)));
      const agent = fork ??
        Object.keys(queues).find((k) => k !== "main" && firstUser.includes(k));
      route = agent ?? "main";
      step = queues[route]?.shift() ?? { usage: { input_tokens: 100 }, text: "Done." };
      served[route] = (served[route] ?? 0) + 1;
    } else {
      step = { usage: { input_tokens: 10 }, text: "Scripted session" };
    }
    requests.push({ path: url.pathname, body, route, at });
    if (body.stream !== true) {
      return Response.json({
        id: `msg_stub${++idCounter}`,
        type: "message",
        role: "assistant",
        model,
        content: [{ type: "text", text: step.text ?? "Done." }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { ...step.usage, output_tokens: 5 },
      });
    }
    return new Response(streamReply(model, step), {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    requests,
    served,
    close: () => server.shutdown(),
  };
}
