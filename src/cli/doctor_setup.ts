/**
 * `doctor`'s checks of the installation: which plugin folder Claude Code runs, its hooks wiring
 * against the events the hook needs, and what hooks/run will do with the binary for this
 * platform.
 */
import { fieldOf } from "../schemas/guards.ts";
import { fileReason } from "../core/errors.ts";
import { whyNotJson } from "../core/json_syntax.ts";
import { join } from "../core/path.ts";
import { HOOK_EVENTS } from "../core/claude_code.ts";
import { localPluginRoot, newestInstalledFile } from "../io/plugin_cache.ts";
import { launcherVerdict, readLauncherState } from "../io/launcher_state.ts";
import type { Settings } from "../settings/resolve.ts";
import { PLUGIN_INSTALL } from "./common.ts";
import { fail, ok, warn } from "./doctor_rules.ts";
import type { Check } from "./schemas.ts";

/**
 * The plugin folder to check: `--plugin-root`, else `CLAUDE_PLUGIN_ROOT`, else the folder of a
 * marketplace added from a local folder (Claude Code runs the hook there, not from its cache copy),
 * else the newest install
 * under `~/.claude/plugins/cache/<marketplace>/lessons-reinject/<version>`, else the current folder
 * when it is a checkout of this plugin. (Not the executable's own location: a compiled binary's
 * modules have none, so the program never looks beside itself.)
 */
export async function pluginRootFor(
  settings: Pick<Settings, "pluginRoot" | "claudeDir">,
  cwd: string,
  flag: string | undefined,
): Promise<{ root: string; via: string } | undefined> {
  if (flag) return { root: flag, via: "--plugin-root" };
  if (settings.pluginRoot) return { root: settings.pluginRoot, via: "CLAUDE_PLUGIN_ROOT" };
  const claude = settings.claudeDir;
  if (claude) {
    const local = await localPluginRoot(join(claude, "plugins"), "lessons-reinject");
    if (local) return { root: local, via: "marketplace added from a local folder" };
    const best = newestInstalledFile(join(claude, "plugins"), "lessons-reinject", [
      "hooks",
      "hooks.json",
    ]);
    if (best) return { root: best.root, via: "installed plugin" };
  }
  try {
    const manifest = JSON.parse(
      await Deno.readTextFile(join(cwd, ".claude-plugin", "plugin.json")),
    );
    if (fieldOf(manifest, "name") === "lessons-reinject") {
      return { root: cwd, via: "this checkout" };
    }
  } catch {
    // Not a checkout.
  }
  return undefined;
}

/** The plugin folder exists and is one; then its wiring and its binary. */
export async function checkPlugin(
  plugin: { root: string; via: string },
  settings: Settings,
): Promise<Check[]> {
  const info = await Deno.stat(plugin.root).catch(() => undefined);
  const fix = "pass --plugin-root the folder holding the plugin's hooks/ and dist/, or reinstall " +
    `it (${PLUGIN_INSTALL})`;
  if (!info) return [fail("plugin", `${plugin.root} (${plugin.via}) does not exist`, fix)];
  if (!info.isDirectory) {
    return [fail("plugin", `${plugin.root} (${plugin.via}) is not a folder`, fix)];
  }
  // A folder with none of the plugin's files is another folder, not a broken plugin: one line
  // says so, instead of a wiring error and a download that would not apply.
  const marks = [[".claude-plugin", "plugin.json"], ["hooks", "hooks.json"], ["hooks", "run"]];
  const present = await Promise.all(
    marks.map((parts) => Deno.stat(join(plugin.root, ...parts)).then(() => true, () => false)),
  );
  if (!present.some((p) => p)) {
    return [
      fail(
        "plugin",
        `${plugin.root} (${plugin.via}) is not the lessons-reinject plugin: it has no ` +
          ".claude-plugin/plugin.json, hooks/hooks.json or hooks/run",
        fix,
      ),
    ];
  }
  return [
    ok("plugin", `${plugin.root} (${plugin.via})`),
    await checkHooks(plugin.root),
    await checkBinary(plugin.root, settings),
  ];
}

/** hooks/hooks.json registers every event this hook needs, with matchers that let them through. */
async function checkHooks(root: string): Promise<Check> {
  const path = join(root, "hooks", "hooks.json");
  const fix = `restore ${path} from the plugin (it registers PostToolUse and PostToolUseFailure ` +
    `with matcher ".+", SessionStart with "clear|compact", and PostCompact, calling hooks/run)`;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    return fail("hooks wiring", `${path}: ${fileReason(error)}`, fix);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fail("hooks wiring", `${path}: ${await whyNotJson(text)}`, fix);
  }
  const hooks = fieldOf(raw, "hooks");
  const missing: string[] = [];
  for (const { event, needs } of HOOK_EVENTS) {
    const groups = fieldOf(hooks, event);
    if (!Array.isArray(groups)) {
      missing.push(`${event} is not registered`);
      continue;
    }
    const calling = groups.filter((g) => {
      const list = fieldOf(g, "hooks");
      return Array.isArray(list) &&
        list.some((h) => /hooks\/run|lessons-reinject/.test(String(fieldOf(h, "command") ?? "")));
    });
    if (calling.length === 0) {
      missing.push(`${event} does not call hooks/run`);
      continue;
    }
    for (const need of needs) {
      if (!calling.some((g) => matches(fieldOf(g, "matcher"), need))) {
        missing.push(`${event}'s matcher does not let "${need}" through`);
      }
    }
  }
  const run = join(root, "hooks", "run");
  const info = await Deno.stat(run).catch(() => undefined);
  if (!info?.isFile) missing.push(`${run} is missing`);
  else if (Deno.build.os !== "windows" && info.mode !== null && (info.mode & 0o111) === 0) {
    missing.push(`${run} is not executable (chmod +x)`);
  }
  if (missing.length > 0) return fail("hooks wiring", `${path}: ${missing.join("; ")}`, fix);
  return ok("hooks wiring", `${path}: every event registered, calling hooks/run`);
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
 * What hooks/run does with `dist/lessons-reinject-<target>[.exe]`, deno and its cache, and the
 * download. It only reads: a download is started by a hook call, never by doctor.
 */
async function checkBinary(
  root: string,
  settings: Pick<Settings, "searchPath" | "denoNpmCache">,
): Promise<Check> {
  const windows = Deno.build.os === "windows";
  const name = `lessons-reinject-${Deno.build.target}${windows ? ".exe" : ""}`;
  const deno = await findOnPath(windows ? "deno.exe" : "deno", settings.searchPath);
  const state = await readLauncherState(root, name, settings.denoNpmCache);
  const verdict = launcherVerdict(state, deno);
  if (verdict.status === "ok") return ok("binary", verdict.detail);
  const fix = verdict.fix ?? `run ${join(root, "hooks", "install")}`;
  return verdict.status === "warn"
    ? warn("binary", verdict.detail, fix)
    : fail("binary", verdict.detail, fix);
}

async function findOnPath(
  program: string,
  searchPath: readonly string[],
): Promise<string | undefined> {
  for (const dir of searchPath) {
    const path = join(dir, program);
    if ((await Deno.stat(path).catch(() => undefined))?.isFile) return path;
  }
  return undefined;
}
