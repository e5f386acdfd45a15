/**
 * `lessons-reinject demo`: the hook's main job on a bundled session (lines Claude Code wrote, token
 * counts rewritten). Replays it tool call by tool call through the hook's own code (`runHook`), in
 * a temporary folder it removes; demo_view.ts turns the result into what the user sees.
 */
import { join } from "../core/path.ts";
import { isReading } from "../core/reading.ts";
import { DELIVERED_ATTACHMENT } from "../core/claude_code.ts";
import { DEMO_TRANSCRIPT_LINES } from "../data/demo_session.ts";
import sampleManifest from "../data/sample_manifest.json" with { type: "json" };
import { debugLine, runHook, type Trace } from "../hook.ts";
import { resolveSettings, type Settings } from "../settings/resolve.ts";
import {
  type CliIo,
  COMMON_OPTIONS,
  EXIT_OK,
  EXIT_PROBLEM,
  printJson,
  readFlags,
} from "./common.ts";
import { demoLines, type DemoRow, type DemoViewOptions, demoWidth, useColor } from "./demo_view.ts";
import { gauge } from "./gauge.ts";
import type { DemoJson } from "./schemas.ts";

export const DEMO_HELP = `Usage: lessons-reinject demo [--full] [--json]

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

const OPTIONS = { ...COMMON_OPTIONS, full: { type: "boolean" } } as const;

// deno-lint-ignore no-explicit-any
type Entry = Record<string, any>;

interface ToolUse {
  name: string;
  input: unknown;
  tokens: number;
  model: string;
}

/** A replay: the `--json` account, and the rows the demo shows. */
export interface Replay {
  demo: DemoJson;
  rows: DemoRow[];
}

/** Replays the bundled session through `runHook`; `dir` is an empty folder to work in. */
export async function replayDemo(dir: string): Promise<Replay> {
  const entries: Entry[] = DEMO_TRANSCRIPT_LINES.map((l) => JSON.parse(l));
  const first = entries.find((e) => typeof e.sessionId === "string");
  const sessionId: string = first?.sessionId ?? "demo";
  const cwd: string = entries.find((e) => typeof e.cwd === "string")?.cwd ?? dir;
  const transcript = join(dir, `${sessionId}.jsonl`);
  const manifest = join(dir, "lesson-manifest.json");
  await Deno.writeTextFile(manifest, JSON.stringify(sampleManifest));
  await Deno.writeTextFile(transcript, "");
  // The demo's own settings, never the user's: defaults, with its folder for state and manifest.
  const demoEnv: Record<string, string> = {
    HOME: dir,
    TMPDIR: dir,
    LESSONS_STATE_DIR: join(dir, "state"),
    LESSONS_MANIFEST_PATH: manifest,
    LESSONS_REINJECT_WAIT_MS: "1",
    CLAUDE_PROJECT_DIR: cwd,
    // The sample manifest only: no CLAUDE.md or reinject.md of this machine's.
    LESSONS_REINJECT_SOURCES: "manifest",
  };
  const settings: Settings = resolveSettings((name) => demoEnv[name]);

  const toolUses = new Map<string, ToolUse>();
  const steps: DemoJson["steps"] = [];
  const rows: DemoRow[] = [];
  let model = "";
  let window = 0;
  for (const [index, entry] of entries.entries()) {
    await Deno.writeTextFile(transcript, `${DEMO_TRANSCRIPT_LINES[index]}\n`, { append: true });
    if (entry.type === "assistant") {
      const usage = entry.message.usage;
      const tokens = usage.input_tokens + usage.cache_creation_input_tokens +
        usage.cache_read_input_tokens;
      model = entry.message.model;
      for (const block of entry.message.content ?? []) {
        if (block.type === "tool_use") {
          toolUses.set(block.id, { name: block.name, input: block.input, tokens, model });
        }
      }
      continue;
    }
    if (entry.type !== "user" || !Array.isArray(entry.message?.content)) continue;
    for (const block of entry.message.content) {
      if (block.type !== "tool_result") continue;
      const use = toolUses.get(block.tool_use_id);
      if (!use) continue;
      const failed = block.is_error === true;
      const event = failed ? "PostToolUseFailure" : "PostToolUse";
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
        ...(failed
          ? { error: String(block.content), is_interrupt: false }
          : { tool_response: entry.toolUseResult ?? block.content }),
        tool_use_id: block.tool_use_id,
        duration_ms: 12,
      };
      const { trace } = await runHook(JSON.stringify(payload), settings);
      if (trace.result === "fired" && trace.refresh) {
        // As Claude Code does once the hook has answered: record the delivery.
        const hook = { name: `${event}:${use.name}`, event, call: block.tool_use_id };
        const record = deliveryRecord(entry, hook, trace.refresh.text);
        await Deno.writeTextFile(transcript, `${JSON.stringify(record)}\n`, { append: true });
      }
      // The hook's own reading and decision, from its trace.
      const reading = trace.reading && isReading(trace.reading) ? trace.reading : undefined;
      window = reading?.window ?? window;
      const percent = reading?.percent ?? 0;
      const text = trace.result === "fired" ? trace.refresh?.text ?? null : null;
      steps.push({
        step: steps.length + 1,
        event,
        tool: use.name,
        toolUseId: block.tool_use_id,
        percent,
        tokens: reading?.tokens ?? use.tokens,
        window: reading?.window ?? window,
        gauge: gauge(percent, settings.thresholds, reading?.window ?? window),
        decision: debugLine(trace),
        injected: text !== null,
        header: text === null ? null : text.split("\n")[0] ?? "",
        chars: text?.length ?? 0,
        text,
      });
      rows.push(rowOf(steps.length, event, use.name, use.tokens, trace));
    }
  }
  const demo = {
    model,
    window,
    thresholds: [...settings.thresholds],
    steps,
    injections: steps.filter((s) => s.injected).length,
  };
  return { demo, rows };
}

/**
 * The `hook_additional_context` attachment Claude Code 2.1.328 writes after the tool result
 * `result` when a hook's answer is delivered (the shape it records:
 * docs/maintainers/claude-code-facts.md), so that the hook's next call finds its receipt.
 */
function deliveryRecord(
  result: Entry,
  hook: { name: string; event: string; call: string },
  text: string,
): Entry {
  return {
    parentUuid: result.uuid ?? null,
    isSidechain: false,
    type: "attachment",
    attachment: {
      type: DELIVERED_ATTACHMENT,
      content: [text],
      hookName: hook.name,
      toolUseID: hook.call,
      hookEvent: hook.event,
    },
    uuid: crypto.randomUUID(),
    timestamp: result.timestamp,
    sessionId: result.sessionId,
    cwd: result.cwd,
    version: result.version,
  };
}

/**
 * One tool call as the demo shows it, from the hook's trace: its reading, and the decision made
 * under the lock (or, when the call stopped before, the planned one). Pure.
 */
export function rowOf(
  step: number,
  event: string,
  tool: string,
  tokens: number,
  trace: Trace,
): DemoRow {
  const reading = trace.reading && isReading(trace.reading) ? trace.reading : undefined;
  const decision = trace.decision;
  const cause = decision?.cause;
  const fired = trace.result === "fired";
  const text = fired ? trace.refresh?.text ?? null : null;
  // The decision's own phrase, unless the call ended for another reason (a race, a write).
  let reason = decision && trace.reason.endsWith(decision.reason) ? decision.reason : trace.reason;
  if (fired && cause?.kind === "toolCount") reason = `${cause.calls} tool calls without a reading`;
  return {
    step,
    event,
    tool,
    tokens: reading?.tokens ?? tokens,
    percent: reading?.percent ?? 0,
    reason,
    crossed: fired && cause?.kind === "thresholds" ? [...cause.thresholds] : [],
    text,
  };
}

/** The human account of a replay. Pure. */
export function renderDemo(replay: Replay, options: DemoViewOptions): string {
  const view = {
    model: replay.demo.model,
    window: replay.demo.window,
    thresholds: replay.demo.thresholds,
    rows: replay.rows,
  };
  return demoLines(view, options).join("\n") + "\n";
}

/** Runs `demo`. Exit 0 when the replay injected exactly three times, else 1. */
export async function runDemo(args: string[], io: CliIo, settings: Settings): Promise<number> {
  const parsed = await readFlags(args, OPTIONS, DEMO_HELP, io);
  if (parsed.kind === "done") return parsed.exit;
  const flags = parsed.values;
  const dir = await Deno.makeTempDir({ prefix: "lessons-reinject-demo-" });
  let replay: Replay;
  try {
    replay = await replayDemo(dir);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  if (flags.json) await printJson(io, replay.demo);
  else {
    const color = useColor(io.isTerminal?.() ?? false, settings.noColor);
    const program = io.program?.() ?? { command: "lessons-reinject", readme: undefined };
    await io.stdout(renderDemo(replay, {
      full: flags.full ?? false,
      color,
      width: demoWidth(io.columns?.(), settings.columns),
      program: program.command,
      readme: program.readme,
    }));
  }
  return replay.demo.injections === 3 ? EXIT_OK : EXIT_PROBLEM;
}
