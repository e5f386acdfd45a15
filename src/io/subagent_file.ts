/**
 * Finds a subagent's own transcript under its session's `subagents/` folder at any depth
 * (bounded): 2.1.328 writes `subagents/agent-<id>.jsonl`, 2.1.167 workflow agents
 * `subagents/workflows/wf_<id>/agent-<id>.jsonl`.
 */
import { join } from "../core/path.ts";

export interface SearchLimits {
  /** Folder levels below `subagents/` to look into. Default 4. */
  maxDepth?: number;
  /** Directory entries to look at in all. Default 5,000. */
  maxEntries?: number;
}

/**
 * The path of `fileName` under `root`, breadth first (the shallowest match wins), or undefined
 * when it is not there within the limits or `root` cannot be read. Never follows symlinked
 * folders. Sync: a hook process feels every async hop.
 */
export function findFileUnder(
  root: string,
  fileName: string,
  limits: SearchLimits = {},
): string | undefined {
  const maxDepth = limits.maxDepth ?? 4;
  let budget = limits.maxEntries ?? 5_000;
  let level = [root];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries: Iterable<Deno.DirEntry>;
      try {
        entries = Deno.readDirSync(dir);
        for (const entry of entries) {
          if (--budget < 0) return undefined;
          if (entry.isFile && entry.name === fileName) return join(dir, entry.name);
          if (entry.isDirectory && !entry.isSymlink) next.push(join(dir, entry.name));
        }
      } catch {
        // An unreadable folder holds nothing we can use.
      }
    }
    level = next;
  }
  return undefined;
}
