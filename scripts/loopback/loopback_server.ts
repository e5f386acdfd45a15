/**
 * What the two loopback stand-ins (api_stub.ts for Claude Code's Messages API, responses_stub.ts
 * for Codex's Responses API) share: a server on 127.0.0.1 at a free port that reads each request's
 * JSON body, and a server-sent event stream written in parts.
 */

/** One request as an API's answer sees it: `at` is when it arrived (performance.now()). */
export interface LoopbackRequest {
  path: string;
  body: Record<string, unknown>;
  at: number;
}

/** A running stand-in. */
export interface LoopbackServer {
  url: string;
  close(): Promise<void>;
}

/** One server-sent event: its name and its JSON data. */
export function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Milliseconds of `latencyMs`, a step's wait before its reply starts. */
export async function pause(ms: number | undefined): Promise<void> {
  if (ms) await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Serves `answer` on 127.0.0.1 at a free port; a body that is not JSON (a GET) reads as `{}`. */
export function serveLoopback(
  answer: (request: LoopbackRequest) => Promise<Response> | Response,
): LoopbackServer {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const at = performance.now();
    let body: Record<string, unknown> = {};
    try {
      body = await req.json();
    } catch {
      // GETs and empty bodies.
    }
    return await answer({ path: new URL(req.url).pathname, body, at });
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    close: () => server.shutdown(),
  };
}

/** An event stream of `parts`, waiting `delayBefore(i)` ms before part `i` (none: one write). */
export function eventStream(parts: string[], delayBefore: (index: number) => number): Response {
  const headers = { "content-type": "text/event-stream", "cache-control": "no-cache" };
  if (parts.every((_, i) => delayBefore(i) <= 0)) return new Response(parts.join(""), { headers });
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const encoder = new TextEncoder();
      for (const [i, part] of parts.entries()) {
        await pause(Math.max(0, delayBefore(i)));
        controller.enqueue(encoder.encode(part));
      }
      controller.close();
    },
  });
  return new Response(stream, { headers });
}

/**
 * Every string inside a value, joined: what a request carried, whatever its shape (a Responses
 * API `input`, a Gemini API `contents` or `systemInstruction`).
 */
export function textIn(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(textIn).join("\n");
  if (typeof value === "object" && value !== null) {
    return Object.values(value).map(textIn).join("\n");
  }
  return "";
}
