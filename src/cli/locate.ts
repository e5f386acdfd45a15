/**
 * Which transcript a command looks at: one named by path, one named by session id, or the newest
 * of the current folder's project under `~/.claude/projects/` (as Claude Code names its folders).
 */
import { basename, dirname, join } from "../core/path.ts";
import { COMPACTION_SUMMARISER_PREFIX, SUBAGENT_FILE_PREFIX } from "../core/claude_code.ts";
import { parentTranscriptOf } from "../io/fork_reference.ts";

/** A transcript to inspect, with the ids its hook calls would carry. */
export interface TranscriptTarget {
  kind: "transcript";
  path: string;
  sessionId: string;
  /** Set for a subagent's own transcript (`agent-<id>.jsonl`). */
  agentId: string | undefined;
  /** How it was chosen. */
  via: string;
}

/**
 * Claude Code's folder name for a project: every character other than a letter or digit becomes
 * `-` (`/home/dev/my.app` → `-home-dev-my-app`).
 */
export function projectFolderName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

/**
 * Finds the transcript to inspect. Returns an error line when the named one does not exist or
 * none can be found.
 */
export async function locateTranscript(
  options: { transcript?: string | undefined; session?: string | undefined },
  claudeDir: string | undefined,
  cwd: string,
): Promise<TranscriptTarget | { kind: "error"; error: string }> {
  if (options.transcript) {
    const info = await Deno.stat(options.transcript).catch(() => undefined);
    if (!info) return { kind: "error", error: `no transcript at ${options.transcript}` };
    if (info.isDirectory) {
      return {
        kind: "error",
        error: `${options.transcript} is a folder, not a transcript (a .jsonl file)`,
      };
    }
    if (!info.isFile) {
      return { kind: "error", error: `${options.transcript} is not a regular file` };
    }
    if (basename(options.transcript).startsWith(COMPACTION_SUMMARISER_PREFIX)) {
      return await summarisedSession(options.transcript);
    }
    return {
      kind: "transcript",
      ...(await idsOf(options.transcript)),
      path: options.transcript,
      via: "--transcript",
    };
  }
  const root = claudeDir;
  if (!root) return { kind: "error", error: "no home folder: pass --transcript PATH" };
  const projects = join(root, "projects");
  const here = join(projects, projectFolderName(cwd));
  if (options.session) {
    const name = `${options.session}.jsonl`;
    const candidates = [join(here, name)];
    for await (const entry of readDirSafe(projects)) {
      if (entry.isDirectory) candidates.push(join(projects, entry.name, name));
    }
    for (const path of candidates) {
      if ((await Deno.stat(path).catch(() => undefined))?.isFile) {
        return {
          kind: "transcript",
          path,
          sessionId: options.session,
          agentId: undefined,
          via: "--session",
        };
      }
    }
    return {
      kind: "error",
      error: `no transcript for session ${options.session} under ${projects}`,
    };
  }
  let newest: { path: string; mtime: number } | undefined;
  for await (const entry of readDirSafe(here)) {
    if (!entry.isFile || !entry.name.endsWith(".jsonl")) continue;
    // A subagent's or the compaction summariser's file (2.0.x keeps them here) is no session.
    if (entry.name.startsWith(SUBAGENT_FILE_PREFIX)) continue;
    const path = join(here, entry.name);
    const mtime = (await Deno.stat(path).catch(() => undefined))?.mtime?.getTime() ?? 0;
    if (!newest || mtime > newest.mtime) newest = { path, mtime };
  }
  if (!newest) {
    return {
      kind: "error",
      error: `no transcript for this folder under ${here} (pass --transcript PATH or --session ID)`,
    };
  }
  return {
    kind: "transcript",
    ...(await idsOf(newest.path)),
    path: newest.path,
    via: "newest in this project",
  };
}

/**
 * The session a compaction summariser's file belongs to: its own reading is the conversation it
 * summarised, which is no context anyone works in, so commands read the session's instead.
 */
async function summarisedSession(
  path: string,
): Promise<TranscriptTarget | { kind: "error"; error: string }> {
  const { sessionId } = await idsOf(path);
  const session = parentTranscriptOf(path, undefined, sessionId);
  const found = session !== undefined &&
    (await Deno.stat(session).catch(() => undefined))?.isFile === true;
  if (!found) {
    return {
      kind: "error",
      error: `${path} is the compaction summariser's transcript, not a session's, and its ` +
        `session's transcript was not found beside it: pass that one with --transcript`,
    };
  }
  return {
    kind: "transcript",
    path: session,
    sessionId,
    agentId: undefined,
    via: "--transcript named the compaction summariser's file: its session's transcript",
  };
}

async function* readDirSafe(dir: string): AsyncGenerator<Deno.DirEntry> {
  try {
    for await (const entry of Deno.readDir(dir)) yield entry;
  } catch {
    // An absent folder holds nothing.
  }
}

const HEAD_BYTES = 256 * 1024;

/**
 * The session (and agent) id a transcript's hook calls carry: its entries' `sessionId` and, in a
 * subagent file, `agentId`; else the file name (`<session>.jsonl`).
 */
async function idsOf(
  path: string,
): Promise<{ sessionId: string; agentId: string | undefined }> {
  const name = basename(path).replace(/\.jsonl$/, "");
  const subagentFile = name.startsWith("agent-");
  let sessionId: string | undefined;
  let agentId: string | undefined;
  try {
    const file = await Deno.open(path, { read: true });
    try {
      const buffer = new Uint8Array(HEAD_BYTES);
      const read = (await file.read(buffer)) ?? 0;
      const lines = new TextDecoder().decode(buffer.subarray(0, read)).split("\n");
      for (const line of lines.slice(0, -1)) {
        const entry = parse(line);
        if (typeof entry?.sessionId === "string") sessionId ??= entry.sessionId;
        // Only a subagent's own file has sidechain entries carrying its agentId at the top.
        if (typeof entry?.agentId === "string" && entry.isSidechain === true) {
          agentId ??= entry.agentId;
        }
        if (sessionId && agentId) break;
      }
    } finally {
      file.close();
    }
  } catch {
    // Unreadable: fall back to names.
  }
  if (subagentFile) {
    agentId ??= name.slice("agent-".length);
    sessionId ??= basename(dirname(dirname(path)));
  }
  return { sessionId: sessionId ?? name, agentId };
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null
      ? Object.fromEntries(Object.entries(value))
      : undefined;
  } catch {
    return undefined;
  }
}
