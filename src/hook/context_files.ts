/**
 * Step 2: the files one context owns: the transcript holding its usage (the subagent's own file
 * for a subagent's call), its state file and lock, and the token its refresh headers carry.
 */
import { basename, dirname, join } from "../core/path.ts";
import type { HookPayload } from "../schemas/payload.ts";
import { type StatePaths, statePaths } from "../io/state_store.ts";
import { findFileUnder } from "../io/subagent_file.ts";

/** A transcript to read, and whether every entry in it is a subagent's (sidechain) entry. */
export interface TranscriptRef {
  path: string;
  sidechainFile: boolean;
  /**
   * A subagent's file at the place 2.1.328 writes it, which other versions do not use: if it is
   * not there, look for `agent-<id>.jsonl` anywhere under this `subagents/` folder.
   */
  searchUnder?: string;
}

/** Everything a call needs to find this context's records. */
export interface ContextFiles {
  transcript: TranscriptRef | undefined;
  paths: StatePaths;
  token: string;
}

/**
 * The transcript holding this call's usage: the main transcript, or for a subagent's call its
 * own file at `<project>/<session>/subagents/agent-<id>.jsonl` (measured with 2.1.328).
 *
 * @example
 * ```ts
 * transcriptFor({ session_id: "s", hook_event_name: "PostToolUse", transcript_path: "/p/s.jsonl" });
 * // { path: "/p/s.jsonl", sidechainFile: false }
 * ```
 */
export function transcriptFor(payload: HookPayload): TranscriptRef | undefined {
  const main = payload.transcript_path;
  if (!payload.agent_id) return main ? { path: main, sidechainFile: false } : undefined;
  if (payload.agent_transcript_path) {
    return { path: payload.agent_transcript_path, sidechainFile: true };
  }
  if (!main) return undefined;
  if (basename(main).startsWith("agent-")) return { path: main, sidechainFile: true };
  const sessionDir = join(dirname(main), basename(main).replace(/\.jsonl$/, ""));
  const subagents = join(sessionDir, "subagents");
  return {
    path: join(subagents, `agent-${payload.agent_id}.jsonl`),
    sidechainFile: true,
    searchUnder: subagents,
  };
}

/**
 * Where a subagent's transcript really is: where its state remembered it, the expected place,
 * or the first `agent-<id>.jsonl` found under `subagents/` (2.1.167 nests workflow agents).
 * `remember` is set when a search found it, so the next call does not search again.
 */
export function locateTranscript(
  ref: TranscriptRef,
  remembered: string | undefined,
): { ref: TranscriptRef; remember?: string } {
  if (ref.searchUnder === undefined) return { ref };
  const plain = { path: ref.path, sidechainFile: ref.sidechainFile };
  if (remembered !== undefined && isFile(remembered)) {
    return { ref: { ...plain, path: remembered } };
  }
  if (isFile(ref.path)) return { ref: plain };
  const found = findFileUnder(ref.searchUnder, basename(ref.path));
  return found === undefined ? { ref: plain } : { ref: { ...plain, path: found }, remember: found };
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The context's files in `stateDir`. */
export async function contextFiles(payload: HookPayload, stateDir: string): Promise<ContextFiles> {
  // One digest per id names the files and makes the token (see statePaths).
  const paths = await statePaths(stateDir, payload.session_id, payload.agent_id);
  return { transcript: transcriptFor(payload), paths, token: paths.token };
}
