/**
 * `doctor`'s checks of the installation: the plugin folder Claude Code runs, its hooks wiring, the
 * binary hooks/run would start, and the statusLine command.
 */
import { HOOK_EVENTS } from "../core/claude_code.ts";
import { fileReason } from "../core/errors.ts";
import { fieldOf } from "../schemas/guards.ts";
import { whyNotJson } from "../core/json_syntax.ts";
import { join } from "../core/path.ts";
import { type LauncherState, readLauncherState } from "../io/launcher_state.ts";
import { localPluginRoot, newestInstalledFile } from "../io/plugin_cache.ts";
import type { CliSettings, Settings } from "../settings/resolve.ts";
import { failed } from "../core/result.ts";
import { readJson, statOf, statOrWhy } from "../io/files.ts";
import { PLUGIN_INSTALL } from "./common.ts";
import type { Check } from "./schemas.ts";

/** One check, as `doctor --json` prints it. */
export const check = (name: string, status: Check["status"], detail: string, fix?: string) =>
  ({ name, status, detail, fix: fix ?? null }) satisfies Check;

/** A plugin folder and how it was found. */
type PluginRoot = { root: string; via: string };

/**
 * The plugin folder to check: `--plugin-root`, `CLAUDE_PLUGIN_ROOT`, a marketplace added from a
 * local folder (Claude Code runs that, not its cache copy), the newest install, else `own`.
 */
export function pluginRootFor(
  settings: Settings,
  own: string | undefined,
  flag: string | undefined,
): PluginRoot | undefined {
  if (flag) return { root: flag, via: "--plugin-root" };
  if (settings.pluginRoot) return { root: settings.pluginRoot, via: "CLAUDE_PLUGIN_ROOT" };
  const plugins = settings.pluginsDir;
  const local = plugins && localPluginRoot(plugins, "lessons-reinject");
  if (local) return { root: local, via: "marketplace added from a local folder" };
  const best = plugins && newestInstalledFile(plugins, "lessons-reinject", ["hooks", "hooks.json"]);
  if (best) return { root: best.root, via: "installed plugin" };
  if (!own || !statOf(join(own, ".claude-plugin", "plugin.json"))) return undefined;
  const what = statOf(join(own, ".git")) ? "checkout" : "folder";
  return { root: own, via: `the ${what} this runs from` };
}

/** The plugin folder, then its wiring and its binary. */
export async function checkPlugin(plugin: PluginRoot | undefined, settings: CliSettings) {
  const install = `install the plugin (${PLUGIN_INSTALL}), or pass --plugin-root DIR`;
  const where = plugin ? `${plugin.root} (${plugin.via}) ` : "";
  const fail = (why: string) => [check("plugin", "fail", where + why, `re${install}`)];
  if (!plugin) {
    const why = "not found: no --plugin-root, CLAUDE_PLUGIN_ROOT or install in ~/.claude/plugins";
    return [check("plugin", "fail", why, install)];
  }
  const info = statOrWhy(plugin.root);
  if (failed(info, "missing")) return fail("does not exist");
  if (failed(info)) return fail(`cannot be read: ${info.error}`);
  if (!info.isDirectory) return fail("is not a folder");
  // A folder with none of the plugin's files is another folder, not a broken plugin.
  const marks = [".claude-plugin/plugin.json", "hooks/hooks.json", "hooks/run"];
  if (!marks.some((mark) => statOf(join(plugin.root, mark)))) {
    const list = `${marks[0]}, ${marks[1]} or ${marks[2]}`;
    return fail(`is not the lessons-reinject plugin: it has no ${list}`);
  }
  const exe = Deno.build.os === "windows" ? ".exe" : "";
  const name = `lessons-reinject-${Deno.build.target}${exe}`;
  const state = readLauncherState(plugin.root, name, settings.denoNpmCache);
  return [
    check("plugin", "ok", where.trimEnd()),
    await checkHooks(plugin.root),
    checkBinary(state, onPath(`deno${exe}`, settings.searchPath)),
  ];
}

/** hooks/hooks.json registers every event the hook needs, with matchers letting them through. */
async function checkHooks(root: string): Promise<Check> {
  const path = join(root, "hooks", "hooks.json");
  const fix = `restore ${path} from the plugin: it registers PostToolUse, PostToolUseFailure, ` +
    "SessionStart (clear|compact|resume|fork), calling hooks/run";
  const fail = (why: string) => check("hooks wiring", "fail", `${path}: ${why}`, fix);
  let text: string | undefined;
  let hooks: unknown;
  try {
    text = Deno.readTextFileSync(path);
    hooks = fieldOf(JSON.parse(text), "hooks");
  } catch (error) {
    return fail(text === undefined ? fileReason(error) : await whyNotJson(text));
  }
  const runs = (h: unknown) => /hooks\/run|lessons-reinject/.test(String(fieldOf(h, "command")));
  const missing = HOOK_EVENTS.flatMap(({ event, needs }) => {
    const groups = fieldOf(hooks, event);
    if (!Array.isArray(groups)) return [`${event} is not registered`];
    const calling = groups.filter((g) => [fieldOf(g, "hooks")].flat().some(runs));
    if (calling.length === 0) return [`${event} does not call hooks/run`];
    return needs.filter((need) => !calling.some((g) => matches(fieldOf(g, "matcher"), need)))
      .map((need) => `${event}'s matcher does not let "${need}" through`);
  });
  const run = join(root, "hooks", "run");
  const info = statOf(run);
  if (!info?.isFile) missing.push(`${run} is missing`);
  else if (Deno.build.os !== "windows" && ((info.mode ?? 0o111) & 0o111) === 0) {
    missing.push(`${run} is not executable (chmod +x)`);
  }
  if (missing.length > 0) return fail(missing.join("; "));
  return check("hooks wiring", "ok", `${path}: every event registered, calling hooks/run`);
}

/** Claude Code's matcher semantics: absent, empty or `*` match all; else a regex. */
function matches(matcher: unknown, value: string): boolean {
  if (matcher === undefined || matcher === null || matcher === "" || matcher === "*") return true;
  try {
    return new RegExp(`^(?:${String(matcher)})$`).test(value);
  } catch {
    return String(matcher) === value;
  }
}

/**
 * Whether Claude Code's statusLine feeds the bridge (optional) and its program can run. An
 * installed plugin's path names its version, so it changes with each update.
 */
export function checkStatusline(settings: CliSettings, plugin: PluginRoot | undefined): Check {
  const file = join(settings.claudeDir ?? "", "settings.json");
  const command = String(fieldOf(fieldOf(readJson(file), "statusLine"), "command") ?? "").trim();
  const use = `${join(plugin?.root ?? "<plugin folder>", "hooks", "run")} statusline`;
  const versioned = (path: string) =>
    /[\\/]plugins[\\/]cache[\\/]/.test(path)
      ? "; its path holds the plugin's version, so it breaks when the plugin updates: run doctor " +
        "again then"
      : "";
  const set = `set statusLine's command to ${use}${versioned(use)}`;
  const bridge = /^(?:"([^"]+)"|'([^']+)'|(\S+))\s+statusline\b/.exec(command);
  if (!bridge || !/lessons-reinject|hooks[\\/]run/.test(command)) {
    const detail = "not set up (optional): readings come from the transcript; for Claude Code's " +
      `exact figure, ${set}`;
    return check("statusline bridge", "ok", detail);
  }
  const program = bridge[1] ?? bridge[2] ?? bridge[3] ?? "";
  const path = /[\\/]/.test(program);
  const runs = `statusLine in ${file} runs \`${command}\``;
  const found = path
    ? statOf(program.replace(/^~(?=\/)/, settings.home ?? "~"))?.isFile
    : onPath(program, settings.searchPath);
  if (found) {
    const detail = `${runs}: the hook prefers its fresh readings${versioned(program)}`;
    return check("statusline bridge", "ok", detail);
  }
  const why = path ? `${program} does not exist` : `no ${program} is on PATH`;
  const detail = `${runs}, but ${why}: Claude Code shows an error there, and the hook reads the ` +
    "transcript instead";
  return check("statusline bridge", "warn", detail, set);
}

const onPath = (program: string, searchPath: readonly string[]) =>
  searchPath.map((dir) => join(dir, program)).find((path) => statOf(path)?.isFile);

/** The download's state, in words, and what the reason says of the release host. */
function downloadText(state: LauncherState): string {
  if (state.download === "running") {
    return `a download is under way or was cut off (log: ${state.log})`;
  }
  if (state.download === "none") {
    return "no hook call has started its download yet (none does while " +
      "LESSONS_REINJECT_NO_AUTO_INSTALL is set)";
  }
  const why = state.lastLog?.replace(/^lessons-reinject install: /, "") ?? "";
  // The first thing hooks/install fetches: failing there, it reached no release at all. Its log
  // line is all another process leaves behind, so its words are read.
  // deno-lint-ignore lessons/no-error-wording
  const host = /^cannot download \S+\/SHA256SUMS/.test(why)
    ? ": the release host cannot be reached from here, or has no such release yet"
    : "";
  return `its background download failed (${why})${host}; a hook call retries it an hour after ` +
    "it started";
}

/** What hooks/run does given `state` and `deno` (its path, if on PATH), as doctor says it. */
export function checkBinary(state: LauncherState, deno: string | undefined): Check {
  const { root, binary } = state;
  if (state.checkout && deno) {
    const detail = `${root} is a checkout: hooks/run runs the source with ${deno} (a binary in ` +
      "dist/ is not used, so edits take effect at the next call)";
    return check("binary", "ok", detail);
  }
  if (state.binaryExecutable === false) {
    return check("binary", "fail", `${binary} is not executable`, `chmod +x ${binary}`);
  }
  if (state.binaryExecutable) {
    const how = state.verified
      ? "verified here: hooks/run execs it without a fork"
      : "the next hook call checks that it runs here, then takes the fast path";
    return check("binary", "ok", `${binary} (${how})`);
  }
  const binaries =
    `put the binary in ${join(root, "dist")}: sh ${join(root, "hooks", "install")} ` +
    "(the release; it needs the release host, curl or wget, and sha256sum or shasum), or copy one " +
    "you built (`deno task compile --target <target>` in a checkout, where Deno can download its " +
    `runtime) to ${binary}`;
  const warm = `deno cache --config ${join(root, "deno.json")} ${join(root, "src", "main.ts")}`;
  const lacking = `no ${binary}: ${downloadText(state)}`;
  if (!deno) {
    const detail =
      `${lacking}; no deno on PATH either, so the hook does nothing until a binary is there`;
    const fix = `${binaries}; or install Deno (npm install -g deno), then warm its cache: ${warm}`;
    return check("binary", "fail", detail, fix);
  }
  const wait = state.download === "running" ? "wait for it, or " : "";
  if (state.shipped && !state.checkout) {
    const detail = `${lacking}; meanwhile refreshes work: hooks/run runs ${state.shipped} with ` +
      `${deno}, which needs nothing from Deno's cache (slower than the binary)`;
    return check("binary", "warn", detail, `${wait}${binaries}`);
  }
  const source = `meanwhile hooks/run runs the source with ${deno} from Deno's cache`;
  if (!state.missing) {
    const packages = state.packages?.join(", ") || "the source's packages";
    const where = state.packages ? state.where : `${state.lock} cannot be read`;
    const detail = `${lacking}; ${source} (slower than the binary); whether that cache holds ` +
      `${packages} was not checked (${where})`;
    return check("binary", "warn", detail, `${wait}make sure it does: ${warm}; or ${binaries}`);
  }
  if (state.missing.length > 0) {
    const detail = `${lacking}; ${source} only, which lacks ${state.missing.join(", ")} ` +
      `(looked in ${state.where}), so refreshes do nothing`;
    const fix = `warm Deno's cache (it needs the npm registry): ${warm}; or ${binaries}`;
    return check("binary", "fail", detail, fix);
  }
  const detail = `${lacking}; meanwhile refreshes work: hooks/run runs the source with ${deno} ` +
    `from Deno's cache, which holds ${state.packages!.join(", ")} (slower than the binary)`;
  return check("binary", "warn", detail, `${wait}${binaries}`);
}
