/**
 * Scripted sessions that could happen: each step's growth in tokens is carried by what the step
 * before it wrote (Bash output, or a subagent's report), at the densest rate real transcripts
 * show (TOKENS_PER_BYTE), and `unbackedSteps` finds any request whose scripted growth its own
 * bytes do not carry.
 */
import { TOKENS_PER_BYTE } from "../../src/core/claude_code.ts";
import type { RecordedRequest, Step, StepUsage, ToolCall } from "./api_stub.ts";
import { bytesForTokens, requestTokens } from "./request_size.ts";

/**
 * Bytes of Bash output one result carries inline: Claude Code 2.1.328 saves longer output to a
 * file and shows a preview (`BASH_MAX_OUTPUT_LENGTH`, 30,000 characters by default).
 */
export const BASH_INLINE_BYTES = 29_000;

/** The most tokens one Bash result backs at the measured rate. */
export const MAX_BACKED_TOKENS = Math.floor(BASH_INLINE_BYTES * TOKENS_PER_BYTE);

/** Context usage of `tokens`, spread over the three input fields Claude Code adds up. */
export function usage(tokens: number): StepUsage {
  return {
    input_tokens: 3,
    cache_creation_input_tokens: 997,
    cache_read_input_tokens: tokens - 1000,
  };
}

/** A shell command printing `bytes` bytes of log lines (nothing for 0), then `then`. */
export function printing(bytes: number, then = ""): string {
  const print = bytes > 0
    ? `yes '2026-12-01 12:00:00 INFO request served in 12 ms' | head -c ${bytes}`
    : "true";
  return then ? `${print}; ${then}` : print;
}

/**
 * A model's closing text that carries `tokens` at the measured rate: a subagent's report, which
 * its Agent call returns as its result.
 */
export function reportCarrying(tokens: number): string {
  const line = "The scripted sub task is done: every file it read is as it was.\n";
  const bytes = Math.max(1, bytesForTokens(tokens));
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

/** One scripted model turn of a backed session: Bash calls, and the context it reports. */
export interface BackedStep {
  /** The tool call id, or several: parallel calls that share the output. */
  id: string | string[];
  /** The context this step's request reports. */
  tokens: number;
  /** Run after the printing (e.g. `exit 3` for a failing call). */
  then?: string;
  /**
   * A call of another tool instead of Bash (one id), which prints nothing: its own result must
   * carry the growth to the next step (an Agent call returns its subagent's report, see
   * {@link reportCarrying}); `unbackedSteps` checks that it did.
   */
  call?: Omit<ToolCall, "id">;
}

/**
 * Bash steps whose outputs back each next step's growth (the last step's output backs
 * `finish`), then a final text turn at `finish` tokens whose text is `report`. Throws when one
 * call would have to print more than Claude Code passes inline: split the step, or give it
 * parallel calls.
 */
export function backedSteps(steps: BackedStep[], finish: number, report = "Finished."): Step[] {
  const out: Step[] = steps.map((step, i) => {
    const next = steps[i + 1]?.tokens ?? finish;
    const ids = Array.isArray(step.id) ? step.id : [step.id];
    if (step.call) {
      if (ids.length !== 1) {
        throw new Error(`${ids.join(",")}: a ${step.call.name} step has one id`);
      }
      return { usage: usage(step.tokens), tools: [{ ...step.call, id: ids[0]! }] };
    }
    const growth = Math.max(0, next - step.tokens);
    const bytes = Math.ceil(bytesForTokens(growth) / ids.length);
    if (bytes > BASH_INLINE_BYTES) {
      throw new Error(
        `${ids.join(",")}: ${growth} tokens to the next step need ${bytes} bytes per call, ` +
          `more than ${BASH_INLINE_BYTES}: split the step`,
      );
    }
    return {
      usage: usage(step.tokens),
      tools: ids.map((id) => ({
        name: "Bash",
        input: { command: printing(bytes, step.then), description: `step ${id}` },
        id,
      })),
    };
  });
  out.push({ usage: usage(finish), text: report });
  return out;
}

/** A request whose scripted growth is more than its own growth in bytes carries. */
export interface Unbacked {
  route: string;
  index: number;
  scripted: number;
  physical: number;
}

/**
 * Requests whose scripted usage grew more than the request itself did at the measured rate,
 * each compared with the previous request of the same queue (main, or one subagent's). The first
 * request of a queue is free: a session may resume with any context; so is the first after a
 * compaction of that queue, which starts a new context from the summary.
 */
export function unbackedSteps(requests: RecordedRequest[]): Unbacked[] {
  const found: Unbacked[] = [];
  const last = new Map<string, { scripted: number; physical: number }>();
  const index = new Map<string, number>();
  for (const request of requests) {
    if (request.route === "count_tokens" || request.route === "side") continue;
    if (request.route === "compact") {
      if (request.compacted) last.delete(request.compacted);
      continue;
    }
    if (!request.usage) continue;
    const scripted = request.usage.tokens;
    const physical = requestTokens(request.body);
    const before = last.get(request.route);
    const i = (index.get(request.route) ?? -1) + 1;
    index.set(request.route, i);
    last.set(request.route, { scripted, physical });
    if (!before) continue;
    const grew = { scripted: scripted - before.scripted, physical: physical - before.physical };
    if (grew.scripted > grew.physical) found.push({ route: request.route, index: i, ...grew });
  }
  return found;
}
