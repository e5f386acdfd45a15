/**
 * hooks/run, the launcher Claude Code calls: with a fake `uname` for each platform name and fake
 * binaries in dist/, it must pick the right one, and from then on exec it with no fork; in a
 * checkout, the source; else `deno run` with the binary's permissions while the binary is fetched
 * once in the background; else exit 0 with one stderr line, stdin drained. On SessionStart
 * startup it tells the user, in one systemMessage, while the binary is missing or downloading.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { contextOf, HOOK_PERMISSIONS, ROOT } from "../_helpers.ts";
import { smoke } from "../../scripts/smoke.ts";
import { assetName, type Target, TARGETS } from "../../scripts/release_files.ts";
import {
  downloadFailed,
  fakeRelease,
  FIRING,
  firingEnv,
  listing,
  notice,
  NOWHERE,
  plugin,
  POSIX,
  posixTest,
  run,
  textOf,
  traceProcesses,
  waitFor,
  which,
} from "./_support.ts";

/** `uname -s`, `uname -m` as each platform prints them, and the binary the launcher must run. */
const PLATFORMS: [system: string, machine: string, target: Target][] = [
  ["Linux", "x86_64", "x86_64-unknown-linux-gnu"],
  ["Linux", "aarch64", "aarch64-unknown-linux-gnu"],
  ["Linux", "arm64", "aarch64-unknown-linux-gnu"],
  ["Darwin", "x86_64", "x86_64-apple-darwin"],
  ["Darwin", "arm64", "aarch64-apple-darwin"],
  ["MINGW64_NT-10.0-26100", "x86_64", "x86_64-pc-windows-msvc"],
  ["MSYS_NT-10.0-26100", "x86_64", "x86_64-pc-windows-msvc"],
  ["CYGWIN_NT-10.0-26100", "x86_64", "x86_64-pc-windows-msvc"],
  ["MINGW64_NT-10.0-26100", "aarch64", "x86_64-pc-windows-msvc"],
];

/** A fake binary: says who it is, its arguments and how much stdin it read. */
function fakeBinary(name: string, exitCode = 0): string {
  return `#!/bin/sh\necho "${name} args:$* stdin:$(wc -c | tr -d ' ')"\nexit ${exitCode}\n`;
}

/** A fake binary that needs no program at all (shell builtins only), for a PATH with nothing. */
function builtinBinary(name: string, exitCode = 0): string {
  return `#!/bin/sh\nn=0\nwhile IFS= read -r _; do n=$((n + 1)); done\n` +
    `echo "${name} builtins args:$* lines:$n"\nexit ${exitCode}\n`;
}

/**
 * A fake binary answering SessionStart as the real hook does when it has something to tell: one
 * systemMessage, here naming its arguments and how much stdin it read.
 */
function answeringBinary(name: string): string {
  return `#!/bin/sh\nn=0\nwhile IFS= read -r _; do n=$((n + 1)); done\n` +
    `printf '{"systemMessage":"%s"}\\n' "${name} answered args:$* lines:$n"\n`;
}

/** POSIX only (Windows runs the launcher for real in the release workflow's smoke test). */
const test = posixTest("wc", "curl", "sha256sum");
const SH = POSIX ? which("sh") : "sh";

const MB = new Uint8Array(1024 * 1024).fill(0x41);
const PAYLOAD = new TextEncoder().encode("{}");
const LINUX = assetName("x86_64-unknown-linux-gnu");
const NO_AUTO_INSTALL = { LESSONS_REINJECT_NO_AUTO_INSTALL: "1" };

function setup(
  system = "Linux",
  machine = "x86_64",
  fakes: Record<string, string> = {},
  tools: string[] = [],
) {
  // run() sets DENO_NO_UPDATE_CHECK for every child; empty here, so that ECHO_DENO shows whether
  // hooks/run sets it itself.
  const env = { DENO_NO_UPDATE_CHECK: "" };
  return plugin({ uname: [system, machine], tools: ["wc", ...tools], fakes, env });
}

function installAll(dist: string, exitCode = 0): void {
  for (const target of TARGETS) {
    const name = assetName(target);
    Deno.writeTextFileSync(join(dist, name), fakeBinary(name, exitCode), { mode: 0o755 });
  }
}

/** A deno that prints its arguments, one a line, and how much stdin it read. */
const ECHO_DENO = `#!/bin/sh\nprintf '%s\\n' "$@"\necho "update-check:$DENO_NO_UPDATE_CHECK"\n` +
  `echo "stdin:$(wc -c | tr -d ' ')"\n`;

/** What ECHO_DENO prints for the hook run from source with the binary's permissions. */
function fromSource(root: string, extra: string[] = []): string[] {
  return [
    "run",
    "--quiet",
    "--no-prompt",
    ...extra,
    ...HOOK_PERMISSIONS,
    join(root, "src", "main.ts"),
    "update-check:1",
    "stdin:2",
  ];
}

for (const [system, machine, target] of PLATFORMS) {
  test(`hooks/run on ${system} ${machine} runs ${assetName(target)}`, async () => {
    using at = setup(system, machine);
    installAll(at.dist);
    const ran = await run(["sh", at.launcher], at.env, PAYLOAD);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, `${assetName(target)} args: stdin:2\n`);
    assert.equal(ran.stderr, "");
    const withArgs = await run(["sh", at.launcher, "--version"], at.env);
    assert.equal(withArgs.stdout, `${assetName(target)} args:--version stdin:0\n`);
    // The hook call proved the binary runs here: it is named in dist/.entry.
    assert.equal(Deno.readTextFileSync(join(at.dist, ".entry")), `${assetName(target)}\n`);
  });
}

test("hooks/run's common path runs no program: a PATH with nothing on it still reaches the binary", async () => {
  using at = setup();
  const { root, dist, launcher } = at;
  installAll(dist);
  assert.equal((await run(["sh", launcher], at.env, PAYLOAD)).code, 0);
  Deno.writeTextFileSync(join(dist, LINUX), builtinBinary(LINUX), { mode: 0o755 });
  // No uname, dirname or anything else: the slow path could not even name the platform.
  const empty = join(at.dir, "empty");
  Deno.mkdirSync(empty);
  const bare = { PATH: empty };
  const hook = await run([SH, launcher], bare, new TextEncoder().encode("a\nb\n"));
  assert.deepEqual([hook.code, hook.stdout, hook.stderr], [
    0,
    `${LINUX} builtins args: lines:2\n`,
    "",
  ]);
  const command = await run([SH, launcher, "--version"], bare);
  assert.equal(command.stdout, `${LINUX} builtins args:--version lines:0\n`);
  // Claude Code's own call: `"${CLAUDE_PLUGIN_ROOT}/hooks/run"`, the launcher executed directly.
  const direct = await run([launcher], bare, PAYLOAD);
  assert.equal(direct.stdout, `${LINUX} builtins args: lines:0\n`);
  // exec: a command's status is the binary's.
  Deno.writeTextFileSync(join(dist, LINUX), builtinBinary(LINUX, 3), { mode: 0o755 });
  assert.equal((await run([SH, launcher, "--version"], bare)).code, 3);
  // A checkout never takes it (its source wins); nor does a name that leaves dist/.
  Deno.mkdirSync(join(root, ".git"));
  assert.match((await run([SH, launcher], bare, PAYLOAD)).stderr, /no binary for \//);
  Deno.removeSync(join(root, ".git"));
  // Both names lead to a file that would run: the launcher must refuse the names themselves.
  Deno.mkdirSync(join(dist, "lessons-reinject-x"));
  Deno.writeTextFileSync(join(root, "evil"), builtinBinary("evil"), { mode: 0o755 });
  const backslashed = "lessons-reinject-x\\..\\evil";
  Deno.writeTextFileSync(join(dist, backslashed), builtinBinary("evil"), { mode: 0o755 });
  for (const outside of ["lessons-reinject-x/../../evil", backslashed]) {
    Deno.writeTextFileSync(join(dist, ".entry"), `${outside}\n`);
    const ran = await run([SH, launcher], bare, PAYLOAD);
    assert.equal(ran.stdout, "", outside);
    assert.match(ran.stderr, /no binary for \//);
  }
});

test(
  "hooks/run's common path forks nothing: exec of the binary is the only other process",
  async () => {
    using at = setup();
    installAll(at.dist);
    await run(["sh", at.launcher], at.env, PAYLOAD);
    Deno.writeTextFileSync(join(at.dist, LINUX), builtinBinary(LINUX), { mode: 0o755 });
    const { ran, forks, execs } = await traceProcesses(["-f"], [at.launcher], at.env, PAYLOAD);
    assert.equal(ran.stdout, `${LINUX} builtins args: lines:0\n`, ran.stderr);
    assert.deepEqual(forks, []);
    assert.equal(execs.length, 2, execs.join("\n"));
    assert.ok(execs[1]?.includes(join(at.dist, LINUX)), execs.join("\n"));
  },
  "strace",
);

test("hooks/run: the hook exits 0 even if the binary fails; a command keeps its status", async () => {
  using at = setup();
  installAll(at.dist, 3);
  assert.equal((await run(["sh", at.launcher], at.env)).code, 0);
  assert.equal((await run(["sh", at.launcher, "--version"], at.env)).code, 3);
  assert.ok(!listing(at.dist).includes(".entry"), "a failing binary is never made the common path");
});

test("hooks/run passes over a binary that cannot be executed, stdin intact", async () => {
  using at = setup("Linux", "x86_64", {
    deno: `#!/bin/sh\necho "deno stdin:$(wc -c | tr -d ' ')"\n`,
  });
  // A missing ELF interpreter (a glibc build on musl) fails the same way: status 127.
  Deno.writeTextFileSync(join(at.dist, LINUX), "#!/nonexistent/ld-linux\n", { mode: 0o755 });
  const payload = new TextEncoder().encode("payload");
  const ran = await run(["sh", at.launcher], { ...at.env, ...NO_AUTO_INSTALL }, payload);
  assert.deepEqual([ran.code, ran.stdout], [0, "deno stdin:7\n"]);
  assert.match(ran.stderr, /could not be executed \(status 127\)/);
  assert.ok(!listing(at.dist).includes(".entry"));
});

test("hooks/run in a checkout runs the source with exactly the binary's permissions", async () => {
  using at = setup("Darwin", "arm64", { deno: ECHO_DENO });
  Deno.writeTextFileSync(join(at.root, ".git"), "gitdir: /elsewhere\n"); // a worktree's .git file
  // Even this platform's binary does not shadow the source in a checkout.
  installAll(at.dist);
  const ran = await run(["sh", at.launcher], at.env, PAYLOAD);
  assert.equal(ran.code, 0);
  assert.deepEqual(ran.stdout.trim().split("\n"), fromSource(at.root));
  assert.equal(ran.stderr, "");
  assert.ok(!listing(at.dist).includes(".install-lock"), "no download in a checkout with deno");
});

test("hooks/run installed with deno and no binary: downloads it, runs the source meanwhile", async () => {
  using at = setup("Darwin", "arm64", { deno: ECHO_DENO }, ["curl", "sha256sum"]);
  const { root, dist } = at;
  // A binary for another platform does not count.
  Deno.writeTextFileSync(join(dist, assetName("x86_64-apple-darwin")), "x", { mode: 0o755 });
  const env = { ...at.env, LESSONS_REINJECT_RELEASE_URL: NOWHERE };
  const ran = await run(["sh", at.launcher], env, PAYLOAD);
  // Outside a checkout the hook never touches the network: Deno runs from its cache only.
  const cachedOnly = fromSource(root, ["--cached-only"]);
  assert.deepEqual([ran.code, ran.stdout.trim().split("\n"), ran.stderr], [0, cachedOnly, ""]);
  await downloadFailed(dist);
  assert.ok(listing(dist).includes(".install-lock"), "a download was started");
  // ...and the background fills Deno's cache for the source meanwhile (the commands need zod).
  const cacheLog = join(dist, "deno-cache.log");
  await waitFor(() => textOf(cacheLog).includes("deno cache: "), "the deno cache job to end");
  // Its last line says how it went: the startup notice reads it.
  assert.deepEqual(Deno.readTextFileSync(cacheLog).trim().split("\n"), [
    "cache",
    "--quiet",
    join(root, "src", "main.ts"),
    "update-check:1",
    "stdin:0",
    "lessons-reinject deno cache: done",
  ]);
});

/** A firing call from source, debug line on, PATH this machine's. */
const fromSourceEnv = (dir: string, denoDir: string, more: Record<string, string> = {}) => ({
  ...firingEnv(dir, denoDir),
  PATH: Deno.env.get("PATH") ?? "",
  LESSONS_DEBUG: "1",
  ...more,
});

test("hooks/run installed, from source: never waits on the npm registry, never a stack trace", async () => {
  using at = plugin({ source: true });
  // A cold Deno cache and no registry: without --cached-only Deno spent about 0.9 s on every
  // call trying the registry. A firing call needs no npm package (lessons are checked by hand),
  // so it refreshes (a missing package's one line: tests/unit/core/errors_test.ts).
  const registry = "http://127.0.0.1:9/";
  const cold = await run(
    [SH, at.launcher],
    fromSourceEnv(at.dir, join(at.dir, "dd"), { NPM_CONFIG_REGISTRY: registry }),
    FIRING,
  );
  assert.match(contextOf(cold.stdout) ?? cold.stderr, /^\[lessons-reinject refresh /);
  assert.doesNotMatch(cold.stderr, /backtrace|file:\/\/|--cached-only/i);
});

test("hooks/run from source: Deno's own failure is one line, its stack backtrace dropped", async () => {
  // What Deno 2.9.6 printed for a cold cache and no registry (NO_COLOR), then status 1.
  const captured = join(ROOT, "tests/fixtures/deno-errors/cold-cache-no-registry-2.9.6.txt");
  using at = setup("Linux", "x86_64", {
    deno: `#!/bin/sh\ncat >/dev/null\ncat '${captured}' >&2\nexit 1\n`,
  });
  const ran = await run(["sh", at.launcher], { ...at.env, ...NO_AUTO_INSTALL }, PAYLOAD);
  assert.deepEqual([ran.code, ran.stdinTaken], [0, true]);
  assert.equal(
    ran.stderr,
    "lessons-reinject: cannot run from source with deno: error: Failed caching npm package " +
      "'jsonc-parser@3.3.1'; 0: error sending request for url (http://127.0.0.1:9/jsonc-parser/-/" +
      "jsonc-parser-3.3.1.tgz): client error (Connect): tcp connect error: Connection refused " +
      "(os error 111); 1: client error (Connect); 2: tcp connect error; 3: Connection refused " +
      "(os error 111)\n",
  );
});

test("hooks/run with neither binary nor deno: exit 0, one stderr line, stdin drained", async () => {
  using at = setup();
  const env = { ...at.env, ...NO_AUTO_INSTALL };
  const ran = await run(["sh", at.launcher], env, MB);
  assert.deepEqual([ran.code, ran.stdout, ran.stdinTaken], [0, "", true], "all of stdin read");
  assert.equal(ran.stderr.split("\n").filter((l) => l !== "").length, 1);
  assert.match(
    ran.stderr,
    /no binary for x86_64-unknown-linux-gnu .* no deno on PATH; run .*install/,
  );
  assert.ok(ran.stderr.includes(at.root));
  const command = await run(["sh", at.launcher, "--version"], env);
  assert.equal(command.code, 1, "a command (not the hook) reports the failure");
});

test("hooks/run on an unknown platform: exit 0, one stderr line, no download", async () => {
  using at = setup("FreeBSD", "amd64");
  const ran = await run(["sh", at.launcher], at.env, MB);
  assert.deepEqual([ran.code, ran.stdinTaken], [0, true]);
  assert.equal(ran.stderr.trim().split("\n").length, 1);
  assert.match(ran.stderr, /no binary for FreeBSD\/amd64/);
  assert.deepEqual(listing(at.dist), []);
});

test("hooks/run fetches the binary once in the background, then execs it", async () => {
  await using release = fakeRelease({ [LINUX]: new TextEncoder().encode(fakeBinary(LINUX)) });
  using at = setup("Linux", "x86_64", {}, ["curl", "sha256sum"]);
  const first = await run(
    ["sh", at.launcher],
    { ...at.env, LESSONS_REINJECT_RELEASE_URL: release.base },
    MB,
  );
  assert.deepEqual([first.code, first.stdout, first.stdinTaken], [0, "", true]);
  assert.equal(first.stderr.trim().split("\n").length, 1);
  assert.match(first.stderr, /downloading it now in the background/);
  await waitFor(
    () => !listing(at.dist).includes(".install-lock"),
    "the background install to finish",
  );
  // hooks/install ran the binary (--version) and named it as the common path.
  assert.deepEqual(listing(at.dist), [".entry", "install.log", LINUX]);
  assert.match(Deno.readTextFileSync(join(at.dist, "install.log")), /installed /);
  const second = await run(["sh", at.launcher], at.env, PAYLOAD);
  assert.equal(second.stdout, `${LINUX} args: stdin:2\n`);
});

test("hooks/run does not retry a failed download on every call", async () => {
  const name = assetName("aarch64-apple-darwin");
  await using release = fakeRelease({ [name]: new Uint8Array(10) }, {
    modes: { [name]: "missing" },
  });
  using at = setup("Darwin", "arm64", {}, ["curl", "sha256sum"]);
  const withUrl = { ...at.env, LESSONS_REINJECT_RELEASE_URL: release.base };
  assert.equal((await run(["sh", at.launcher], withUrl)).code, 0);
  await downloadFailed(at.dist);
  const requests = release.requests.length;
  const second = await run(["sh", at.launcher], withUrl);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /a download was started/);
  assert.equal(release.requests.length, requests, "no second download");
  assert.deepEqual(listing(at.dist), [".install-lock", "install.log"]);
});

interface NoticeCase {
  name: string;
  /** Prepares the plugin root and dist/. */
  arrange?: (root: string, dist: string) => void;
  fakes?: Record<string, string>;
  env?: Record<string, string>;
  /** The systemMessage expected (a pattern). */
  says: RegExp;
  /** Whether a background download must have been started. */
  downloads?: boolean;
}

const NOTICES: NoticeCase[] = [
  {
    name: "binary verified (dist/.entry): the hook answers, as the hook (no arguments)",
    arrange: (_root, dist) => {
      Deno.writeTextFileSync(join(dist, LINUX), answeringBinary(LINUX), { mode: 0o755 });
      Deno.writeTextFileSync(join(dist, ".entry"), `${LINUX}\n`);
    },
    says: /^lessons-reinject-x86_64-unknown-linux-gnu answered args: lines:\d+$/,
  },
  {
    name: "binary present, not yet verified: the hook answers, names it in dist/.entry",
    arrange: (_root, dist) => {
      Deno.writeTextFileSync(join(dist, LINUX), answeringBinary(LINUX), { mode: 0o755 });
    },
    says: /^lessons-reinject-x86_64-unknown-linux-gnu answered args: lines:\d+$/,
  },
  {
    name: "no binary, no deno: download started, says refreshes start when it arrives",
    says:
      /^lessons-reinject: downloading its binary in the background \(log: .*install\.log\); context refreshes start when it arrives\.$/,
    downloads: true,
  },
  {
    name: "no binary, deno on PATH: download started, says the source runs meanwhile",
    fakes: { deno: ECHO_DENO },
    says:
      /^lessons-reinject: downloading its binary .*; until it arrives, refreshes run from source with deno\.$/,
    downloads: true,
  },
  {
    name: "downloads turned off, no deno: says refreshes are off and what to run",
    env: NO_AUTO_INSTALL,
    says:
      /^lessons-reinject: no binary in .*\/dist, and background downloads are off: refreshes are off until you run: sh .*\/hooks\/install$/,
  },
  {
    name: "a checkout with deno: the source answers, as the hook (no arguments)",
    arrange: (root) => Deno.mkdirSync(join(root, ".git")),
    fakes: { deno: answeringBinary("deno") },
    says: /^deno answered args:run .* --allow-env \S+\/src\/main\.ts lines:\d+$/,
  },
];

test("hooks/run --startup-notice (SessionStart startup)", async (t) => {
  for (const c of NOTICES) {
    await t.step(c.name, async () => {
      using at = setup("Linux", "x86_64", c.fakes, ["curl", "sha256sum"]);
      c.arrange?.(at.root, at.dist);
      const env = { ...at.env, LESSONS_REINJECT_RELEASE_URL: NOWHERE, ...c.env };
      const said = await notice(at.launcher, env);
      assert.match(said, c.says);
      if (!said.includes(" answered ")) {
        assert.ok(said.includes(at.root), "names the folder the hook really runs from");
      }
      if (c.downloads) await downloadFailed(at.dist);
      else if (c.name.startsWith("binary present")) {
        assert.equal(Deno.readTextFileSync(join(at.dist, ".entry")), `${LINUX}\n`);
      }
      assert.equal(listing(at.dist).includes("install.log"), !!c.downloads);
    });
  }
});

test("hooks/run --startup-notice: a folder name with quotes and backslashes stays valid JSON", async () => {
  using at = setup();
  const odd = join(at.dir, 'pl"ug\\in');
  Deno.renameSync(at.root, odd);
  const said = await notice(join(odd, "hooks", "run"), { ...at.env, ...NO_AUTO_INSTALL });
  assert.ok(said.includes(`sh ${odd}/hooks/install`), said);
});

test("hooks/run with the real deno, from a checkout, passes the release smoke test", async () => {
  using at = plugin({ source: true });
  Deno.mkdirSync(join(at.root, ".git"));
  assert.deepEqual(await smoke(["sh", at.launcher]), []);
});
