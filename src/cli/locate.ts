/**
 * Which transcript a command looks at: one named by path, one named by session id, or the newest
 * of the project folder's sessions under `~/.claude/projects/` (as Claude Code names its folders).
 */
import { basename, dirname, join } from "../core/path.ts";
import { COMPACTION_SUMMARISER_PREFIX, SUBAGENT_FILE_PREFIX } from "../core/claude_code.ts";
import { isRolloutPath } from "../core/codex.ts";
import { parseLine } from "../core/transcript_entry.ts";
import { isObject } from "../schemas/guards.ts";
import { newestRolloutFor, rolloutOf, rolloutsWithId } from "../io/codex_sessions.ts";
import { withGeminiChats } from "../io/gemini_sessions.ts";
import { findGitRoot } from "../io/rule_sources.ts";
import { parentTranscriptOf } from "../io/session_files.ts";
import type { HookPayload } from "../schemas/payload.ts";
import type { Settings } from "../settings/resolve.ts";
import { fail as failure, failed, type Result } from "../core/result.ts";
import { entriesOf, readHead, statOf, statOrWhy } from "../io/files.ts";
import { type Ctx, fail, readFlags, type TARGET, usageError, type Values } from "./common.ts";

/** A transcript to inspect, with the ids its hook calls carry (`agentId` in a subagent's file). */
export interface Target {
  path: string;
  sessionId: string;
  agentId: string | undefined;
  /** The folder the session was started in, when found above the folder asked about. */
  cwd?: string;
}

type Found = Result<Target>;
type Asked = { transcript?: string | undefined; session?: string | undefined };

/** The payload the hook's next tool call in `target` would carry, less the tool's own fields. */
export function nextCallPayload(target: Target, cwd: string): HookPayload {
  return {
    session_id: target.sessionId,
    hook_event_name: "PostToolUse",
    transcript_path: target.path,
    cwd: target.cwd ?? cwd,
    ...(target.agentId ? { agent_id: target.agentId, agent_transcript_path: target.path } : {}),
  };
}

/**
 * `args` read as {@link readFlags} does, then the transcript `--transcript` or `--session` names,
 * else the project's newest; or the exit code once the error is reported (exit 2 when both are
 * given). `jsonError`: under --json, a missing transcript is also printed as `{error}`.
 */
export async function readSessionFlags<S extends typeof TARGET>(
  args: readonly string[],
  spec: S,
  help: string,
  ctx: Ctx,
  jsonError = true,
): Promise<{ values: Values<S>; cwd: string; target: Target } | { exit: number }> {
  const flags = await readFlags(args, spec, help, ctx);
  if ("exit" in flags) return flags;
  const { transcript, session, json } = flags.values as Values<typeof TARGET>;
  if (transcript && session) {
    return { exit: await usageError("give --transcript or --session, not both", help) };
  }
  const target = locateTranscript({ transcript, session }, flags.cwd, ctx.settings);
  return failed(target)
    ? { exit: await fail(target.error, jsonError && json) }
    : { ...flags, target };
}

/**
 * Finds the transcript to inspect, or says why there is none. A session id may be any agent's,
 * and a project's newest session is the one written last (Codex: `codexHome`; Gemini: `geminiDir`).
 */
export function locateTranscript(
  options: Asked,
  cwd: string,
  { claudeDir, codexHome, geminiDir }: Pick<Settings, "claudeDir" | "codexHome" | "geminiDir">,
): Found {
  const other = () => claudeOrCodex(options, cwd, claudeDir, codexHome);
  return withGeminiChats(options, cwd, geminiDir, other);
}
function claudeOrCodex(options: Asked, cwd: string, claudeDir?: string, codexHome?: string): Found {
  if (options.transcript) return namedTranscript(options.transcript);
  const claude = claudeTranscript(options.session, claudeDir, cwd);
  if (!codexHome) return claude;
  if (options.session) {
    if (!failed(claude) || failed(claude, "ambiguous")) return claude;
    const codex = rolloutsWithId(codexHome, options.session);
    const only = codex.length === 1 ? codex[0]! : undefined;
    if (only) return { path: only.path, sessionId: only.sessionId, agentId: undefined };
    return codex.length === 0 ? claude : failure(
      `${codex.length} Codex sessions start with ${options.session}: give more of the id`,
      "ambiguous",
    );
  }
  const rollout = newestRolloutFor(codexHome, cwd);
  if (!rollout) return claude;
  const mtime = failed(claude) ? -1 : statOf(claude.path)?.mtime?.getTime() ?? 0;
  return rollout.mtime > mtime
    ? { path: rollout.path, sessionId: rollout.sessionId, agentId: undefined }
    : claude;
}

/** A Claude Code transcript: named by session id, else the project's newest. */
function claudeTranscript(session: string | undefined, claudeDir: string | undefined, cwd: string) {
  if (!claudeDir) return failure("no home folder: pass --transcript PATH");
  const projects = join(claudeDir, "projects");
  // Claude Code's folder name for a project: `/home/dev/my.app` → `-home-dev-my-app`.
  const folderOf = (dir: string) => join(projects, dir.replace(/[^a-zA-Z0-9]/g, "-"));
  const here = folderOf(cwd);
  if (session) return findSession(session, projects, here);
  // From a subfolder, the session was started further up: this folder, then each one above it
  // up to the repository's root; the nearest with a session.
  const root = findGitRoot(cwd);
  for (const dir of foldersUp(cwd, root)) {
    const newest = newestSession(folderOf(dir));
    if (newest) return { ...idsOf(newest, readHead(newest, 256 * 1024)), path: newest, cwd: dir };
  }
  const up = root ?? cwd;
  const where = up === cwd
    ? `${cwd} under ${here}`
    : `${cwd} or a folder above it up to ${up} under ${projects}`;
  return failure(
    `no transcript for ${where} (pass --project DIR, the folder the session was started ` +
      "in, or --transcript PATH or --session ID)",
  );
}

/** `cwd`, then each folder above it up to `root` (only `cwd` when `root` is not above it). */
function foldersUp(cwd: string, root: string | undefined): string[] {
  const folders = [cwd];
  if (root === undefined || !cwd.startsWith(root)) return folders;
  for (let dir = cwd; dir !== root && dirname(dir) !== dir;) {
    dir = dirname(dir);
    folders.push(dir);
  }
  return folders;
}

/** The newest session's transcript in a project's folder under `~/.claude/projects/`. */
function newestSession(folder: string): string | undefined {
  // A subagent's or the compaction summariser's file (2.0.x keeps them here) is no session.
  return sessionFiles(folder).filter((name) => !name.startsWith(SUBAGENT_FILE_PREFIX))
    .map((name) => join(folder, name))
    .map((file) => ({ file, mtime: statOf(file)?.mtime?.getTime() ?? 0 }))
    .sort((a, b) => b.mtime - a.mtime)[0]?.file;
}

function namedTranscript(path: string): Found {
  const info = statOrWhy(path);
  if (failed(info, "missing")) return failure(`no transcript at ${path}`);
  if (failed(info)) return failure(`cannot read ${path}: ${info.error}`);
  if (info.isDirectory) return failure(`${path} is a folder, not a transcript (a .jsonl file)`);
  if (!info.isFile) return failure(`${path} is not a regular file`);
  if (isRolloutPath(path)) {
    return { path, sessionId: rolloutOf(path).sessionId, agentId: undefined };
  }
  const head = readHead(path, 256 * 1024);
  const notOne = notATranscript(head);
  if (notOne !== undefined) {
    return failure(
      `${path} is not a Claude Code transcript (${notOne}); pass a session's .jsonl file ` +
        "from ~/.claude/projects/, or --session ID",
    );
  }
  const ids = idsOf(path, head);
  if (!basename(path).startsWith(COMPACTION_SUMMARISER_PREFIX)) return { ...ids, path };
  // The summariser's own reading is the conversation it summarised, no context anyone works in.
  const session = parentTranscriptOf(path, undefined, ids.sessionId);
  if (session === undefined || !statOf(session)?.isFile) {
    return failure(
      `${path} is the compaction summariser's transcript, not a session's, and its ` +
        "session's transcript was not found beside it: pass that one with --transcript",
    );
  }
  return { path: session, sessionId: ids.sessionId, agentId: undefined };
}

/** The session whose id is or (alone) starts with `id`: this project's first, then any other. */
function findSession(id: string, projects: string, here: string): Found {
  const folders = [
    here,
    ...entriesOf(projects).filter((e) => e.isDirectory).map((e) => join(projects, e.name)),
  ];
  const matches = new Map<string, string>();
  for (const folder of folders) {
    for (const name of sessionFiles(folder)) {
      const session = name.slice(0, -".jsonl".length);
      if (name.startsWith(id) && !matches.has(session)) matches.set(session, join(folder, name));
    }
  }
  const only = matches.has(id) ? id : matches.size === 1 ? [...matches.keys()][0]! : undefined;
  if (only !== undefined) return { path: matches.get(only)!, sessionId: only, agentId: undefined };
  if (matches.size === 0) {
    return failure(`no transcript for session ${id} under ${projects}: check the id`);
  }
  const ids = [...matches.keys()].sort();
  const shown = ids.slice(0, 3).join(", ") + (ids.length > 3 ? `, and ${ids.length - 3} more` : "");
  return failure(
    `${ids.length} sessions start with ${id} (${shown}): give more of the id`,
    "ambiguous",
  );
}

const sessionFiles = (dir: string) =>
  entriesOf(dir).filter((e) => e.isFile && e.name.endsWith(".jsonl")).map((e) => e.name);

/**
 * Why a file's head is not a Claude Code transcript, or undefined: one of its first lines is an
 * entry (a `type` and an id, as on every line of 1.0.90 to 2.1.328), or a longer first line
 * opens like one.
 */
function notATranscript(head: string): string | undefined {
  if (head === "") return "it is empty";
  const complete = head.split("\n").slice(0, -1).filter((line) => line.trim() !== "");
  if (complete.length === 0) {
    return /^\{"(type|parentUuid|sessionId|uuid)":/.test(head) ? undefined : "it is not JSON lines";
  }
  const isEntry = (e: Record<string, unknown> | undefined) =>
    typeof e?.type === "string" &&
    ["sessionId", "uuid", "parentUuid", "leafUuid", "messageId"].some((key) => key in e);
  if (complete.slice(0, 50).some((line) => isEntry(parse(line)))) return undefined;
  return complete.some((line) => parse(line) !== undefined)
    ? "none of its lines is a transcript entry"
    : "it is not JSON lines";
}

/** The ids its hook calls carry: entries' `sessionId` and sidechain `agentId`, else the name. */
function idsOf(path: string, head: string): { sessionId: string; agentId: string | undefined } {
  const name = basename(path).replace(/\.jsonl$/, "");
  let sessionId: string | undefined;
  let agentId: string | undefined;
  for (const line of head.split("\n").slice(0, -1)) {
    const entry = parse(line);
    if (typeof entry?.sessionId === "string") sessionId ??= entry.sessionId;
    if (typeof entry?.agentId === "string" && entry.isSidechain === true) agentId ??= entry.agentId;
    if (sessionId && agentId) break;
  }
  if (name.startsWith(SUBAGENT_FILE_PREFIX)) {
    agentId ??= name.slice(SUBAGENT_FILE_PREFIX.length);
    sessionId ??= basename(dirname(dirname(path)));
  }
  return { sessionId: sessionId ?? name, agentId };
}

function parse(line: string): Record<string, unknown> | undefined {
  const value = parseLine(new TextEncoder().encode(line));
  return isObject(value) ? value : undefined;
}
