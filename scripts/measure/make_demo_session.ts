/**
 * Builds src/data/demo_session.jsonl, the session `lessons-reinject demo` replays, from the transcript
 * real Claude Code 2.1.328 recorded (tests/fixtures/transcripts/recorded-2.1.328-sonnet-climb.jsonl).
 * Run: deno run --allow-read --allow-write scripts/measure/make_demo_session.ts
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const RECORDED = join(
  ROOT,
  "tests",
  "fixtures",
  "transcripts",
  "recorded-2.1.328-sonnet-climb.jsonl",
);
const OUT = join(ROOT, "src", "data", "demo_session.jsonl");

// deno-lint-ignore no-explicit-any
type Line = Record<string, any>;

/** Context (tokens) at each tool-calling turn: past 30 %, 52 % and 70 % of a 200k window. */
export const CLIMB: readonly { kind: "single" | "failure" | "parallel"; tokens: number }[] = [
  { kind: "single", tokens: 24_000 },
  { kind: "single", tokens: 41_000 },
  { kind: "single", tokens: 62_000 },
  { kind: "failure", tokens: 78_000 },
  { kind: "single", tokens: 96_000 },
  { kind: "parallel", tokens: 106_000 },
  { kind: "single", tokens: 121_000 },
  { kind: "single", tokens: 142_000 },
  { kind: "single", tokens: 151_000 },
];
const FINAL_TOKENS = 152_500;

/** Entries that only make the file large (request snapshots) or record the earlier hook run. */
const DROPPED_TYPES = new Set(["api-request-shape", "api-request-blob"]);
const DROPPED_ATTACHMENTS = new Set([
  "prompt_snapshot",
  "skill_listing",
  "agent_listing_delta",
  "deferred_tools_delta",
  "hook_success",
  "hook_additional_context",
]);

function kept(line: Line): boolean {
  if (DROPPED_TYPES.has(line.type)) return false;
  return !(line.type === "attachment" && DROPPED_ATTACHMENTS.has(line.attachment?.type));
}

export function buildDemoLines(recordedText: string): string[] {
  const recorded: Line[] = recordedText.split("\n").filter((l) => l.trim() !== "").map((l) =>
    JSON.parse(l)
  );
  const at = (i: number): Line => {
    const line = recorded[i];
    if (!line) throw new Error(`recorded transcript has no line ${i}`);
    return line;
  };
  // Line numbers (0-based) in the recorded file; see the listing in tests/fixtures/transcripts.
  const head = recorded.slice(0, 14).filter(kept);
  const turns = {
    single: [16, 17, 18, 19, 20, 21, 24].map(at),
    failure: [35, 36, 37, 39].map(at),
    parallel: [41, 42, 43, 44, 45, 48, 50].map(at),
  };
  const final = [52, 53, 54, 55].map(at);

  let serial = 0;
  const uuid = () => `d3e0${(++serial).toString(16).padStart(4, "0")}-0000-4000-8000-000000000000`;
  let clock = Date.parse("2026-11-30T09:00:00.000Z");
  const stamp = () => new Date(clock += 700).toISOString();
  let parent: string | null = null;
  let toolSerial = 0;
  let messageSerial = 0;
  const out: Line[] = [];

  const push = (template: Line, rewrite?: (line: Line) => void) => {
    const line = structuredClone(template);
    if ("uuid" in line) {
      if ("parentUuid" in line) line.parentUuid = parent;
      line.uuid = uuid();
      parent = line.uuid;
    }
    if ("timestamp" in line) line.timestamp = stamp();
    rewrite?.(line);
    out.push(line);
  };
  for (const line of head) push(line);

  for (const step of CLIMB) {
    const template = turns[step.kind];
    const ids = new Map<string, string>();
    const messageId = `msg_demo${++messageSerial}`;
    for (const line of template) {
      push(line, (l) => {
        if (l.type === "assistant") {
          l.message.id = messageId;
          for (const block of l.message.content) {
            if (block.type === "tool_use") {
              const id = `toolu_demo${++toolSerial}`;
              ids.set(block.id, id);
              block.id = id;
            }
          }
          l.message.usage.input_tokens = 10;
          l.message.usage.cache_creation_input_tokens = 0;
          l.message.usage.cache_read_input_tokens = step.tokens - 10;
        }
        if (l.type === "user") {
          for (const block of l.message.content) {
            if (block.type === "tool_result") block.tool_use_id = ids.get(block.tool_use_id);
          }
        }
      });
    }
  }
  for (const line of final) {
    push(line, (l) => {
      if (l.type === "assistant") {
        l.message.id = `msg_demo${++messageSerial}`;
        l.message.usage.cache_read_input_tokens = FINAL_TOKENS - 10;
      }
    });
  }
  return out.map((l) => JSON.stringify(l));
}

if (import.meta.main) {
  const lines = buildDemoLines(Deno.readTextFileSync(RECORDED));
  Deno.writeTextFileSync(OUT, lines.join("\n") + "\n");
}

export { OUT, RECORDED };
