/**
 * Step 1: stdin as a hook payload. Parsed as unknown and validated, tolerant of fields a newer
 * Claude Code adds; anything else becomes the reason the call does nothing.
 */
import type { HookPayload } from "../schemas/payload.ts";
import { isHookPayload } from "../schemas/guards.ts";

/** The payload, or why stdin is not one. */
export type PayloadRead =
  | { kind: "payload"; payload: HookPayload }
  | { kind: "invalid"; reason: string };

/**
 * Reads `stdinText` (undefined: it was over the cap).
 *
 * @example
 * ```ts
 * readPayload('{"session_id":"s","hook_event_name":"PostToolUse"}').kind; // "payload"
 * readPayload("").kind; // "invalid"
 * ```
 */
export function readPayload(stdinText: string | undefined): PayloadRead {
  if (stdinText === undefined) return invalid("stdin is larger than the 16 MB cap");
  let raw: unknown;
  try {
    raw = JSON.parse(stdinText);
  } catch {
    return invalid(stdinText.trim() === "" ? "stdin is empty" : "stdin is not JSON");
  }
  // A guard proven equal to HookPayloadSchema (tests/unit/schemas): no schema built per call.
  if (!isHookPayload(raw)) return invalid("stdin is not a hook payload with a session_id");
  return { kind: "payload", payload: raw };
}

function invalid(reason: string): PayloadRead {
  return { kind: "invalid", reason };
}
