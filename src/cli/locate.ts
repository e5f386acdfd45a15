/**
 * Which transcript a command looks at: one named by path, one named by session id, or the newest
 * of the current folder's project under `~/.claude/projects/` (as Claude Code names its folders).
 */
import { basename, dirname, join } from "../core/path.ts";
import { COMPACTION_SUMMARISER_PREFIX, SUBAGENT_FILE_PREFIX } from "../core/claude_code.ts";
import { parentTranscriptOf } from "../io/session_files.ts";
import type { HookPayload } from "../schemas/payload.ts";

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

/** The payload the hook's next tool call in `target` would carry, less the tool's own fields. */
export function nextCallPayload(target: TranscriptTarget, cwd: string): HookPayload {
  return {
    session_id: target.sessionId,
    hook_event_name: "PostToolUse",
    transcript_path: target.path,
    cwd,
    ...(target.agentId ? { agent_id: target.agentId, agent_transcript_path: target.path } : {}),
  };
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
    const head = await headOf(options.transcript);
    const notOne = notATranscript(head);
    if (notOne !== undefined) {
      return {
        kind: "error",
        error: `${options.transcript} is not a Claude Code transcript (${notOne}); pass a ` +
          "session's .jsonl file from ~/.claude/projects/, or --session ID",
      };
    }
    if (basename(options.transcript).startsWith(COMPACTION_SUMMARISER_PREFIX)) {
      return await summarisedSession(options.transcript, head);
    }
    return {
      kind: "transcript",
      ...idsOf(options.transcript, head),
      path: options.transcript,
      via: "--transcript",
    };
  }
  const root = claudeDir;
  if (!root) return { kind: "error", error: "no home folder: pass --transcript PATH" };
  const projects = join(root, "projects");
  const here = join(projects, projectFolderName(cwd));
  if (options.session) return await findSession(options.session, projects, here);
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
    ...idsOf(newest.path, await headOf(newest.path)),
    path: newest.path,
    via: "newest in this project",
  };
}

/**
 * The transcript of the session whose id is `id`, or starts with it when only one does: this
 * project's folder first, then every other project's. Unknown and ambiguous ids are errors that
 * say which.
 */
async function findSession(
  id: string,
  projects: string,
  here: string,
): Promise<TranscriptTarget | { kind: "error"; error: string }> {
  const folders = [here];
  for await (const entry of readDirSafe(projects)) {
    const folder = join(projects, entry.name);
    if (entry.isDirectory && folder !== here) folders.push(folder);
  }
  /** Matching session ids, each with its first path (this project's when it has one). */
  const matches = new Map<string, string>();
  for (const folder of folders) {
    for await (const entry of readDirSafe(folder)) {
      if (!entry.isFile || !entry.name.endsWith(".jsonl") || !entry.name.startsWith(id)) continue;
      const session = entry.name.slice(0, -".jsonl".length);
      if (!matches.has(session)) matches.set(session, join(folder, entry.name));
    }
  }
  const exact = matches.get(id);
  const only = matches.size === 1 ? [...matches][0] : undefined;
  const [session, path] = exact !== undefined ? [id, exact] : only ?? [];
  if (session !== undefined && path !== undefined) {
    return { kind: "transcript", path, sessionId: session, agentId: undefined, via: "--session" };
  }
  if (matches.size === 0) {
    return {
      kind: "error",
      error: `no transcript for session ${id} under ${projects}: check the id`,
    };
  }
  const ids = [...matches.keys()].sort();
  const shown = ids.slice(0, 3).join(", ") + (ids.length > 3 ? `, and ${ids.length - 3} more` : "");
  return {
    kind: "error",
    error: `${ids.length} sessions start with ${id} (${shown}): give more of the id`,
  };
}

/**
 * The session a compaction summariser's file belongs to: its own reading is the conversation it
 * summarised, which is no context anyone works in, so commands read the session's instead.
 */
async function summarisedSession(
  path: string,
  head: string,
): Promise<TranscriptTarget | { kind: "error"; error: string }> {
  const { sessionId } = idsOf(path, head);
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

/** The first bytes of a file, as text (empty when unreadable). */
async function headOf(path: string): Promise<string> {
  try {
    const file = await Deno.open(path, { read: true });
    try {
      const buffer = new Uint8Array(HEAD_BYTES);
      const read = (await file.read(buffer)) ?? 0;
      return new TextDecoder().decode(buffer.subarray(0, read));
    } finally {
      file.close();
    }
  } catch {
    return "";
  }
}

/**
 * Keys every line Claude Code writes to a transcript carries at least one of (each entry's own
 * id, its parent's, its session's; a summary's leaf; a file-history snapshot's message): the
 * transcripts under tests/fixtures/transcripts, and those of releases 1.0.90 to 2.1.328.
 */
const ENTRY_KEYS = ["sessionId", "uuid", "parentUuid", "leafUuid", "messageId"];

/** True for a line as Claude Code writes them: a JSON object with a `type` and an id. */
function isTranscriptEntry(entry: Record<string, unknown> | undefined): boolean {
  return entry !== undefined && typeof entry.type === "string" &&
    ENTRY_KEYS.some((key) => key in entry);
}

/**
 * Why a file's first bytes are not a Claude Code transcript, or undefined when they are: one of
 * its first complete lines is an entry (or, when the first line is longer than the head, the head
 * opens like one).
 *
 * @example
 * ```ts
 * notATranscript('{"name":"x"}\n'); // "none of its lines is a transcript entry"
 * ```
 */
export function notATranscript(head: string): string | undefined {
  if (head === "") return "it is empty";
  const lines = head.split("\n");
  const complete = lines.slice(0, -1).filter((line) => line.trim() !== "");
  if (complete.length === 0) {
    // One line longer than the head (a pasted image, say): judge by how it opens.
    return /^\{"(type|parentUuid|sessionId|uuid)":/.test(head) ? undefined : "it is not JSON lines";
  }
  if (complete.slice(0, 50).some((line) => isTranscriptEntry(parse(line)))) return undefined;
  return complete.some((line) => parse(line) !== undefined)
    ? "none of its lines is a transcript entry"
    : "it is not JSON lines";
}

/**
 * The session (and agent) id a transcript's hook calls carry: its entries' `sessionId` and, in a
 * subagent file, `agentId`; else the file name (`<session>.jsonl`).
 */
function idsOf(path: string, head: string): { sessionId: string; agentId: string | undefined } {
  const name = basename(path).replace(/\.jsonl$/, "");
  const subagentFile = name.startsWith("agent-");
  let sessionId: string | undefined;
  let agentId: string | undefined;
  for (const line of head.split("\n").slice(0, -1)) {
    const entry = parse(line);
    if (typeof entry?.sessionId === "string") sessionId ??= entry.sessionId;
    // Only a subagent's own file has sidechain entries carrying its agentId at the top.
    if (typeof entry?.agentId === "string" && entry.isSidechain === true) {
      agentId ??= entry.agentId;
    }
    if (sessionId && agentId) break;
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
