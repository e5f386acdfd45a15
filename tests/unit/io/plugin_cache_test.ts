/**
 * Where Claude Code keeps a plugin. localPluginRoot() runs on Claude Code's own records, as 2.1.328
 * wrote them after `claude plugin marketplace add <folder>` and `claude plugin install`
 * (tests/fixtures/plugins-local-marketplace, paths rewritten to the test's folder).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "../../../src/core/path.ts";
import {
  installedDataDir,
  localPluginRoot,
  newestInstalledFile,
} from "../../../src/io/plugin_cache.ts";
import { loadStandingRules } from "../../../src/io/standing_rules.ts";
import { resolveSettings } from "../../../src/settings/resolve.ts";
import { envOf } from "../settings/_settings.ts";
import { cli } from "../../cli/_cli.ts";
import { pluginRecords, ROOT, sandbox } from "../../_helpers.ts";
import { folderWith } from "./_io.ts";

Deno.test("newestInstalledFile() picks the install whose file changed last", async () => {
  const { dir: home } = sandbox();
  const plugins = join(home, ".claude", "plugins");
  const write = (marketplace: string, version: string, when: number) => {
    const dir = join(plugins, "cache", marketplace, "lessons-learned", version, "data");
    Deno.mkdirSync(dir, { recursive: true });
    const path = join(dir, "lesson-manifest.json");
    Deno.writeTextFileSync(path, "{}");
    Deno.utimeSync(path, when, when);
    return path;
  };
  write("market-a", "1.0.0", 1_000_000);
  const newest = write("market-b", "2.0.0", 2_000_000);
  Deno.mkdirSync(join(plugins, "cache", "market-c", "lessons-learned", "3.0.0"), {
    recursive: true,
  });
  const found = newestInstalledFile(plugins, "lessons-learned", [
    "data",
    "lesson-manifest.json",
  ]);
  assertEquals(found?.path, newest);
  assertEquals(newestInstalledFile(plugins, "other-plugin", ["x"]), undefined);
  // The hook's manifest lookup falls back to it when nothing is configured; in Claude's folder
  // (CLAUDE_CONFIG_DIR moves it) unless CLAUDE_CODE_PLUGIN_CACHE_DIR names the plugins folder.
  const lookup = async (vars: Record<string, string>) =>
    (await loadStandingRules(resolveSettings(envOf(vars)), undefined)).manifest;
  const found2 = { path: newest, via: "installed lessons-learned plugin" };
  const at = (m: Awaited<ReturnType<typeof lookup>>) => m.kind === "invalid" && m.location;
  assertEquals(at(await lookup({ HOME: home })), found2);
  assertEquals(await lookup({ HOME: home, CLAUDE_CONFIG_DIR: join(home, "else") }), {
    kind: "none",
  });
  const cache = { HOME: home, CLAUDE_CONFIG_DIR: join(home, "else") };
  assertEquals(at(await lookup({ ...cache, CLAUDE_CODE_PLUGIN_CACHE_DIR: plugins })), found2);
});

Deno.test("installedDataDir() names the data folder Claude Code gives the install this runs from", async () => {
  const { dir } = sandbox();
  const plugins = join(dir, "plugins");
  const data = (name: string) => ({ dir: join(plugins, "data", name), id: name });
  const cache = join(plugins, "cache", "my.market", "lessons-reinject", "0.1.0");
  // A cache copy names its marketplace; `.` is not kept in the folder's name.
  assertEquals(
    installedDataDir(plugins, "lessons-reinject", cache),
    { ...data("lessons-reinject-my-market"), id: "lessons-reinject@my.market" },
  );
  // Nothing recorded, no --plugin-dir folder: none.
  assertEquals(installedDataDir(plugins, "lessons-reinject", "/src/lessons-reinject"), undefined);
  // `claude --plugin-dir` made `<plugin>-inline`.
  await Deno.mkdir(join(plugins, "data", "lessons-reinject-inline"), { recursive: true });
  assertEquals(
    installedDataDir(plugins, "lessons-reinject", "/src/lessons-reinject"),
    { ...data("lessons-reinject-inline"), id: "lessons-reinject@inline" },
  );
  // One install recorded: it, from anywhere.
  await Deno.writeTextFile(
    join(plugins, "installed_plugins.json"),
    JSON.stringify({ version: 2, plugins: { "lessons-reinject@gh": [{}], "other@gh": [{}] } }),
  );
  assertEquals(
    installedDataDir(plugins, "lessons-reinject", undefined),
    { ...data("lessons-reinject-gh"), id: "lessons-reinject@gh" },
  );
});

/** A local folder with the plugin's files, and ~/.claude/plugins holding its install's records. */
function arrange(dir: string, options: Parameters<typeof pluginRecords>[2] = {}) {
  const folder = join(dir, "src", "lessons-reinject");
  const ours = (path: string) => Deno.readTextFileSync(join(ROOT, path));
  folderWith({
    "src/lessons-reinject/hooks/hooks.json": ours("hooks/hooks.json"),
    "src/lessons-reinject/.claude-plugin/marketplace.json": ours(".claude-plugin/marketplace.json"),
  }, dir);
  const plugins = join(dir, "home", ".claude", "plugins");
  pluginRecords(plugins, folder, options);
  return { plugins, folder };
}

Deno.test("localPluginRoot() finds the folder a local marketplace runs the plugin from", async (t) => {
  const cases: { name: string; known?: (text: string) => string; found: boolean }[] = [
    { name: "a directory marketplace: its folder", found: true },
    {
      name: "a GitHub marketplace: none (the cache copy is the root)",
      known: (k) => k.replace('"source": "directory"', '"source": "github"'),
      found: false,
    },
    { name: "unreadable records: none", known: () => "{ not json", found: false },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const { plugins, folder } = arrange(sandbox().dir, c.known ? { known: c.known } : {});
      assertEquals(localPluginRoot(plugins, "lessons-reinject"), c.found ? folder : undefined);
      assertEquals(localPluginRoot(plugins, "lessons-learned"), undefined);
    });
  }
});

Deno.test("installedDataDir() run from a local marketplace's folder takes that install's data folder, not another's", () => {
  // A second install, from GitHub, whose data folder exists: the fallback would take it.
  const { plugins, folder } = arrange(sandbox().dir, { github: true });
  const ours = { dir: join(plugins, "data", "lessons-reinject-lessons-reinject") };
  assertEquals(installedDataDir(plugins, "lessons-reinject", folder), {
    ...ours,
    id: "lessons-reinject@lessons-reinject",
  });
  // From anywhere else, the install whose data folder exists.
  assertEquals(installedDataDir(plugins, "lessons-reinject", join(folder, "..")), {
    dir: join(plugins, "data", "lessons-reinject-gh"),
    id: "lessons-reinject@gh",
  });
});

Deno.test("localPluginRoot() with no records at all: none", () => {
  assertEquals(localPluginRoot("/nonexistent/plugins", "lessons-reinject"), undefined);
});

Deno.test("doctor checks the local folder a hook runs from, not Claude Code's cache copy", async () => {
  const { dir } = sandbox();
  const { plugins, folder } = arrange(dir);
  const copy = join(plugins, "cache", "lessons-reinject", "lessons-reinject", "0.1.0", "hooks");
  Deno.mkdirSync(copy, { recursive: true });
  Deno.copyFileSync(join(ROOT, "hooks", "hooks.json"), join(copy, "hooks.json"));
  const ran = await cli(["doctor", "--json"], { HOME: join(dir, "home") }, "", dir);
  const plugin = JSON.parse(ran.stdout).checks.find((c: { name: string }) => c.name === "plugin");
  assertEquals(plugin.detail, `${folder} (marketplace added from a local folder)`);
});
