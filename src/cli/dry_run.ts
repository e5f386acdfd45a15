/**
 * The hook's own read-only steps run for a session a command names: exactly what the hook's next
 * tool call would see and decide at the transcript's current reading. Writes nothing.
 */
import { type Plan, planCall } from "../hook/plan.ts";
import { emptyTrace, type Trace } from "../hook/trace.ts";
import type { HookPayload } from "../schemas/payload.ts";
import type { Settings } from "../settings/resolve.ts";
import type { TranscriptTarget } from "./locate.ts";

/** The plan (or why the hook would not get that far) and its trace. */
export interface DryRun {
  plan: Plan | undefined;
  /** Why there is no plan (the state folder cannot be trusted). */
  problem: string | undefined;
  trace: Trace;
}

/** The payload the hook's next tool call in `target` would carry, less the tool's own fields. */
function nextCallPayload(target: TranscriptTarget, cwd: string): HookPayload {
  return {
    session_id: target.sessionId,
    hook_event_name: "PostToolUse",
    transcript_path: target.path,
    cwd,
    ...(target.agentId ? { agent_id: target.agentId, agent_transcript_path: target.path } : {}),
  };
}

/** Plans the next call in `target` without waiting for entries and without writing. */
export async function dryRun(
  target: TranscriptTarget,
  settings: Settings,
  cwd: string,
  render: boolean,
): Promise<DryRun> {
  const trace = emptyTrace();
  const payload = nextCallPayload(target, cwd);
  trace.event = payload.hook_event_name;
  trace.sessionId = payload.session_id;
  trace.agentId = payload.agent_id;
  const plan = await planCall(payload, { ...settings, waitMs: 0 }, { render }, trace);
  if (plan.kind === "untrusted") return { plan: undefined, problem: plan.reason, trace };
  return { plan, problem: undefined, trace };
}
