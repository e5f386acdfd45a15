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
import { debugLine, runHook } from "../hook.ts";
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
  const { sessionId, cwd } = entries.find((e) => e.sessionId && e.cwd)!;
  const transcript = join(dir, `${sessionId}.jsonl`);
  const manifest = join(dir, "lesson-manifest.json");
  Deno.writeTextFileSync(manifest, JSON.stringify(sampleManifest));
  // The demo's own settings, never the user's: defaults, with its folder for state, and the
  // sample manifest as the only source (no CLAUDE.md of this machine's).
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
  const uses = new Map<string, Entry>();
  const demo: DemoJson = {
    model: "",
    window: 0,
    thresholds: settings.thresholds,
    steps: [],
    injections: 0,
  };
  const rows: DemoRow[] = [];
  const append = (line: unknown) =>
    Deno.writeTextFileSync(transcript, `${JSON.stringify(line)}\n`, { append: true });
  for (const entry of entries) {
    append(entry);
    if (entry.type === "assistant") {
      demo.model = entry.message.model;
      for (const block of entry.message.content) {
        uses.set(block.id, { ...block, usage: entry.message.usage });
      }
    }
    for (const block of entry.type === "user" ? entry.message.content : []) {
      const use = uses.get(block.tool_use_id);
      if (block.type !== "tool_result" || !use) continue;
      const event = block.is_error ? "PostToolUseFailure" : "PostToolUse";
      // The payload Claude Code 2.1.328 sends (tests/fixtures/payloads), for this tool call.
      const payload = {
        session_id: sessionId,
        transcript_path: transcript,
        cwd,
        prompt_id: entry.promptId,
        permission_mode: "default",
        effort: { level: "high" },
        hook_event_name: event,
        tool_name: use.name,
        tool_input: use.input,
        ...(block.is_error
          ? { error: String(block.content), is_interrupt: false }
          : { tool_response: entry.toolUseResult ?? block.content }),
        tool_use_id: block.tool_use_id,
        duration_ms: 12,
      };
      const { trace } = await runHook(JSON.stringify(payload), settings);
      const fired = trace.result === "fired";
      const text = fired ? trace.refresh?.text ?? null : null;
      // As Claude Code 2.1.328 does once the hook has answered: it records the delivery after the
      // tool result (docs/maintainers/claude-code-facts.md), where the next call finds its receipt.
      if (text !== null) {
        append({
          parentUuid: entry.uuid,
          isSidechain: false,
          type: "attachment",
          attachment: {
            type: DELIVERED_ATTACHMENT,
            content: [text],
            hookName: `${event}:${use.name}`,
            toolUseID: block.tool_use_id,
            hookEvent: event,
          },
          uuid: crypto.randomUUID(),
          ...Object.fromEntries(
            ["timestamp", "sessionId", "cwd", "version"].map((k) => [k, entry[k]]),
          ),
        });
      }
      const reading = trace.reading && isReading(trace.reading) ? trace.reading : undefined;
      const u = use.usage;
      const tokens = reading?.tokens ??
        u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
      const percent = reading?.percent ?? 0;
      demo.window = reading?.window ?? demo.window;
      const step = rows.length + 1;
      demo.steps.push({
        step,
        event,
        tool: use.name,
        toolUseId: block.tool_use_id,
        percent,
        tokens,
        window: demo.window,
        gauge: gauge(percent, settings.thresholds, demo.window),
        decision: debugLine(trace),
        injected: text !== null,
        header: text?.split("\n")[0] ?? null,
        chars: text?.length ?? 0,
        text,
      });
      // The decision's own phrase, unless the call ended for another reason (a race, a write).
      const { decision } = trace;
      const cause = decision?.cause;
      const reason = fired && cause?.kind === "toolCount"
        ? `${cause.calls} tool calls without a reading`
        : decision && trace.reason.endsWith(decision.reason)
        ? decision.reason
        : trace.reason;
      const crossed = fired && cause?.kind === "thresholds" ? cause.thresholds : [];
      rows.push({ step, event, tool: use.name, tokens, percent, reason, crossed, text });
    }
  }
  demo.injections = demo.steps.filter((s) => s.injected).length;
  return { demo, rows };
}

/** Runs `demo`. Exit 0 when the replay injected exactly three times, else 1. */
export async function runDemo(args: string[], ctx: Ctx): Promise<number> {
  const flags = await readFlags(args, { ...COMMON, full: "boolean" }, DEMO_HELP, ctx);
  if ("exit" in flags) return flags.exit;
  const dir = Deno.makeTempDirSync({ prefix: "lessons-reinject-demo-" });
  const result = await replay(dir).finally(() =>
    Deno.remove(dir, { recursive: true }).catch(() => {})
  );
  const { demo, rows } = result;
  const { command: program, anywhere, readme } = ctx.program();
  const full = flags.values.full ?? false;
  const view = {
    ...demo,
    rows,
    full,
    color: ctx.color,
    width: ctx.width,
    program,
    anywhere,
    readme,
  };
  await (flags.values.json ? printJson(demo) : out(demoLines(view).join("\n") + "\n"));
  return demo.injections === 3 ? EXIT_OK : EXIT_PROBLEM;
}
