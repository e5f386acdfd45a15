/**
 * A loopback stand-in for OpenAI's Responses API, the Codex CLI's counterpart of api_stub.ts:
 * answers Codex's streamed `POST /v1/responses` from a script of steps, each with the `usage`
 * that sets the context percentage, and records every request body so tests can see what the
 * model received. Codex reaches it through a custom provider (tests/e2e/codex_harness.ts).
 */
import { eventStream, pause, serveLoopback, sse, textIn } from "./loopback_server.ts";

/** One model turn: shell commands (`exec_command`), or final text. */
export interface ResponsesStep {
  /** The request's input tokens as the API reports them (`cached` of them from the cache). */
  input: number;
  cached?: number;
  output?: number;
  /** Shell commands the model runs, one function call each. */
  commands?: string[];
  text?: string;
  /** Milliseconds before the reply starts. */
  latencyMs?: number;
  /** Milliseconds between the output items and `response.completed` (which carries the usage). */
  completeDelayMs?: number;
}

export interface ResponsesRequest {
  path: string;
  body: Record<string, unknown>;
  /** "main" (a request with tools), "compact" (a summary request) or "side". */
  route: string;
  at: number;
  /** The response id and the usage reported, for main and compact routes. */
  responseId?: string;
  input?: number;
}

export interface ResponsesStub {
  url: string;
  requests: ResponsesRequest[];
  served: number;
  close(): Promise<void>;
}

let counter = 0;

/** An event whose data names its type, as the Responses API writes them. */
function typed(event: string, data: Record<string, unknown>): string {
  return sse(event, { type: event, ...data });
}

/** Codex's summary request ends with this prompt (its default `compact_prompt`, 0.171.0). */
export const COMPACT_MARKER = "CONTEXT CHECKPOINT COMPACTION";

function outputItems(step: ResponsesStep): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (step.text !== undefined || !step.commands?.length) {
    items.push({
      type: "message",
      id: `msg_${++counter}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: step.text ?? "Done.", annotations: [] }],
    });
  }
  for (const cmd of step.commands ?? []) {
    items.push({
      type: "function_call",
      id: `fc_${++counter}`,
      call_id: `call_${counter}`,
      name: "exec_command",
      arguments: JSON.stringify({ cmd }),
      status: "completed",
    });
  }
  return items;
}

/** The SSE events of one streamed response: the items, then the completion with its usage. */
export function streamResponse(step: ResponsesStep, id: string, model: string): string[] {
  const items = outputItems(step);
  const base = { id, object: "response", model, created_at: Math.floor(Date.now() / 1000) };
  let out = typed("response.created", { response: { ...base, status: "in_progress", output: [] } });
  items.forEach((item, output_index) => {
    out += typed("response.output_item.added", { output_index, item });
    out += typed("response.output_item.done", { output_index, item });
  });
  const usage = {
    input_tokens: step.input,
    input_tokens_details: { cached_tokens: step.cached ?? 0 },
    output_tokens: step.output ?? 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: step.input + (step.output ?? 10),
  };
  return [
    out,
    typed("response.completed", {
      response: { ...base, status: "completed", output: items, usage },
    }),
  ];
}

/**
 * Starts the stand-in on 127.0.0.1 at a free port. Requests with tools take the next step of
 * `main`; a summary request (compaction) is answered with `compactInput` tokens; others (titles,
 * side questions) with a few tokens.
 */
export function startResponsesStub(
  main: ResponsesStep[],
  options: { compactInput?: number; model?: string } = {},
): ResponsesStub {
  const queue = [...main];
  const requests: ResponsesRequest[] = [];
  const stub: ResponsesStub = { url: "", requests, served: 0, close: () => Promise.resolve() };
  const server = serveLoopback(async ({ path, body, at }) => {
    if (!path.endsWith("/responses")) {
      requests.push({ path, body, route: "other", at });
      if (path.endsWith("/models")) return Response.json({ object: "list", data: [] });
      return Response.json({ error: { message: "stub" } }, { status: 404 });
    }
    const tools = Array.isArray(body.tools) && body.tools.length > 0;
    let route = "side";
    let step: ResponsesStep;
    const items = Array.isArray(body.input) ? body.input : [];
    if (textIn(items.at(-1)).includes(COMPACT_MARKER)) {
      route = "compact";
      step = { input: options.compactInput ?? 5_000, text: "Summary: a scripted session." };
    } else if (tools) {
      route = "main";
      step = queue.shift() ?? { input: 100, text: "Done." };
      stub.served++;
    } else {
      step = { input: 10, text: "Scripted session" };
    }
    await pause(step.latencyMs);
    const id = `resp_${++counter}`;
    requests.push({ path, body, route, at, responseId: id, input: step.input });
    const model = typeof body.model === "string" ? body.model : "gpt-5.5";
    const delay = step.completeDelayMs ?? 0;
    return eventStream(streamResponse(step, id, model), (i) => i === 1 ? delay : 0);
  });
  stub.url = server.url;
  stub.close = server.close;
  return stub;
}
