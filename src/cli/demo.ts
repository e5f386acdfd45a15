/**
 * `lessons-reinject demo`: the hook's main job on a bundled session (lines Claude Code wrote, token
 * counts rewritten). Replays it tool call by tool call through the hook's own code (`runHook`), in
 * a temporary folder it removes; demo_view.ts turns the result into what the user sees.
 */
import { DELIVERED_ATTACHMENT } from "../core/claude_code.ts";
import { join } from "../core/path.ts";
import { isReading } from "../core/reading.ts";
import { DEMO_TRANSCRIPT_LINES } from "../data/demo_session.ts";
import sampleManifest from "../data/sample_manifest.json" with { type: "json" };
import { debugLine, runHook, type Trace } from "../hook.ts";
import { resolveSettings } from "../settings/resolve.ts";
import {
  COMMON,
  type Ctx,
  EXIT_OK,
  EXIT_PROBLEM,
  gauge,
  out,
  printJson,
  readFlags,
} from "./common.ts";
import { demoLines, type DemoRow } from "./demo_view.ts";
import type { DemoJson } from "./schemas.ts";

const DEMO_HELP = `Usage: lessons-reinject demo [--full] [--json]

Replays a Claude Code session through the hook's own code, tool call by tool call, with the bundled
sample lessons. Its transcript lines are ones Claude Code 2.1.328 wrote (claude-sonnet-4-6,
200,000-token window); their token counts were rewritten so that the context climbs past 30%, 52%
and 70%. Each call is shown with its gauge and the hook's decision, each refresh with what it
injected: exactly three refreshes. Runs in a temporary folder it removes; ignores your settings; no
network, no Claude Code needed. Colour on a terminal, unless NO_COLOR is set. Laid out to the
terminal's width (piped: COLUMNS when set, else 100; never under 60).

Options:
  --full      print each injected text whole (default: its first lines)
  --json      print every step as JSON (see docs/commands.md: "demo --json")
  -h, --help  this help
`;

// deno-lint-ignore no-explicit-any
type Entry = Record<string, any>;

/** Replays the bundled session through `runHook` in `dir`, an empty folder. */
async function replay(dir: string): Promise<{ demo: DemoJson; rows: DemoRow[] }> {
  const entries: Entry[] = DEMO_TRANSCRIPT_LINES.map((l) => JSON.parse(l));
  const sessionId: string = entries.find((e) => typeof e.sessionId === "string")?.sessionId ??
    "demo";
  const cwd: string = entries.find((e) => typeof e.cwd === "string")?.cwd ?? dir;
  const transcript = join(dir, `${sessionId}.jsonl`);
  const manifest = join(dir, "lesson-manifest.json");
  Deno.writeTextFileSync(manifest, JSON.stringify(sampleManifest));
  Deno.writeTextFileSync(transcript, "");
  // The demo's own settings, never the user's: defaults, with its folder for state and manifest,
  // and the sample manifest as the only source (no CLAUDE.md of this machine's).
  const env: Record<string, string> = {
    HOME: dir,
    TMPDIR: dir,
    LESSONS_STATE_DIR: join(dir, "state"),
    LESSONS_MANIFEST_PATH: manifest,
    LESSONS_REINJECT_WAIT_MS: "1",
    CLAUDE_PROJECT_DIR: cwd,
    LESSONS_REINJECT_SOURCES: "manifest",
  };
  const settings = resolveSettings((name) => env[name]);
  const uses = new Map<string, { name: string; input: unknown; tokens: number }>();
  const steps: DemoJson["steps"] = [];
  const rows: DemoRow[] = [];
  let model = "";
  let window = 0;
  const append = (line: string) =>
    Deno.writeTextFileSync(transcript, `${line}\n`, { append: true });
  for (const [index, entry] of entries.entries()) {
    append(DEMO_TRANSCRIPT_LINES[index]!);
    if (entry.type === "assistant") {
      const u = entry.message.usage;
      model = entry.message.model;
      for (const block of entry.message.content ?? []) {
        if (block.type !== "tool_use") continue;
        const tokens = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
        uses.set(block.id, { name: block.name, input: block.input, tokens });
      }
      continue;
    }
    if (entry.type !== "user" || !Array.isArray(entry.message?.content)) continue;
    for (const block of entry.message.content) {
      const use = block.type === "tool_result" ? uses.get(block.tool_use_id) : undefined;
      if (!use) continue;
      const event = block.is_error === true ? "PostToolUseFailure" : "PostToolUse";
      // The payload Claude Code 2.1.328 sends (tests/fixtures/payloads), for this tool call.
      const payload = {
        session_id: sessionId,
        transcript_path: transcript,
        cwd,
        prompt_id: entry.promptId ?? crypto.randomUUID(),
        permission_mode: "default",
        effort: { level: "high" },
        hook_event_name: event,
        tool_name: use.name,
        tool_input: use.input,
        ...(block.is_error === true
          ? { error: String(block.content), is_interrupt: false }
          : { tool_response: entry.toolUseResult ?? block.content }),
        tool_use_id: block.tool_use_id,
        duration_ms: 12,
      };
      const { trace } = await runHook(JSON.stringify(payload), settings);
      const text = trace.result === "fired" ? trace.refresh?.text ?? null : null;
      // As Claude Code does once the hook has answered: record the delivery.
      if (text !== null) {
        append(
          JSON.stringify(
            deliveryRecord(entry, `${event}:${use.name}`, event, block.tool_use_id, text),
          ),
        );
      }
      const reading = trace.reading && isReading(trace.reading) ? trace.reading : undefined;
      window = reading?.window ?? window;
      const percent = reading?.percent ?? 0;
      steps.push({
        step: steps.length + 1,
        event,
        tool: use.name,
        toolUseId: block.tool_use_id,
        percent,
        tokens: reading?.tokens ?? use.tokens,
        window,
        gauge: gauge(percent, settings.thresholds, window),
        decision: debugLine(trace),
        injected: text !== null,
        header: text === null ? null : text.split("\n")[0] ?? "",
        chars: text?.length ?? 0,
        text,
      });
      rows.push(rowOf(steps.length, event, use.name, reading?.tokens ?? use.tokens, trace));
    }
  }
  const injections = steps.filter((s) => s.injected).length;
  return { demo: { model, window, thresholds: [...settings.thresholds], steps, injections }, rows };
}

/**
 * The `hook_additional_context` attachment Claude Code 2.1.328 writes after the tool result when
 * a hook's answer is delivered (docs/claude-code-facts.md), so the next call finds its receipt.
 */
function deliveryRecord(
  result: Entry,
  hookName: string,
  hookEvent: string,
  call: string,
  text: string,
): Entry {
  return {
    parentUuid: result.uuid ?? null,
    isSidechain: false,
    type: "attachment",
    attachment: {
      type: DELIVERED_ATTACHMENT,
      content: [text],
      hookName,
      toolUseID: call,
      hookEvent,
    },
    uuid: crypto.randomUUID(),
    timestamp: result.timestamp,
    sessionId: result.sessionId,
    cwd: result.cwd,
    version: result.version,
  };
}

/** One tool call as the demo shows it, from the hook's trace. Pure. */
function rowOf(step: number, event: string, tool: string, tokens: number, trace: Trace): DemoRow {
  const { decision } = trace;
  const cause = decision?.cause;
  const fired = trace.result === "fired";
  // The decision's own phrase, unless the call ended for another reason (a race, a write).
  let reason = decision && trace.reason.endsWith(decision.reason) ? decision.reason : trace.reason;
  if (fired && cause?.kind === "toolCount") reason = `${cause.calls} tool calls without a reading`;
  const reading = trace.reading && isReading(trace.reading) ? trace.reading : undefined;
  return {
    step,
    event,
    tool,
    tokens,
    percent: reading?.percent ?? 0,
    reason,
    crossed: fired && cause?.kind === "thresholds" ? [...cause.thresholds] : [],
    text: fired ? trace.refresh?.text ?? null : null,
  };
}

/** Runs `demo`. Exit 0 when the replay injected exactly three times, else 1. */
export async function runDemo(args: string[], ctx: Ctx): Promise<number> {
  const flags = await readFlags(args, { ...COMMON, full: "boolean" }, DEMO_HELP, ctx);
  if ("exit" in flags) return flags.exit;
  const dir = Deno.makeTempDirSync({ prefix: "lessons-reinject-demo-" });
  let result: Awaited<ReturnType<typeof replay>>;
  try {
    result = await replay(dir);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  const { demo, rows } = result;
  if (flags.values.json) await printJson(demo);
  else {
    const { command, anywhere, readme } = ctx.program();
    const view = { model: demo.model, window: demo.window, thresholds: demo.thresholds, rows };
    const options = {
      full: flags.values.full ?? false,
      color: ctx.color,
      width: ctx.width,
      program: command,
      anywhere,
      readme,
    };
    await out(demoLines(view, options).join("\n") + "\n");
  }
  return demo.injections === 3 ? EXIT_OK : EXIT_PROBLEM;
}
