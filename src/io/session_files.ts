/**
 * Where Claude Code keeps a session's transcript, a subagent's (2.1.328: `<project>/<session>/
 * subagents/agent-<id>.jsonl`; 2.1.167's workflow agents deeper) and a fork's parent's.
 */
import { basename, dirname, join } from "../core/path.ts";
import { COMPACTION_SUMMARISER_PREFIX, SUBAGENT_FILE_PREFIX } from "../core/claude_code.ts";
import { entriesOf, statOf } from "./files.ts";
import type { HookPayload } from "../schemas/payload.ts";

/** A transcript, whether all of it is a subagent's, and where a search `found` it (to remember). */
export type TranscriptRef = { path: string; sidechainFile: boolean; found?: string };

/** The transcript for `payload`; `remembered`: where a search found it before. */
export function transcriptOf(payload: HookPayload, remembered?: string): TranscriptRef | undefined {
  const main = payload.transcript_path || undefined;
  if (!payload.agent_id) return main ? { path: main, sidechainFile: false } : undefined;
  if (payload.agent_transcript_path) {
    return { path: payload.agent_transcript_path, sidechainFile: true };
  }
  if (!main) return undefined;
  if (basename(main).startsWith(SUBAGENT_FILE_PREFIX)) return { path: main, sidechainFile: true };
  const subagents = join(dirname(main), basename(main).replace(/\.jsonl$/, ""), "subagents");
  const expected = join(subagents, `${SUBAGENT_FILE_PREFIX}${payload.agent_id}.jsonl`);
  if (remembered !== undefined && statOf(remembered)?.isFile) {
    return { path: remembered, sidechainFile: true };
  }
  if (statOf(expected)?.isFile) return { path: expected, sidechainFile: true };
  const found = findFileUnder(subagents, basename(expected));
  return { path: found ?? expected, sidechainFile: true, ...(found && { found }) };
}

/**
 * The fork's parent's transcript: `mainPath` when it is the parent's, else beside the session
 * folder holding the fork (`/p/s1/subagents/agent-a1.jsonl` gives `/p/s1.jsonl`).
 */
export function parentTranscriptOf(
  agentPath: string,
  mainPath: string | undefined,
  parentSessionId: string,
): string | undefined {
  const name = `${parentSessionId}.jsonl`;
  if (mainPath !== undefined && basename(mainPath) === name) return mainPath;
  let dir = dirname(agentPath);
  for (let depth = 0; depth < 4; depth++) {
    const up = dirname(dir);
    if (basename(dir) === parentSessionId) return join(up, name);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** `fileName` under `root`, the shallowest first, within 4 levels and 5,000 entries by default. */
export function findFileUnder(
  root: string,
  fileName: string,
  limits: { maxDepth?: number; maxEntries?: number } = {},
): string | undefined {
  for (const [dir, name] of filesUnder(root, limits.maxDepth ?? 4, limits.maxEntries ?? 5_000)) {
    if (name === fileName) return join(dir, name);
  }
  return undefined;
}

/** How many subagent transcripts a session has, the compaction summariser's excepted. */
export function subagentCount(mainPath: string, sessionId: string): number {
  let count = 0;
  for (const [, name] of filesUnder(join(dirname(mainPath), sessionId, "subagents"), 4, Infinity)) {
    const agent = name.startsWith(SUBAGENT_FILE_PREFIX) && name.endsWith(".jsonl");
    if (agent && !name.startsWith(COMPACTION_SUMMARISER_PREFIX)) count++;
  }
  return count;
}

/** The files under `root`, level by level, never into a symlinked folder. */
function* filesUnder(root: string, maxDepth: number, budget: number) {
  let level = [root];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      for (const entry of entriesOf(dir)) {
        if (--budget < 0) return;
        if (entry.isFile) yield [dir, entry.name] as const;
        else if (entry.isDirectory && !entry.isSymlink) next.push(join(dir, entry.name));
      }
    }
    level = next;
  }
}
