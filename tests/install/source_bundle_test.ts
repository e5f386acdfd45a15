/**
 * The source's bundle: hooks/run without a binary builds it in the background into a cache folder,
 * runs it (with the binary's permissions) while no file of the source is newer, and otherwise runs
 * the source, silently, while it builds again. A `deno` on PATH that logs its arguments before
 * running the real one shows which way each call went.
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { contextOf, denoDir, HOOK_PERMISSIONS, ROOT } from "../_helpers.ts";
import { smoke } from "../../scripts/smoke.ts";
import { currentBuild } from "../../scripts/source_bundle.ts";
import {
  BASE_TOOLS,
  FIRING,
  firingEnv,
  OFFLINE,
  posixTest,
  run,
  tempDir,
  textOf,
  toolbox,
  traceProcesses,
  waitFor,
  which,
} from "./_support.ts";

const test = posixTest("deno");

/** An installed plugin without a binary: a copy of the source, not a checkout. */
function setup(options: { cache?: string; denoDir?: string; env?: Record<string, string> } = {}) {
  const temp = tempDir("lessons-source-bundle-");
  const dir = temp.dir;
  const root = join(dir, "plugin");
  Deno.mkdirSync(root);
  for (const name of ["hooks", "src", "scripts", "deno.json", "deno.lock"]) {
    cpSync(join(ROOT, name), join(root, name), { recursive: true });
  }
  const log = join(dir, "deno.log");
  const bin = toolbox(dir, [...BASE_TOOLS, "wc"], {
    deno: `#!/bin/sh\nprintf '%s\\n' "$*" >>'${log}'\nexec '${which("deno")}' "$@"\n`,
  });
  const cache = options.cache ?? join(dir, "cache");
  const env = {
    ...firingEnv(dir, options.denoDir ?? denoDir()),
    PATH: bin,
    XDG_CACHE_HOME: cache,
    ...options.env,
  };
  const folder = join(cache, "lessons-reinject", "source-bundles", root);
  /** The deno commands run since the last call, one a line. */
  const ran = () => {
    const text = textOf(log);
    if (text) Deno.removeSync(log);
    return text.trim().split("\n").filter((l) => l !== "");
  };
  const launcher = join(root, "hooks", "run");
  /** A hook call in a fresh session of its own (the state of one never quiets the next). */
  const hook = (session: string, stdin = FIRING) => {
    const payload = JSON.parse(new TextDecoder().decode(stdin));
    payload.session_id = session;
    return run([launcher], env, new TextEncoder().encode(JSON.stringify(payload)));
  };
  const built = () => {
    try {
      Deno.statSync(join(folder, "building"));
      return false;
    } catch {
      return currentBuild(folder) !== undefined;
    }
  };
  /** What the logging deno saw for the hook run from the bundle, with the binary's permissions. */
  const bundled = () =>
    [
      "run --quiet --no-prompt --no-config",
      ...HOOK_PERMISSIONS,
      join(root, "hooks", "source_bundle.js"),
      join(folder, currentBuild(folder) ?? "?", "lessons-reinject.js"),
    ].join(" ");
  /** Whether these deno commands ran the source's main.ts. */
  const sourceIn = (calls: string[]) => calls.some((l) => l.endsWith(join(root, "src", "main.ts")));
  /** A first call, then the bundle it builds; the deno commands of both forgotten. */
  const warm = async () => {
    await hook("warm");
    await waitFor(built, "the bundle", 60_000);
    ran();
  };
  return { ...temp, root, env, folder, ran, launcher, hook, built, bundled, sourceIn, warm };
}

function assertRefresh(ran: { code: number; stdout: string; stderr: string }): void {
  assert.deepEqual([ran.code, ran.stderr], [0, ""]);
  assert.match(contextOf(ran.stdout) ?? ran.stdout, /^\[lessons-reinject refresh /);
}

test("hooks/run without a binary builds the source's bundle once, then runs it", async () => {
  using at = setup();
  const { root, folder, ran, launcher, env } = at;
  // The first call: the source serves it, and the bundle is built in the background.
  // A command never starts a build (as it never starts a download): it runs the source.
  const command = await run([launcher, "--version"], env);
  assert.deepEqual([command.code, command.stderr], [0, ""]);
  assert.deepEqual(ran(), [
    `run --quiet --no-prompt --cached-only ${HOOK_PERMISSIONS.join(" ")} ` +
    `${join(root, "src", "main.ts")} --version`,
  ]);
  assert.throws(() => Deno.statSync(folder), "no cache folder made");
  assertRefresh(await at.hook("first"));
  await waitFor(at.built, "the bundle to be built", 60_000);
  const first = ran();
  assert.ok(at.sourceIn(first), first.join("\n"));
  assert.ok(
    first.some((l) => l.includes("--allow-run") && l.endsWith(`source_bundle.ts ${folder}`)),
    first.join("\n"),
  );
  // From now on the bundle: one deno, the binary's permissions, no config, no build.
  assertRefresh(await at.hook("second"));
  assert.deepEqual(ran(), [at.bundled()]);
  const version = await run([launcher, "--version"], env);
  assert.deepEqual([version.code, version.stdout, version.stderr], [
    0,
    "lessons-reinject 0.1.0\n",
    "",
  ]);
  assert.deepEqual(ran(), [`${at.bundled()} --version`]);
  // It is the hook the release is: the release's smoke test passes through the launcher.
  // (smoke() gives each call an environment of its own: a wrapper keeps this plugin's.)
  const wrapper = join(at.dir, "launch");
  Deno.writeTextFileSync(
    wrapper,
    `#!/bin/sh\nexport PATH='${env.PATH}' XDG_CACHE_HOME='${env.XDG_CACHE_HOME}' ` +
      `LESSONS_REINJECT_NO_AUTO_INSTALL=1\nexec '${launcher}' "$@"\n`,
    { mode: 0o755 },
  );
  assert.deepEqual(await smoke([wrapper]), []);
  const calls = ran();
  assert.ok(calls.every((l) => l.startsWith(at.bundled())), calls.join("\n"));
});

test("hooks/run: an edit of the source runs the source at the next call, and rebuilds the bundle", async (t) => {
  using at = setup();
  const { root, folder, ran } = at;
  await at.warm();
  const edits: [string, () => void][] = [
    [
      "an edited file",
      () => Deno.writeTextFileSync(join(root, "src", "main.ts"), "\n", { append: true }),
    ],
    ["a new file", () => Deno.writeTextFileSync(join(root, "src", "io", "new_file.ts"), "\n")],
    ["a removed file", () => Deno.removeSync(join(root, "src", "io", "new_file.ts"))],
    ["deno.json", () => Deno.writeTextFileSync(join(root, "deno.json"), "\n", { append: true })],
  ];
  for (const [what, edit] of edits) {
    await t.step(what, async () => {
      const before = currentBuild(folder);
      edit();
      assertRefresh(await at.hook(`edit ${what}`));
      const calls = ran();
      assert.ok(at.sourceIn(calls), calls.join("\n"));
      assert.ok(!calls.some((l) => l.includes("source_bundle.js")), "a stale bundle is not run");
      await waitFor(() => at.built() && currentBuild(folder) !== before, "the rebuild", 60_000);
      ran();
      assertRefresh(await at.hook(`after ${what}`));
      assert.deepEqual(ran(), [at.bundled()]);
    });
  }
});

test("hooks/run: a corrupt or half-written bundle is passed over, silently, stdin intact", async () => {
  using at = setup();
  const { folder, ran } = at;
  await at.warm();
  const build = currentBuild(folder)!;
  const bundle = join(folder, build, "lessons-reinject.js");
  const whole = Deno.readFileSync(bundle);
  // A build in progress (its lock): a bad bundle is rebuilt, but not before these calls.
  const lock = join(folder, "building");
  Deno.mkdirSync(lock);
  const bad: [string, Uint8Array][] = [
    ["half-written", whole.subarray(0, whole.length >> 1)],
    ["garbage", new TextEncoder().encode("\u0000\u0001 not JavaScript {{{")],
    ["empty", new Uint8Array()],
    ["no main", new TextEncoder().encode("export const x = 1;\n")],
  ];
  for (const [what, bytes] of bad) {
    // Written with the bundle's own mtime: no source file becomes newer, it is just bad.
    const info = Deno.statSync(bundle);
    Deno.writeFileSync(bundle, bytes);
    Deno.utimeSync(bundle, info.atime!, info.mtime!);
    ran();
    // The source serves the whole call: the payload was still there to read.
    assertRefresh(await at.hook(what));
    const calls = ran();
    assert.equal(calls[0], at.bundled(), what);
    assert.ok(at.sourceIn(calls), calls.join("\n"));
  }
  // Without the lock, the next such call builds it again, and the new bundle serves.
  Deno.removeSync(lock);
  assertRefresh(await at.hook("rebuild"));
  await waitFor(() => at.built() && currentBuild(folder) !== build, "the rebuild", 60_000);
  ran();
  assertRefresh(await at.hook("rebuilt"));
  assert.deepEqual(ran(), [at.bundled()]);
  // A removed one too.
  Deno.removeSync(join(folder, currentBuild(folder)!), { recursive: true });
  assertRefresh(await at.hook("removed"));
});

test("hooks/run: no cache folder to write: the source serves every call, silently", async () => {
  using blocked = tempDir("lessons-blocked-");
  // A file where the cache folder would be: no one, not even root, can make a folder under it.
  Deno.writeTextFileSync(join(blocked.dir, "file"), "");
  using at = setup({ cache: join(blocked.dir, "file", "cache") });
  for (const session of ["one", "two"]) {
    assertRefresh(await at.hook(session));
    const calls = at.ran();
    assert.ok(at.sourceIn(calls), calls.join("\n"));
    assert.ok(!calls.some((l) => l.includes("source_bundle")), calls.join("\n"));
  }
});

test("hooks/run offline: a warm Deno cache builds the bundle; a cold one leaves the source, silent", async (t) => {
  await t.step("warm: esbuild and the packages are in Deno's cache", async () => {
    using at = setup({ env: OFFLINE });
    assertRefresh(await at.hook("offline warm"));
    await waitFor(at.built, "the bundle, offline", 60_000);
    at.ran();
    assertRefresh(await at.hook("offline warm again"));
    assert.deepEqual(at.ran(), [at.bundled()]);
  });
  await t.step("cold: no esbuild, no packages", async () => {
    using cold = tempDir("lessons-cold-deno-dir-");
    using at = setup({ denoDir: cold.dir, env: OFFLINE });
    const quiet = { ...at.env, LESSONS_REINJECT_TOOL_COUNT: "20" };
    const first = await run([at.launcher], quiet, FIRING);
    assert.deepEqual([first.code, first.stdout, first.stderr], [0, "", ""]);
    const log = join(at.folder, "build.log");
    await waitFor(
      () =>
        textOf(log).endsWith(
          "lessons-reinject source bundle: failed; the source serves, and the build is " +
            "tried again in 10 minutes\n",
        ),
      "the build to fail",
      60_000,
    );
    at.ran();
    // The failed build's lock stays: the next calls run the source and start no other build.
    const second = await run([at.launcher], quiet, FIRING);
    assert.deepEqual([second.code, second.stdout, second.stderr], [0, "", ""]);
    assert.ok(!at.ran().some((l) => l.includes("source_bundle")), "no second build");
    assert.equal(currentBuild(at.folder), undefined);
  });
});

test(
  "hooks/run's check that the bundle is fresh runs no program: deno is its one fork",
  async () => {
    using at = setup();
    await at.warm();
    // The launcher's own process only (no -f): what it forks and executes itself.
    const { ran, forks, execs } = await traceProcesses([], [at.launcher], at.env, FIRING);
    assertRefresh(ran);
    assert.deepEqual(at.ran(), [at.bundled()]);
    assert.deepEqual([forks.length, execs.length], [1, 1], [...forks, ...execs].join("\n"));
  },
  "strace",
);
