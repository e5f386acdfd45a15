/**
 * A measurement, not a test: does this repository's plugin run at all on a release, and would it
 * without the one manifest field that release does not know? A test build of the plugin with this
 * repository's `hooks/hooks.json` (commands pointing at the real `hooks/run`) and
 * `.claude-plugin/plugin.json`, and the same without the manifest's `network` field; a climb across
 * 30 %; the loopback API's requests say which tool results carried a refresh.
 *
 *     deno run -A scripts/measure/measure_plugin_events.ts 2.0.76 2.1.96 2.1.97
 */
import { join } from "node:path";
import { backedSteps } from "../loopback/backed_steps.ts";
import { installedClaude } from "../loopback/claude_cli.ts";
import { deliveredAfter, HEADER_TAG, ROOT, Scenario } from "../../tests/e2e/harness.ts";

/** A plugin folder with this repository's hooks.json and manifest, less the fields in `drop`. */
async function testPlugin(drop: string[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "lessons-events-plugin-" });
  await Deno.mkdir(join(dir, ".claude-plugin"));
  await Deno.mkdir(join(dir, "hooks"));
  const manifest = JSON.parse(await Deno.readTextFile(join(ROOT, ".claude-plugin", "plugin.json")));
  for (const field of drop) delete manifest[field];
  await Deno.writeTextFile(join(dir, ".claude-plugin", "plugin.json"), JSON.stringify(manifest));
  const text = (await Deno.readTextFile(join(ROOT, "hooks", "hooks.json")))
    .replaceAll("${CLAUDE_PLUGIN_ROOT}/hooks/run", join(ROOT, "hooks", "run"));
  await Deno.writeTextFile(join(dir, "hooks", "hooks.json"), text);
  return dir;
}

const IDS = ["toolu_e1", "toolu_e2", "toolu_e3"];
const print = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
for (const version of Deno.args) {
  const cli = await installedClaude(version);
  if ("problem" in cli) throw new Error(cli.problem);
  for (const drop of [[], ["network"]]) {
    const dir = await testPlugin(drop);
    const s = await Scenario.start(cli.bin, {
      name: `events-${version}`,
      pluginDirs: [dir],
      script: {
        main: backedSteps([
          { id: IDS[0]!, tokens: 50_000 },
          { id: IDS[1]!, tokens: 62_000 }, // 31 %: crosses 30
          { id: IDS[2]!, tokens: 64_000 },
        ], 65_000),
      },
    });
    try {
      const turn = await s.turn("Climb.", { model: "claude-sonnet-4-6" });
      const refreshed = IDS.filter((id) =>
        (deliveredAfter(s.modelRequests(), id)?.text ?? "").includes(HEADER_TAG)
      );
      print(JSON.stringify({ version, dropped: drop, exit: turn.code, refreshedOn: refreshed }));
    } finally {
      await s.close();
      await Deno.remove(dir, { recursive: true });
    }
  }
}
