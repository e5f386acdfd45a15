/**
 * A loopback stand-in for the Gemini API, Gemini CLI's counterpart of responses_stub.ts: answers
 * `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` from a script of steps, each with the
 * `usageMetadata.promptTokenCount` that sets the context, answers a compression's summary requests
 * (`:generateContent`) with a `<state_snapshot>`, and records every request body so tests can see
 * what the model received. Gemini CLI reaches it through `GOOGLE_GEMINI_BASE_URL`
 * (docs/maintainers/gemini-facts.md).
 */
import { pause, serveLoopback, textIn } from "./loopback_server.ts";

/** One model turn: shell commands (`run_shell_command`), or final text. */
export interface GeminiStep {
  /** The request's prompt tokens as the API reports them (`cached` of them from the cache). */
  input: number;
  cached?: number;
  commands?: string[];
  text?: string;
  /** Milliseconds before the reply starts. */
  latencyMs?: number;
  /** After this final text, the next-speaker check answers "model": Gemini CLI sends "Please continue." */
  continues?: boolean;
}

export interface GeminiRequest {
  path: string;
  body: Record<string, unknown>;
  /** "main" (a streamed request with tools), "compact" (a summary request) or "side". */
  route: string;
  input?: number;
}

export interface GeminiStub {
  url: string;
  requests: GeminiRequest[];
  close(): Promise<void>;
}

/** Gemini CLI's summary request asks for this (0.61.0, its compression service). */
export const SNAPSHOT_MARKER = "<state_snapshot>";

let counter = 0;

function partsOf(step: GeminiStep): Record<string, unknown>[] {
  const calls = (step.commands ?? []).map((command) => ({
    functionCall: { id: `call_${++counter}`, name: "run_shell_command", args: { command } },
  }));
  return calls.length > 0 ? calls : [{ text: step.text ?? "Done." }];
}

function answer(step: GeminiStep, model: string): Record<string, unknown> {
  return {
    candidates: [{
      content: { role: "model", parts: partsOf(step) },
      finishReason: "STOP",
      index: 0,
    }],
    usageMetadata: {
      promptTokenCount: step.input,
      candidatesTokenCount: 10,
      totalTokenCount: step.input + 10,
      ...(step.cached ? { cachedContentTokenCount: step.cached } : {}),
    },
    modelVersion: model,
    responseId: `resp_${++counter}`,
  };
}

/**
 * Starts the stand-in on 127.0.0.1 at a free port. Streamed requests with tools take the next step
 * of `main`; a summary request (its system instruction asks for a `<state_snapshot>`) is answered
 * with one, reporting `compactInput` tokens; others (routing, next speaker) with a few tokens.
 */
export function startGeminiStub(
  main: GeminiStep[],
  options: { compactInput?: number } = {},
): GeminiStub {
  const queue = [...main];
  const requests: GeminiRequest[] = [];
  let nextSpeaker = "user";
  const server = serveLoopback(async ({ path, body }) => {
    const model = /models\/([^:]+):/.exec(path)?.[1] ?? "gemini-2.5-pro";
    if (path.endsWith(":countTokens")) {
      requests.push({ path, body, route: "count" });
      return Response.json({ totalTokens: Math.ceil(textIn(body.contents).length / 4) });
    }
    const tools = Array.isArray(body.tools) && body.tools.length > 0;
    const system = textIn(body.systemInstruction);
    let route = "side";
    let step: GeminiStep = {
      input: 10,
      text: JSON.stringify({ next_speaker: nextSpeaker, reasoning: "scripted" }),
    };
    if (!tools) nextSpeaker = "user";
    if (!tools && system.includes(SNAPSHOT_MARKER)) {
      route = "compact";
      step = {
        input: options.compactInput ?? 3_000,
        text: `${SNAPSHOT_MARKER}A scripted session.</state_snapshot>`,
      };
    } else if (tools && path.includes(":streamGenerateContent")) {
      route = "main";
      step = queue.shift() ?? { input: 100, text: "Done." };
      nextSpeaker = step.continues ? "model" : "user";
    }
    await pause(step.latencyMs);
    requests.push({ path, body, route, input: step.input });
    const data = answer(step, model);
    if (!path.includes(":streamGenerateContent")) return Response.json(data);
    const headers = { "content-type": "text/event-stream" };
    return new Response(`data: ${JSON.stringify(data)}\r\n\r\n`, { headers });
  });
  return { url: server.url, requests, close: server.close };
}
