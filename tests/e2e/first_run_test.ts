/**
 * End-to-end, first run: real Claude Code 2.1.328 with a copy of the plugin that has no binary
 * yet (as a marketplace install leaves it) and an empty Deno cache, against the loopback API
 * stand-in. SessionStart startup must show the user one systemMessage and keep it from the model,
 * and the first tool call past 30 % must refresh (from dist/'s bundle); once a binary that
 * runs is in dist/, it must say nothing. A marketplace added from a local folder runs the hook
 * from that folder, not the cache copy, and the notice must name that folder.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { startApiStub } from "../../scripts/loopback/api_stub.ts";
import { backedSteps } from "../../scripts/loopback/backed_steps.ts";
import { spawnWithStdin } from "../_helpers.ts";
import { downloadFailed } from "../install/_support.ts";
import {
  claudeEnv,
  claudeForSuite,
  copyPlugin,
  foldersTest,
  installFromFolder,
  type Json,
  SAMPLE_MANIFEST,
} from "./harness.ts";
import { hookTimings } from "../../bench/in_session.ts";

const bin = await claudeForSuite();

/** Claude Code's environment; a download tried here fails at once, without network. */
const env = (home: string, url?: string) => ({
  ...claudeEnv(home, url),
  LESSONS_REINJECT_RELEASE_URL: "http://127.0.0.1:9/rel",
});

/**
 * One `claude -p` session with one Bash call at 31 % of 200k (`pluginDir` loads a plugin for it),
 * with an empty Deno cache: the systemMessage its SessionStart startup hook printed, if any, the
 * request bodies the model received, and Claude Code's own time for each PostToolUse call.
 */
async function session(home: string, work: string, pluginDir?: string, more = {}) {
  const stub = startApiStub({
    main: backedSteps([{ id: "toolu_first1", tokens: 62_000 }], 62_000),
  });
  const debug = join(home, "debug.log");
  const cold = {
    DENO_DIR: join(home, "deno-dir"),
    LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST,
    ...more,
  };
  try {
    const args = ["-p", "hi", "--output-format", "stream-json", "--verbose", "--debug-file", debug];
    args.push("--allowedTools", "Bash", ...pluginDir ? ["--plugin-dir", pluginDir] : []);
    const ran = await spawnWithStdin(bin, args, "", { ...env(home, stub.url), ...cold }, work);
    equal(ran.code, 0, ran.stderr);
    const events: Json[] = ran.stdout.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
    const responses = events.filter((e) =>
      e.type === "system" && e.subtype === "hook_response" && e.hook_name === "SessionStart:startup"
    );
    equal(responses.length, 1, "one SessionStart:startup hook ran");
    equal(responses[0]?.exit_code, 0);
    const stdout = String(responses[0]?.stdout ?? "").trim();
    return {
      notice: stdout === "" ? undefined : String(JSON.parse(stdout).systemMessage),
      requests: stub.requests.map((r) => JSON.stringify(r.body)),
      calls: hookTimings(await Deno.readTextFile(debug)),
    };
  } finally {
    await stub.close();
  }
}

foldersTest(
  bin,
  "e2e: first run without a binary: a setting it cannot use is one line for the user, nothing for the model; the first call refreshes",
  async ({ root, home, work }) => {
    const plugin = join(root, "plugin");
    await copyPlugin(plugin);
    const s = await session(home, work, plugin, { LESSONS_REINJECT_THRESHOLDS: "30,abc" });
    // The bundle in dist/ answers session start (no word about the binary: refreshes work).
    match(s.notice ?? "", /^lessons-reinject: LESSONS_REINJECT_THRESHOLDS="30,abc": .*; correct/);
    ok(s.requests.length > 0);
    for (const body of s.requests) ok(!body.includes("30,abc"), "the notice reached the model");
    // With an empty Deno cache, the first call past 30 % refreshes.
    ok(s.requests.some((b) => b.includes("[lessons-reinject refresh ")), "no refresh arrived");
    equal(s.calls[0]?.status, 0);
    Deno.stderr.writeSync(new TextEncoder().encode(`e2e: first call ${s.calls[0]?.ms} ms\n`));
    // The download really started (and, with no release to reach, failed and said so).
    await downloadFailed(join(plugin, "dist"));
  },
);

foldersTest(
  bin,
  "e2e: first run with a binary that runs: no notice, and later calls take the common path",
  async ({ root, home, work }) => {
    const plugin = join(root, "plugin");
    await copyPlugin(plugin);
    // The launcher's name for this platform is Deno's target triple (Linux and macOS).
    const name = `lessons-reinject-${Deno.build.target}`;
    await Deno.mkdir(join(plugin, "dist"), { recursive: true });
    await Deno.writeTextFile(
      join(plugin, "dist", name),
      `#!/bin/sh\nif [ "$1" = --version ]; then echo "lessons-reinject 0.1.0"; exit 0; fi\ncat >/dev/null\n`,
      { mode: 0o755 },
    );
    equal((await session(home, work, plugin)).notice, undefined);
    equal(await Deno.readTextFile(join(plugin, "dist", ".entry")), `${name}\n`);
  },
);

foldersTest(
  bin,
  "e2e: a marketplace added from a local folder runs the hook from that folder",
  async ({ root, home, work }) => {
    const folder = join(root, "lessons-reinject");
    await copyPlugin(folder);
    await installFromFolder(bin, folder, env(home), work);
    const cache = join(home, ".claude", "plugins", "cache", "lessons-reinject", "lessons-reinject");
    ok((await Deno.stat(cache)).isDirectory, "Claude Code made its cache copy");

    await session(home, work);
    await downloadFailed(join(folder, "dist"));
    // The cache copy is not where the hook runs: nothing was written there.
    for await (const version of Deno.readDir(cache)) {
      const log = join(cache, version.name, "dist", "install.log");
      ok(!(await Deno.stat(log).then(() => true, () => false)), `${log} exists`);
    }
  },
);
