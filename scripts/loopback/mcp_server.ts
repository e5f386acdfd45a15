/**
 * A tiny stdio MCP server for measurements and tests: newline-delimited JSON-RPC on stdin and
 * stdout. It can answer `initialize` after a delay, and list more tools some time into the
 * session (announced with `notifications/tools/list_changed`), so that tools reach Claude Code in
 * the middle of a session, as a server that connects or grows late does.
 *
 * Run by Claude Code through `--mcp-config`: `deno run --no-config scripts/loopback/mcp_server.ts
 * --tools=3 --late=20 --late-after=3000 --description=1500` (no permission needed).
 */

/** The server's settings, from `--name=value` arguments. */
export interface McpStubSettings {
  /** Milliseconds before `initialize` is answered. */
  delayMs: number;
  /** How many tools it lists. */
  tools: number;
  /** Bytes of each tool's description. */
  description: number;
  /** Bytes of each tool call's text result. */
  result: number;
  /** Bytes of the server's `instructions`, 0 for none. */
  instructions: number;
  /** Tools it adds `lateAfterMs` after `initialize`, announcing them with list_changed. */
  late: number;
  lateAfterMs: number;
}

/** Settings from `--delay=3000 --tools=20 ...`; missing ones take defaults. */
export function parseSettings(args: readonly string[]): McpStubSettings {
  const settings: McpStubSettings = {
    delayMs: 0,
    tools: 3,
    description: 200,
    result: 100,
    instructions: 0,
    late: 0,
    lateAfterMs: 0,
  };
  const names: Record<string, keyof McpStubSettings> = {
    delay: "delayMs",
    tools: "tools",
    description: "description",
    result: "result",
    instructions: "instructions",
    late: "late",
    "late-after": "lateAfterMs",
  };
  for (const arg of args) {
    const match = /^--([a-z-]+)=(\d+)$/.exec(arg);
    const key = match ? names[match[1]!] : undefined;
    if (key) settings[key] = Number(match![2]);
  }
  return settings;
}

/** Filler prose of exactly `bytes` ASCII bytes, tagged so a reader can find where it went. */
export function prose(tag: string, bytes: number): string {
  const words = "the server explains what this tool does and when a session should call it ";
  let text = `${tag}: `;
  while (text.length < bytes) text += words;
  return text.slice(0, bytes);
}

/** The tools the server lists, once its late tools have arrived or before. */
export function toolsOf(settings: McpStubSettings, late = false): Record<string, unknown>[] {
  return Array.from({ length: settings.tools + (late ? settings.late : 0) }, (_, i) => ({
    name: `probe_tool_${String(i).padStart(2, "0")}`,
    description: prose(`MCP-TOOL-${i}`, settings.description),
    inputSchema: {
      type: "object",
      properties: { query: { type: "string", description: "What to look up." } },
      required: ["query"],
    },
  }));
}

/** The answer to one JSON-RPC request, or undefined for a notification. */
export function answer(
  message: { id?: unknown; method?: string },
  settings: McpStubSettings,
  late = false,
): Record<string, unknown> | undefined {
  if (message.id === undefined) return undefined;
  const reply = (result: unknown) => ({ jsonrpc: "2.0", id: message.id, result });
  switch (message.method) {
    case "initialize":
      return reply({
        protocolVersion: "2025-06-18",
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: "probe", version: "0.0.0" },
        ...(settings.instructions > 0
          ? { instructions: prose("MCP-INSTRUCTIONS", settings.instructions) }
          : {}),
      });
    case "tools/list":
      return reply({ tools: toolsOf(settings, late) });
    case "tools/call":
      return reply({ content: [{ type: "text", text: prose("MCP-RESULT", settings.result) }] });
    case "ping":
      return reply({});
    default:
      return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "not found" } };
  }
}

async function serve(settings: McpStubSettings): Promise<void> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const write = (value: unknown) =>
    Deno.stdout.writeSync(encoder.encode(`${JSON.stringify(value)}\n`));
  let pending = "";
  let late = false;
  const buffer = new Uint8Array(64 * 1024);
  for (;;) {
    const n = await Deno.stdin.read(buffer);
    if (n === null) return;
    pending += decoder.decode(buffer.subarray(0, n), { stream: true });
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (!line) continue;
      let message: { id?: unknown; method?: string };
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      if (message.method === "initialize" && settings.delayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, settings.delayMs));
      }
      if (message.method === "initialize" && settings.late > 0) {
        setTimeout(() => {
          late = true;
          write({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
        }, settings.lateAfterMs);
      }
      const reply = answer(message, settings, late);
      if (reply) write(reply);
    }
  }
}

if (import.meta.main) await serve(parseSettings(Deno.args));
