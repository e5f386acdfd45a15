/**
 * localPluginRoot() on Claude Code's own records, as 2.1.328 wrote them after `claude plugin
 * marketplace add <folder>` and `claude plugin install` (tests/fixtures/plugins-local-marketplace,
 * paths rewritten to the test's folder).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { localPluginRoot } from "../../../src/io/plugin_cache.ts";
import { cli } from "../../cli/_cli.ts";
import { ROOT } from "../../_helpers.ts";

const FIXTURE = join(ROOT, "tests", "fixtures", "plugins-local-marketplace");

/** ~/.claude/plugins with the captured records, and the local folder they name. */
function arrange(dir: string, edit: (known: string) => string = (k) => k) {
  const plugins = join(dir, "home", ".claude", "plugins");
  const folder = join(dir, "src", "lessons-reinject");
  Deno.mkdirSync(plugins, { recursive: true });
  Deno.mkdirSync(join(folder, "hooks"), { recursive: true });
  Deno.mkdirSync(join(folder, ".claude-plugin"), { recursive: true });
  Deno.copyFileSync(join(ROOT, "hooks", "hooks.json"), join(folder, "hooks", "hooks.json"));
  Deno.copyFileSync(
    join(ROOT, ".claude-plugin", "marketplace.json"),
    join(folder, ".claude-plugin", "marketplace.json"),
  );
  for (const name of ["installed_plugins.json", "known_marketplaces.json"]) {
    const text = Deno.readTextFileSync(join(FIXTURE, name))
      .replaceAll("/home/dev/src/lessons-reinject", folder)
      .replaceAll("/home/dev", join(dir, "home"));
    Deno.writeTextFileSync(join(plugins, name), name.startsWith("known") ? edit(text) : text);
  }
  return { plugins, folder };
}

Deno.test("localPluginRoot() finds the folder a local marketplace runs the plugin from", async (t) => {
  const cases: { name: string; edit?: (known: string) => string; found: boolean }[] = [
    { name: "a directory marketplace: its folder", found: true },
    {
      name: "a GitHub marketplace: none (the cache copy is the root)",
      edit: (k) => k.replace('"source": "directory"', '"source": "github"'),
      found: false,
    },
    { name: "unreadable records: none", edit: () => "{ not json", found: false },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const dir = Deno.makeTempDirSync({ prefix: "lessons-localmkt-" });
      try {
        const { plugins, folder } = arrange(dir, c.edit);
        assertEquals(
          localPluginRoot(plugins, "lessons-reinject"),
          c.found ? folder : undefined,
        );
        assertEquals(localPluginRoot(plugins, "lessons-learned"), undefined);
      } finally {
        Deno.removeSync(dir, { recursive: true });
      }
    });
  }
});

Deno.test("localPluginRoot() with no records at all: none", () => {
  assertEquals(localPluginRoot("/nonexistent/plugins", "lessons-reinject"), undefined);
});

Deno.test("doctor checks the local folder a hook runs from, not Claude Code's cache copy", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-localmkt-" });
  try {
    const { plugins, folder } = arrange(dir);
    const copy = join(plugins, "cache", "lessons-reinject", "lessons-reinject", "0.1.0", "hooks");
    Deno.mkdirSync(copy, { recursive: true });
    Deno.copyFileSync(join(ROOT, "hooks", "hooks.json"), join(copy, "hooks.json"));
    const ran = await cli(["doctor", "--json"], { HOME: join(dir, "home") }, "", dir);
    const plugin = JSON.parse(ran.stdout).checks.find((c: { name: string }) => c.name === "plugin");
    assertEquals(plugin.detail, `${folder} (marketplace added from a local folder)`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
