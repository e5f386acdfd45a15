/**
 * A fork subagent's own transcript names its parent in its first line (`fork-context-ref`):
 * reads that line and finds the parent's transcript, so a fork can start with the refreshes its
 * inherited context already holds.
 */
import { type ForkReference, forkReferenceOf } from "../core/transcript_entry.ts";
import { basename, dirname, join } from "../core/path.ts";

/** The first line is a few hundred bytes; a longer one is not a fork's reference. */
const HEAD_BYTES = 4096;

/**
 * The parent a fork's transcript at `path` names, or undefined when its first line is not a
 * `fork-context-ref` (any other subagent) or cannot be read. Sync: a hook process feels every
 * async hop.
 */
export function readForkReference(path: string): ForkReference | undefined {
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(path, { read: true });
    const buffer = new Uint8Array(HEAD_BYTES);
    const read = file.readSync(buffer) ?? 0;
    const head = buffer.subarray(0, read);
    const end = head.indexOf(0x0a);
    if (end < 0) return undefined;
    return forkReferenceOf(JSON.parse(new TextDecoder().decode(head.subarray(0, end))));
  } catch {
    return undefined;
  } finally {
    file?.close();
  }
}

/**
 * Where the parent's transcript is: the session's main transcript `mainPath` when it is the
 * parent's (`<parentSessionId>.jsonl`), else beside the session folder holding the fork's file
 * (`<project>/<parent>/subagents/agent-<id>.jsonl` → `<project>/<parent>.jsonl`).
 *
 * @example
 * ```ts
 * parentTranscriptOf("/p/s1/subagents/agent-a1.jsonl", undefined, "s1"); // "/p/s1.jsonl"
 * ```
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
