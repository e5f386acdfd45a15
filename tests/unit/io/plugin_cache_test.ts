import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "../../../src/core/path.ts";
import { installedDataDir, newestInstalledFile } from "../../../src/io/plugin_cache.ts";
import { loadStandingRules } from "../../../src/io/standing_rules.ts";

Deno.test("newestInstalledFile() picks the install whose file changed last", async () => {
  const home = Deno.makeTempDirSync();
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
  // The hook's manifest lookup falls back to it when nothing is configured.
  const search = {
    sources: ["manifest" as const],
    rulesFiles: [],
    home: undefined,
    manifestPath: undefined,
    manifestPathFrom: undefined,
    pluginRoot: undefined,
    claudeDir: join(home, ".claude"),
    projectDir: undefined,
  };
  const { manifest } = await loadStandingRules(search, undefined);
  assertEquals(manifest.kind === "invalid" && manifest.location, {
    path: newest,
    via: "installed lessons-learned plugin",
  });
  // CLAUDE_CONFIG_DIR moves Claude's folder: the lookup follows it (as doctor's does).
  const elsewhere = await loadStandingRules(
    { ...search, claudeDir: join(home, "elsewhere") },
    undefined,
  );
  assertEquals(elsewhere.manifest, { kind: "none" });
  Deno.removeSync(home, { recursive: true });
});

Deno.test("installedDataDir() names the data folder Claude Code gives the install this runs from", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lessons-datadir-" });
  try {
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
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
