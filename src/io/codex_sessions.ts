/**
 * Where Codex keeps a session: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, its
 * project folder in the first line (`session_meta`). The commands find a project's newest Codex
 * session here, as they find Claude Code's under `~/.claude/projects/`.
 */
import { isRolloutPath, rolloutLineOf, SESSIONS_DIR } from "../core/codex.ts";
import { join } from "../core/path.ts";
import { entriesOf, readHead, statOf } from "./files.ts";

/** A Codex session: its rollout, its id, its project folder and when it was last written. */
export type Rollout = ReturnType<typeof rolloutOf>;

/** Newest first: `YYYY`, `MM`, `DD` and the file names (which start with the local time). */
const names = (dir: string, files: boolean) =>
  entriesOf(dir).filter((e) => (files ? e.isFile : e.isDirectory)).map((e) => e.name).sort()
    .reverse();

/** The rollout's session id and project folder, from its first line; else from its name. */
export function rolloutOf(path: string) {
  const head = readHead(path, 64 * 1024); // unreadable: its name still says the session
  let cwd: string | undefined;
  let sessionId = /([0-9a-f]{8}-[0-9a-f-]{27})\.jsonl$/.exec(path)?.[1];
  try {
    const first = JSON.parse(head.split("\n")[0] ?? "");
    const meta = rolloutLineOf(first);
    if (meta?.kind === "meta") cwd = meta.cwd;
    const id = first?.payload?.session_id ?? first?.payload?.id;
    if (typeof id === "string" && id !== "") sessionId = id;
  } catch {
    // A first line cut short (over 64 KB of instructions): the name's id stands.
  }
  const mtime = statOf(path)?.mtime?.getTime() ?? 0; // 0: gone meanwhile
  return { path, sessionId: sessionId ?? path, cwd, mtime };
}

/** Every rollout under `codexHome`, the newest day first, the newest file first in a day. */
function* rollouts(codexHome: string): Generator<string> {
  const root = join(codexHome, SESSIONS_DIR);
  for (const year of names(root, false)) {
    for (const month of names(join(root, year), false)) {
      for (const day of names(join(root, year, month), false)) {
        const dir = join(root, year, month, day);
        for (const name of names(dir, true)) {
          if (isRolloutPath(name)) yield join(dir, name);
        }
      }
    }
  }
}

/** The newest Codex session whose project folder is `cwd`. */
export function newestRolloutFor(codexHome: string, cwd: string): Rollout | undefined {
  for (const path of rollouts(codexHome)) {
    const rollout = rolloutOf(path);
    if (rollout.cwd === cwd) return rollout;
  }
  return undefined;
}

/** Codex sessions whose id is or starts with `id`. */
export function rolloutsWithId(codexHome: string, id: string): Rollout[] {
  const found: Rollout[] = [];
  for (const path of rollouts(codexHome)) {
    const name = path.slice(0, -".jsonl".length);
    const at = name.search(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    if (at >= 0 && name.slice(at).startsWith(id)) found.push(rolloutOf(path));
  }
  return found;
}
