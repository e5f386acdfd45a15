/**
 * `doctor`'s checks of the installation: which plugin folder Claude Code runs, its hooks wiring
 * against the events the hook needs, what hooks/run will do with the binary for this platform,
 * and whether the statusLine command can run.
 */
import { HOOK_EVENTS } from "../core/claude_code.ts";
import { fileReason } from "../core/errors.ts";
import { fieldOf } from "../core/field.ts";
import { whyNotJson } from "../core/json_syntax.ts";
import { join } from "../core/path.ts";
import { launcherVerdict, readLauncherState } from "../io/launcher_state.ts";
import { localPluginRoot } from "../io/local_marketplace.ts";
import { newestInstalledFile } from "../io/plugin_cache.ts";
import type { Settings } from "../settings/resolve.ts";
import { PLUGIN_INSTALL } from "./common.ts";
import type { Check } from "./schemas.ts";

export const check = (
  name: string,
  status: Check["status"],
  detail: string,
  fix?: string,
): Check => ({
  name,
  status,
  detail,
  fix: fix ?? null,
});

/** A plugin folder and how it was found. */
export interface PluginRoot {
  root: string;
  via: string;
}

/**
 * The plugin folder to check: `--plugin-root`, else `CLAUDE_PLUGIN_ROOT`, else the folder of a
 * marketplace added from a local folder (Claude Code runs the hook there, not from its cache copy),
 * else the newest install under `~/.claude/plugins/cache`, else the checkout or plugin this
 * program runs from (`own`).
 */
export async function pluginRootFor(
  settings: Pick<Settings, "pluginRoot" | "claudeDir">,
  own: string | undefined,
  flag: string | undefined,
): Promise<PluginRoot | undefined> {
  if (flag) return { root: flag, via: "--plugin-root" };
  if (settings.pluginRoot) return { root: settings.pluginRoot, via: "CLAUDE_PLUGIN_ROOT" };
  const plugins = settings.claudeDir && join(settings.claudeDir, "plugins");
  if (plugins) {
    const local = await localPluginRoot(plugins, "lessons-reinject");
    if (local) return { root: local, via: "marketplace added from a local folder" };
    const best = newestInstalledFile(plugins, "lessons-reinject", ["hooks", "hooks.json"]);
    if (best) return { root: best.root, via: "installed plugin" };
  }
  if (own && exists(join(own, ".claude-plugin", "plugin.json"))) {
    return {
      root: own,
      via: exists(join(own, ".git")) ? "the checkout this runs from" : "the folder this runs from",
    };
  }
  return undefined;
}

/** The plugin folder exists and is one; then its wiring and its binary. */
export async function checkPlugin(
  plugin: PluginRoot | undefined,
  settings: Settings,
): Promise<Check[]> {
  const fix = "pass --plugin-root the folder holding the plugin's hooks/ and dist/, or reinstall " +
    `it (${PLUGIN_INSTALL})`;
  if (!plugin) {
    return [
      check(
        "plugin",
        "fail",
        "the lessons-reinject plugin was not found (no --plugin-root, no CLAUDE_PLUGIN_ROOT, no install under ~/.claude/plugins/cache)",
        `install the plugin (${PLUGIN_INSTALL}), or pass --plugin-root DIR`,
      ),
    ];
  }
  const where = `${plugin.root} (${plugin.via})`;
  const info = statOf(plugin.root);
  if (!info) return [check("plugin", "fail", `${where} does not exist`, fix)];
  if (!info.isDirectory) return [check("plugin", "fail", `${where} is not a folder`, fix)];
  // A folder with none of the plugin's files is another folder, not a broken plugin.
  const marks = [[".claude-plugin", "plugin.json"], ["hooks", "hooks.json"], ["hooks", "run"]];
  if (!marks.some((parts) => exists(join(plugin.root, ...parts)))) {
    return [
      check(
        "plugin",
        "fail",
        `${where} is not the lessons-reinject plugin: it has no .claude-plugin/plugin.json, hooks/hooks.json or hooks/run`,
        fix,
      ),
    ];
  }
  return [
    check("plugin", "ok", where),
    await checkHooks(plugin.root),
    await checkBinary(plugin.root, settings),
  ];
}

/** hooks/hooks.json registers every event this hook needs, with matchers that let them through. */
async function checkHooks(root: string): Promise<Check> {
  const path = join(root, "hooks", "hooks.json");
  const fail = (why: string) =>
    check(
      "hooks wiring",
      "fail",
      `${path}: ${why}`,
      `restore ${path} from the plugin (it registers PostToolUse and PostToolUseFailure with matcher ".+", SessionStart with "clear|compact", and PostCompact, calling hooks/run)`,
    );
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    return fail(fileReason(error));
  }
  let hooks: unknown;
  try {
    hooks = fieldOf(JSON.parse(text), "hooks");
  } catch {
    return fail(await whyNotJson(text));
  }
  const missing: string[] = [];
  for (const { event, needs } of HOOK_EVENTS) {
    const groups = fieldOf(hooks, event);
    const calling = Array.isArray(groups)
      ? groups.filter((g) => {
        const list = fieldOf(g, "hooks");
        return Array.isArray(list) &&
          list.some((h) => /hooks\/run|lessons-reinject/.test(String(fieldOf(h, "command") ?? "")));
      })
      : undefined;
    if (!calling) missing.push(`${event} is not registered`);
    else if (calling.length === 0) missing.push(`${event} does not call hooks/run`);
    for (const need of calling?.length ? needs : []) {
      if (!calling!.some((g) => matches(fieldOf(g, "matcher"), need))) {
        missing.push(`${event}'s matcher does not let "${need}" through`);
      }
    }
  }
  const run = join(root, "hooks", "run");
  const info = statOf(run);
  if (!info?.isFile) missing.push(`${run} is missing`);
  else if (Deno.build.os !== "windows" && info.mode !== null && (info.mode & 0o111) === 0) {
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

/** What hooks/run does with the binary for this platform, deno and its cache. It only reads. */
async function checkBinary(root: string, settings: Settings): Promise<Check> {
  const windows = Deno.build.os === "windows";
  const name = `lessons-reinject-${Deno.build.target}${windows ? ".exe" : ""}`;
  const deno = onPath(windows ? "deno.exe" : "deno", settings.searchPath);
  const verdict = launcherVerdict(await readLauncherState(root, name, settings.denoNpmCache), deno);
  return check(
    "binary",
    verdict.status,
    verdict.detail,
    verdict.fix ?? (verdict.status === "ok" ? undefined : `run ${join(root, "hooks", "install")}`),
  );
}

/**
 * Whether Claude Code's statusLine feeds the bridge (optional: the transcript is the fallback),
 * and whether the program it names can run. The command to use is `<plugin>/hooks/run statusline`;
 * an installed plugin's folder names its version, so that path changes with each update.
 */
export function checkStatusline(settings: Settings, plugin: PluginRoot | undefined): Check {
  const name = "statusline bridge";
  const file = settings.claudeDir && join(settings.claudeDir, "settings.json");
  let command = "";
  try {
    command = String(
      fieldOf(fieldOf(JSON.parse(Deno.readTextFileSync(file ?? "")), "statusLine"), "command") ??
        "",
    );
  } catch {
    // No settings: not set up.
  }
  const use = `${
    plugin ? join(plugin.root, "hooks", "run") : "<plugin folder>/hooks/run"
  } statusline`;
  const versioned = (path: string) =>
    /[\\/]plugins[\\/]cache[\\/]/.test(path)
      ? "; its path holds the plugin's version, so it breaks when the plugin updates: run doctor again then"
      : "";
  const bridge = /^\s*(?:"([^"]+)"|'([^']+)'|(\S+))\s+statusline\b/.exec(command);
  if (!bridge || !/lessons-reinject|hooks[\\/]run/.test(command)) {
    return check(
      name,
      "ok",
      `not set up (optional): readings come from the transcript; for Claude Code's exact figure, set statusLine's command to ${use}${
        versioned(use)
      }`,
    );
  }
  const program = bridge[1] ?? bridge[2] ?? bridge[3] ?? "";
  const path = /[\\/]/.test(program);
  const found = path
    ? statOf(program.replace(/^~(?=\/)/, settings.home ?? "~"))?.isFile
    : onPath(program, settings.searchPath);
  const runs = `statusLine in ${file} runs \`${command.trim()}\``;
  if (!found) {
    const why = path ? `${program} does not exist` : `no ${program} is on PATH`;
    return check(
      name,
      "warn",
      `${runs}, but ${why}: Claude Code shows an error there, and the hook reads the transcript instead`,
      `set statusLine's command to ${use}${versioned(use)}`,
    );
  }
  return check(name, "ok", `${runs}: the hook prefers its fresh readings${versioned(program)}`);
}

function statOf(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

const exists = (path: string) => statOf(path) !== undefined;

function onPath(program: string, searchPath: readonly string[]): string | undefined {
  return searchPath.map((dir) => join(dir, program)).find((path) => statOf(path)?.isFile);
}
