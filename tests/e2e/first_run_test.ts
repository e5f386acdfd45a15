/**
 * End-to-end, first run: real Claude Code 2.1.328 with a copy of the plugin that has no binary
 * yet (as a marketplace install leaves it), against the loopback API stand-in. SessionStart
 * startup must show the user one systemMessage and keep it from the model; once a binary that
 * runs is in dist/, it must say nothing. A marketplace added from a local folder runs the hook
 * from that folder, not the cache copy, and the notice must name that folder.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { startApiStub, type Step } from "../../scripts/loopback/api_stub.ts";
import { baseEnv, ROOT } from "../_helpers.ts";
import { claudeForSuite } from "./harness.ts";

const bin = await claudeForSuite();
const ignore = bin === "" || Deno.build.os === "windows";

/** What a marketplace install copies: the plugin without .git and without dist/. */
const PLUGIN_FILES = [".claude-plugin", "hooks", "src", "deno.json", "deno.lock"];

type Json = Record<string, unknown>;

interface Session {
  /** stream-json events Claude Code printed. */
  events: Json[];
  /** Request bodies the model received, as JSON text. */
  requests: string[];
}

async function copyPlugin(to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  const cp = await new Deno.Command("cp", {
    args: ["-R", ...PLUGIN_FILES.map((f) => join(ROOT, f)), to],
  }).output();
  ok(cp.success, new TextDecoder().decode(cp.stderr));
}

/**
 * The environment of Claude Code: a private HOME, the stand-in at `url`. Without `url` (the
 * `claude plugin` commands) no API key either: with one, each command waits 18 s on the network.
 */
function claudeEnv(home: string, url?: string): Record<string, string> {
  return {
    HOME: home,
    TMPDIR: join(home, "tmp"),
    ...(url ? { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "sk-ant-test" } : {}),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    // A download tried here fails at once, without network.
    LESSONS_REINJECT_RELEASE_URL: "http://127.0.0.1:9/rel",
  };
}

async function claude(args: string[], env: Record<string, string>, cwd: string) {
  const out = await new Deno.Command(bin, {
    args,
    cwd,
    env: baseEnv(env),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** One `claude -p` session with one Bash call; `pluginDir` loads a plugin for this session. */
async function session(home: string, work: string, pluginDir?: string): Promise<Session> {
  const main: Step[] = [
    {
      usage: { input_tokens: 1000 },
      tools: [{ name: "Bash", input: { command: "echo hi" }, id: "toolu_first1" }],
    },
    { usage: { input_tokens: 1000 }, text: "Done." },
  ];
  const stub = startApiStub({ main });
  try {
    const ran = await claude(
      [
        "-p",
        "hi",
        "--output-format",
        "stream-json",
        "--verbose",
        "--allowedTools",
        "Bash",
        ...(pluginDir ? ["--plugin-dir", pluginDir] : []),
      ],
      claudeEnv(home, stub.url),
      work,
    );
    equal(ran.code, 0, ran.stderr);
    const events = ran.stdout.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
    return { events, requests: stub.requests.map((r) => JSON.stringify(r.body)) };
  } finally {
    await stub.close();
  }
}

/** The systemMessage the SessionStart startup hook printed, or undefined when it printed none. */
function startupNotice(s: Session): string | undefined {
  const responses = s.events.filter((e) =>
    e.type === "system" && e.subtype === "hook_response" && e.hook_name === "SessionStart:startup"
  );
  equal(responses.length, 1, "one SessionStart:startup hook ran");
  const stdout = String(responses[0]?.stdout ?? "").trim();
  equal(responses[0]?.exit_code, 0);
  return stdout === "" ? undefined : JSON.parse(stdout).systemMessage;
}

async function waitForLog(path: string, pattern: RegExp): Promise<void> {
  const until = Date.now() + 10_000;
  while (!pattern.test(await Deno.readTextFile(path).catch(() => ""))) {
    if (Date.now() > until) throw new Error(`${path} never matched ${pattern}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function folders(name: string) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: `lessons-e2e-${name}-` }));
  const home = join(root, "home");
  const work = join(root, "work");
  for (const dir of [home, work, join(home, "tmp")]) await Deno.mkdir(dir, { recursive: true });
  return { root, home, work };
}

Deno.test({
  name: "e2e: first run without a binary: the user sees one line, the model nothing",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const { root, home, work } = await folders("first-run");
  try {
    const plugin = join(root, "plugin");
    await copyPlugin(plugin);
    const s = await session(home, work, plugin);
    const notice = startupNotice(s);
    ok(notice, "a systemMessage on startup");
    match(notice, /^lessons-reinject: downloading its binary in the background/);
    ok(notice.includes(join(plugin, "dist", "install.log")), notice);
    ok(s.requests.length > 0);
    for (const body of s.requests) {
      ok(!body.includes("downloading its binary"), "the notice reached the model");
    }
    // The download really started (and, with no release to reach, failed and said so).
    await waitForLog(join(plugin, "dist", "install.log"), /nothing installed/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name: "e2e: first run with a binary that runs: no notice, and later calls take the common path",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const { root, home, work } = await folders("has-binary");
  try {
    const plugin = join(root, "plugin");
    await copyPlugin(plugin);
    // The launcher's name for this platform is Deno's target triple (Linux and macOS).
    const name = `lessons-reinject-${Deno.build.target}`;
    await Deno.mkdir(join(plugin, "dist"));
    await Deno.writeTextFile(
      join(plugin, "dist", name),
      `#!/bin/sh\nif [ "$1" = --version ]; then echo "lessons-reinject 0.1.0"; exit 0; fi\ncat >/dev/null\n`,
      { mode: 0o755 },
    );
    const s = await session(home, work, plugin);
    equal(startupNotice(s), undefined);
    equal(await Deno.readTextFile(join(plugin, "dist", ".entry")), `${name}\n`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name: "e2e: a marketplace added from a local folder runs the hook from that folder",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const { root, home, work } = await folders("local-market");
  try {
    const folder = join(root, "lessons-reinject");
    await copyPlugin(folder);
    const env = claudeEnv(home);
    const added = await claude(["plugin", "marketplace", "add", folder], env, work);
    equal(added.code, 0, added.stdout + added.stderr);
    const installed = await claude(
      ["plugin", "install", "lessons-reinject@lessons-reinject"],
      env,
      work,
    );
    equal(installed.code, 0, installed.stdout + installed.stderr);
    const cache = join(home, ".claude", "plugins", "cache", "lessons-reinject", "lessons-reinject");
    ok((await Deno.stat(cache)).isDirectory, "Claude Code made its cache copy");

    const s = await session(home, work);
    const notice = startupNotice(s);
    ok(notice?.includes(join(folder, "dist", "install.log")), `names the folder: ${notice}`);
    await waitForLog(join(folder, "dist", "install.log"), /nothing installed/);
    // The cache copy is not where the hook runs: nothing was written there.
    for await (const version of Deno.readDir(cache)) {
      const dist = join(cache, version.name, "dist");
      ok(!(await Deno.stat(dist).then(() => true, () => false)), `${dist} exists`);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
