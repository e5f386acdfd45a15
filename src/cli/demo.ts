/**
 * `lessons-reinject demo`: the hook's main job on a bundled real session. Replays the recorded
 * Claude Code session tool call by tool call through the hook's own entry point (`runHook`), in a
 * temporary folder it removes, and shows each decision with the gauge and what was injected.
 */
import { join } from "../core/path.ts";
import { isReading } from "../core/decide.ts";
import { DEMO_TRANSCRIPT_LINES } from "../data/demo_session.ts";
import sampleManifest from "../data/sample_manifest.json" with { type: "json" };
import { runHook } from "../hook.ts";
import { debugLine } from "../hook/trace.ts";
import { resolveSettings, type Settings } from "../settings/resolve.ts";
import {
  type CliIo,
  COMMON_OPTIONS,
  EXIT_OK,
  EXIT_PROBLEM,
  groupDigits,
  printJson,
  readFlags,
} from "./common.ts";
import { gauge } from "./gauge.ts";
import type { DemoJson } from "./schemas.ts";

export const DEMO_HELP = `Usage: lessons-reinject demo [--full] [--json]

Replays a real Claude Code session (recorded from Claude Code 2.1.328, claude-sonnet-4-6, 200k
window; bundled) through the hook, tool call by tool call, with the bundled sample manifest. The
context climbs past 30, 52 and 70 %: each decision is shown with the gauge and what was injected.
Exactly three refreshes. Runs in a temporary folder it removes; ignores your settings; no network,
no Claude Code needed.

Options:
  --full      print each injected text whole (default: its first lines)
  --json      print every step as JSON (see README: "demo --json")
  -h, --help  this help
`;

const OPTIONS = { ...COMMON_OPTIONS, full: { type: "boolean" } } as const;
const PREVIEW_LINES = 6;

// deno-lint-ignore no-explicit-any
type Entry = Record<string, any>;

interface ToolUse {
  name: string;
  input: unknown;
  tokens: number;
  model: string;
}

/** Replays the bundled session through `runHook`; `dir` is an empty folder to work in. */
export async function replayDemo(dir: string): Promise<DemoJson> {
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
  };
  const settings: Settings = resolveSettings((name) => demoEnv[name]);

  const toolUses = new Map<string, ToolUse>();
  const steps: DemoJson["steps"] = [];
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
      // The hook's own reading and decision, from its trace.
      const reading = trace.reading && isReading(trace.reading) ? trace.reading : undefined;
      window = reading?.window ?? window;
      const percent = reading?.percent ?? 0;
      const text = trace.outcome === "fired" ? trace.refresh?.text ?? null : null;
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
    }
  }
  return {
    model,
    window,
    thresholds: [...settings.thresholds],
    steps,
    injections: steps.filter((s) => s.injected).length,
  };
}

/** The human account of a replay. Pure. */
export function renderDemo(demo: DemoJson, full: boolean): string {
  const out: string[] = [
    `lessons-reinject demo: a real Claude Code 2.1.328 session (${demo.model}, ` +
    `${groupDigits(demo.window)}-token window) replayed through the hook,`,
    `tool call by tool call, with the bundled sample manifest. Thresholds: ${
      demo.thresholds.join(", ")
    } %.`,
    "",
  ];
  for (const step of demo.steps) {
    out.push(
      `${String(step.step).padStart(2)}. ${step.event} ${step.tool} (${step.toolUseId}), ` +
        `${groupDigits(step.tokens)} tokens`,
    );
    out.push(`    ${step.gauge}`);
    out.push(`    hook: ${step.decision.replace(/^[A-Za-z]+ [A-Za-z]+: /, "")}`);
    if (step.text !== null) {
      out.push(`    INJECTED ${groupDigits(step.chars)} characters as additionalContext:`);
      const lines = step.text.trimEnd().split("\n");
      const shown = full ? lines : lines.slice(0, PREVIEW_LINES);
      for (const line of shown) out.push(`    | ${line}`);
      if (shown.length < lines.length) {
        out.push(`    | ... ${lines.length - shown.length} more lines (--full shows them)`);
      }
    }
    out.push("");
  }
  const at = demo.steps.filter((s) => s.injected).map((s) => `${Math.floor(s.percent)}%`);
  out.push(
    `${demo.injections} refreshes injected over ${demo.steps.length} tool calls` +
      (at.length > 0 ? ` (at ${at.join(", ")})` : "") +
      ". The temporary state folder has been removed.",
  );
  return out.join("\n") + "\n";
}

/** Runs `demo`. Exit 0 when the replay injected exactly three times, else 1. */
export async function runDemo(args: string[], io: CliIo, _settings: Settings): Promise<number> {
  const parsed = await readFlags(args, OPTIONS, DEMO_HELP, io);
  if (parsed.kind === "done") return parsed.exit;
  const flags = parsed.values;
  const dir = await Deno.makeTempDir({ prefix: "lessons-reinject-demo-" });
  let demo: DemoJson;
  try {
    demo = await replayDemo(dir);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  if (flags.json) await printJson(io, demo);
  else await io.stdout(renderDemo(demo, flags.full ?? false));
  return demo.injections === 3 ? EXIT_OK : EXIT_PROBLEM;
}
