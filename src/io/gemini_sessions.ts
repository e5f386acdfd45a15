/**
 * Where Gemini CLI keeps a session, and the settings a Gemini session runs under. Its folder is
 * `$GEMINI_CLI_HOME/.gemini` (else the home's: `geminiDir`); `projects.json` names each project's
 * short id, and its chats are `tmp/<id>/chats/session-<time>-<id8>.jsonl`, the session id in the
 * first line. The commands find a project's newest Gemini session here, as Claude Code's under
 * `~/.claude/projects/`.
 */
import { COMPRESSION_THRESHOLD, CONTEXT_FILES, isChatPath, settingsOf } from "../core/gemini.ts";
import { join } from "../core/path.ts";
import { fieldOf, isObject } from "../schemas/guards.ts";
import { failed, type Result } from "../core/result.ts";
import type { Settings } from "../settings/resolve.ts";
import { entriesOf, readHead, readJson, statOf } from "./files.ts";

/** A session to inspect, as the commands' `Target`, or why there is none. */
type Located = Result<
  { path: string; sessionId: string; agentId: string | undefined; cwd?: string }
>;

/**
 * A Gemini session's settings: its instruction files (`context.fileName` in its settings.json,
 * else GEMINI.md) and its compression point (`model.compressionThreshold`, else half the window).
 */
export function geminiSettings(settings: Settings): Partial<Settings> {
  const dir = settings.geminiDir;
  const file = dir && join(dir, "settings.json");
  const own = settingsOf(file ? readJson(file) : undefined);
  const share = own.threshold ?? COMPRESSION_THRESHOLD;
  const host = own.threshold
    ? { share, source: "model.compressionThreshold", evidence: `${share} in ${file}` }
    : { share, source: "Gemini CLI's default", evidence: "half the model's window" };
  return {
    agent: "gemini",
    compactEnv: { host },
    scaleForAutocompact: false,
    // It shows a hook's stderr when stdout is empty (docs/maintainers/gemini-facts.md).
    stderrShown: true,
    hostRules: { files: own.files ?? CONTEXT_FILES, dir },
  };
}

/** The session id in a chat's first line, else its name's. */
function located(path: string, cwd?: string): Located {
  let sessionId = /-([0-9a-f]{8})\.jsonl$/.exec(path)?.[1] ?? path;
  try {
    const id = JSON.parse(readHead(path, 64 * 1024).split("\n")[0] ?? "").sessionId;
    if (typeof id === "string" && id !== "") sessionId = id;
  } catch {
    // A first line cut short: the name's id stands.
  }
  return { path, sessionId, agentId: undefined, ...(cwd ? { cwd } : {}) };
}

/** Every project's chats folder, with the folder it was started in when projects.json says. */
function chatFolders(dir: string): { chats: string; cwd: string | undefined }[] {
  // No registry: the folders are still there.
  const registry = fieldOf(readJson(join(dir, "projects.json")), "projects");
  const projects = isObject(registry) ? registry : {};
  const cwdOf = (id: string) => Object.keys(projects).find((p) => projects[p] === id);
  return entriesOf(join(dir, "tmp")).filter((e) => e.isDirectory).map((e) => ({
    chats: join(dir, "tmp", e.name, "chats"),
    cwd: cwdOf(e.name),
  }));
}

/** A folder's chats, the newest first (their names start with the time). */
const chatsIn = (chats: string) =>
  entriesOf(chats).filter((e) => e.isFile && isChatPath(join(chats, e.name))).map((e) =>
    join(chats, e.name)
  ).sort().reverse();

/**
 * The chat `--transcript` names, or one whose session id starts with `--session`, else `other`'s
 * (another host's); with neither, the project's newest Gemini chat when written after `other`.
 */
export function withGeminiChats(
  options: { transcript?: string | undefined; session?: string | undefined },
  cwd: string,
  dir: string | undefined,
  other: () => Located,
): Located {
  if (options.transcript && isChatPath(options.transcript) && statOf(options.transcript)?.isFile) {
    return located(options.transcript);
  }
  const found = other();
  if (!dir || options.transcript) return found;
  const folders = chatFolders(dir);
  if (options.session) {
    if (!failed(found)) return found;
    const all = folders.flatMap((f) => chatsIn(f.chats).map((path) => located(path, f.cwd)));
    const matches = all.filter((c) => "sessionId" in c && c.sessionId.startsWith(options.session!));
    return matches.length === 1 ? matches[0]! : found;
  }
  const newest = chatsIn(folders.find((f) => f.cwd === cwd)?.chats ?? "")[0];
  if (!newest) return found;
  const mtime = failed(found) ? -1 : statOf(found.path)?.mtime?.getTime() ?? 0;
  return (statOf(newest)?.mtime?.getTime() ?? 0) > mtime ? located(newest, cwd) : found;
}
