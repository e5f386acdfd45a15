/**
 * `lessons-reinject demo`: a bundled session (lines Claude Code wrote, token counts rewritten)
 * replayed call by call through `runHook` in a temporary folder, and laid out to the width.
 */
import { DELIVERED_ATTACHMENT } from "../core/claude_code.ts";
import { join } from "../core/path.ts";
import { isReading } from "../core/reading.ts";
import { REFERENCE_SPAN } from "../core/schedule.ts";
// A real 2.1.328 transcript, its usage rewritten to climb past 30, 52 and 70 % of a 200k window:
// built by scripts/measure/make_demo_session.ts, not edited by hand.
import demoSession from "../data/demo_session.jsonl" with { type: "text" };
import sampleManifest from "../data/sample_manifest.json" with { type: "json" };
import { debugLine, runHook } from "../hook.ts";
import { failed } from "../core/result.ts";
import { makeTempFolder } from "../io/files.ts";
import { resolveSettings } from "../settings/resolve.ts";
import * as cli from "./common.ts";
import { demoLines, type DemoRow } from "./demo_view.ts";
import type { DemoJson } from "./schemas.ts";

const HELP = `Usage: lessons-reinject demo [--full] [--json]

Replays a Claude Code session through the hook's own code, tool call by tool call, with the bundled
sample lessons. Its transcript lines are ones Claude Code 2.1.328 wrote (claude-sonnet-4-6,
200,000-token window); their token counts were rewritten so that the context climbs past 30%, 52%
and 70%. Each call is shown with its gauge and the hook's decision, each refresh with what it
injected: exactly three refreshes. Then the same session on Claude Code's default model,
claude-opus-5-5 (1,000,000-token window), its token counts 1.5 times larger: five refreshes, at
60k, 104k and 140k as on 200k, then every 40k. Runs in temporary folders it removes; ignores your
settings; no network, no Claude Code needed. Colour on a terminal, unless NO_COLOR is set. Laid out to the
terminal's width (piped: COLUMNS when set, else 100; never under 60).

Options:
  --full      print each injected text whole (default: its first lines)
  --json      print every step as JSON (see docs/commands.md: "demo --json")
  -h, --help  this help
`;

// deno-lint-ignore no-explicit-any
type Entry = Record<string, any>;
type Step = DemoJson["steps"][number] & DemoRow;

/** The bundled session as recorded, or on another model with its token counts scaled. */
interface Variant {
  model?: string;
  version?: string;
  scale: number;
}

/** Claude Code's default model in the release that made it so: a 1M window, natively. */
export const DEFAULT_MODEL_SESSION: Variant = {
  model: "claude-opus-5-5",
  version: "2.1.332",
  scale: 1.5,
};

/** The bundled session's entries, rewritten to `variant`. */
function entriesOf(variant: Variant): Entry[] {
  return demoSession.trimEnd().split(/\r?\n/).map((line) => {
    const entry: Entry = JSON.parse(line);
    if (variant.version && entry.version) entry.version = variant.version;
    const message = entry.type === "assistant" ? entry.message : undefined;
    if (message && variant.model) message.model = variant.model;
    const usage = message?.usage;
    for (const key of ["input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"]) {
      if (typeof usage?.[key] === "number") usage[key] = Math.round(usage[key] * variant.scale);
    }
    return entry;
  });
}

type Replayed = Omit<DemoJson, "steps" | "defaultModel"> & { steps: Step[] };

/** Replays the bundled session (as `variant` has it) through `runHook` in `dir`, an empty folder. */
async function replay(dir: string, variant: Variant = { scale: 1 }): Promise<Replayed> {
  const entries = entriesOf(variant);
  const { sessionId, cwd } = entries.find((e) => e.sessionId && e.cwd)!;
  const transcript = join(dir, `${sessionId}.jsonl`);
  const manifest = join(dir, "lesson-manifest.json");
  Deno.writeTextFileSync(manifest, JSON.stringify(sampleManifest));
  // Never the user's settings: its own state folder, and the sample manifest as the only source.
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
  const demo = { model: "", window: 0, thresholds: settings.thresholds, steps: [] as Step[] };
  const uses = new Map<string, Entry>();
  const append = (line: unknown) =>
    Deno.writeTextFileSync(transcript, `${JSON.stringify(line)}\n`, { append: true });
  for (const entry of entries) {
    append(entry);
    if (entry.type === "assistant") {
      demo.model = entry.message.model;
      for (const block of entry.message.content) uses.set(block.id, block);
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
      const text = trace.result === "fired" ? trace.refresh?.text ?? null : null;
      // Claude Code 2.1.328 records the delivery after the tool result; the next call reads it.
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
      const percent = reading?.percent ?? 0;
      demo.window = reading?.window ?? demo.window;
      // The decision's own phrase, unless the call ended for another reason (a race, a write).
      const { decision } = trace;
      const cause = text !== null ? decision?.cause : undefined;
      demo.steps.push({
        step: demo.steps.length + 1,
        event,
        tool: use.name,
        toolUseId: block.tool_use_id,
        percent,
        tokens: reading?.tokens ?? 0,
        window: demo.window,
        gauge: cli.gauge(percent, settings.thresholds, demo.window, 40, reading?.span),
        decision: debugLine(trace),
        injected: text !== null,
        header: text?.split("\n")[0] ?? null,
        chars: text?.length ?? 0,
        text,
        // Which of two texts to show, not what to do: the shorter when it is all the longer says.
        // deno-lint-ignore lessons/no-error-wording
        reason: decision && trace.reason.endsWith(decision.reason) ? decision.reason : trace.reason,
        crossed: cause?.kind === "thresholds" ? cause.thresholds : [],
      });
    }
  }
  return { ...demo, injections: demo.steps.filter((s) => s.injected).length };
}

/** Runs `demo`. Exit 0 when the replays injected three and five times, else 1. */
export async function runDemo(args: string[], ctx: cli.Ctx): Promise<number> {
  const flags = await cli.readFlags(args, { ...cli.COMMON, full: "boolean" }, HELP, ctx);
  if ("exit" in flags) return flags.exit;
  const replayIn = async (variant?: Variant) => {
    const dir = makeTempFolder("lessons-reinject-demo-", ctx.settings.tmpDir);
    if (failed(dir)) return dir;
    return await replay(dir, variant).finally(() =>
      Deno.remove(dir, { recursive: true }).catch(() => {})
    );
  };
  const demo = await replayIn();
  if (failed(demo)) return await cli.fail(demo.error, flags.values.json);
  const large = await replayIn(DEFAULT_MODEL_SESSION);
  if (failed(large)) return await cli.fail(large.error, flags.values.json);
  const json = ({ steps, ...rest }: Replayed) => ({
    ...rest,
    steps: steps.map(({ reason: _, crossed: __, ...step }) => step),
  });
  if (flags.values.json) {
    await cli.printJson({ ...json(demo), defaultModel: json(large) });
  } else {
    const { command: program, anywhere, readme } = ctx.program();
    const how = { full: flags.values.full ?? false, color: ctx.color, width: ctx.width, readme };
    const view = { ...demo, rows: demo.steps, ...how, program, anywhere };
    const span = Math.min(large.window, REFERENCE_SPAN);
    const second = { ...large, rows: large.steps, scale: DEFAULT_MODEL_SESSION.scale, span };
    await cli.out(demoLines({ ...view, defaultModel: second }).join("\n") + "\n");
  }
  const expected = demo.injections === 3 && large.injections === DEFAULT_MODEL_REFRESHES;
  return expected ? cli.EXIT_OK : cli.EXIT_PROBLEM;
}

/** 60k, 104k and 140k as on 200k, then 180k and 220k of the cadence. */
const DEFAULT_MODEL_REFRESHES = 5;
