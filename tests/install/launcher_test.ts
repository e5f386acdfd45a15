/**
 * hooks/run, the launcher Claude Code calls: with a fake `uname` for each platform name and fake
 * binaries in dist/, it must pick the right one, and from then on exec it with no fork; in a
 * checkout, the source; else `deno run` with the binary's permissions while the binary is fetched
 * once in the background; else exit 0 with one stderr line, stdin drained. On SessionStart
 * startup it tells the user, in one systemMessage, while the binary is missing or downloading.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { denoDir, HOOK_PERMISSIONS, ROOT, SAMPLE_MANIFEST } from "../_helpers.ts";
import { smoke } from "../../scripts/smoke.ts";
import { assetName, type Target, TARGETS } from "../../scripts/release_files.ts";
import {
  BASE_TOOLS,
  fakeRelease,
  fakeUname,
  has,
  listing,
  pluginRoot,
  POSIX,
  run,
  toolbox,
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
const IGNORE = !POSIX || !has(...BASE_TOOLS, "wc", "curl", "sha256sum");
const SH = IGNORE ? "sh" : which("sh");

const MB = new Uint8Array(1024 * 1024).fill(0x41);
const PAYLOAD = new TextEncoder().encode("{}");
const STARTUP = Deno.readFileSync(
  join(ROOT, "tests", "fixtures", "payloads", "SessionStart.startup.json"),
);
/** Release URL of nothing: a download tried here fails at once, without network. */
const NOWHERE = "http://127.0.0.1:9/rel";

function setup(
  system: string,
  machine: string,
  extraFakes: Record<string, string> = {},
  tools: string[] = [],
) {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-run-" });
  const root = pluginRoot(dir);
  const bin = toolbox(dir, [...BASE_TOOLS, "wc", ...tools], {
    uname: fakeUname(system, machine),
    ...extraFakes,
  });
  const dist = join(root, "dist");
  Deno.mkdirSync(dist);
  // run() sets DENO_NO_UPDATE_CHECK for every child; empty here, so that ECHO_DENO shows whether
  // hooks/run sets it itself.
  const env = { PATH: bin, DENO_NO_UPDATE_CHECK: "" };
  return { dir, root, dist, launcher: join(root, "hooks", "run"), env };
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

/** The systemMessage of a startup notice, or undefined when stdout is empty. */
function noticeOf(stdout: string): string | undefined {
  if (stdout === "") return undefined;
  const parsed = JSON.parse(stdout);
  assert.deepEqual(Object.keys(parsed), ["systemMessage"], stdout);
  assert.equal(stdout.trim().split("\n").length, 1, "one line");
  return parsed.systemMessage;
}

for (const [system, machine, target] of PLATFORMS) {
  Deno.test(
    { name: `hooks/run on ${system} ${machine} runs ${assetName(target)}`, ignore: IGNORE },
    async () => {
      const { dir, dist, launcher, env } = setup(system, machine);
      try {
        installAll(dist);
        const ran = await run(["sh", launcher], env, PAYLOAD);
        assert.equal(ran.code, 0, ran.stderr);
        assert.equal(ran.stdout, `${assetName(target)} args: stdin:2\n`);
        assert.equal(ran.stderr, "");
        const withArgs = await run(["sh", launcher, "--version"], env);
        assert.equal(withArgs.stdout, `${assetName(target)} args:--version stdin:0\n`);
        // The hook call proved the binary runs here: it is named in dist/.entry.
        assert.equal(Deno.readTextFileSync(join(dist, ".entry")), `${assetName(target)}\n`);
      } finally {
        Deno.removeSync(dir, { recursive: true });
      }
    },
  );
}

Deno.test({
  name:
    "hooks/run's common path runs no program: a PATH with nothing on it still reaches the binary",
  ignore: IGNORE,
}, async () => {
  const { dir, root, dist, launcher, env } = setup("Linux", "x86_64");
  const name = assetName("x86_64-unknown-linux-gnu");
  try {
    installAll(dist);
    assert.equal((await run(["sh", launcher], env, PAYLOAD)).code, 0);
    Deno.writeTextFileSync(join(dist, name), builtinBinary(name), { mode: 0o755 });
    // No uname, dirname or anything else: the slow path could not even name the platform.
    const empty = join(dir, "empty");
    Deno.mkdirSync(empty);
    const bare = { PATH: empty };
    const hook = await run([SH, launcher], bare, new TextEncoder().encode("a\nb\n"));
    assert.deepEqual([hook.code, hook.stdout, hook.stderr], [
      0,
      `${name} builtins args: lines:2\n`,
      "",
    ]);
    const command = await run([SH, launcher, "--version"], bare);
    assert.equal(command.stdout, `${name} builtins args:--version lines:0\n`);
    // Claude Code's own call: `"${CLAUDE_PLUGIN_ROOT}/hooks/run"`, the launcher executed directly.
    const direct = await run([launcher], bare, PAYLOAD);
    assert.equal(direct.stdout, `${name} builtins args: lines:0\n`);
    // exec: a command's status is the binary's.
    Deno.writeTextFileSync(join(dist, name), builtinBinary(name, 3), { mode: 0o755 });
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
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/run's common path forks nothing: exec of the binary is the only other process",
  ignore: IGNORE || !has("strace"),
}, async () => {
  const { dir, dist, launcher, env } = setup("Linux", "x86_64");
  const name = assetName("x86_64-unknown-linux-gnu");
  try {
    installAll(dist);
    await run(["sh", launcher], env, PAYLOAD);
    Deno.writeTextFileSync(join(dist, name), builtinBinary(name), { mode: 0o755 });
    const trace = join(dir, "trace");
    const ran = await run(
      [
        which("strace"),
        "-f",
        "-qq",
        "-o",
        trace,
        "-e",
        "trace=fork,vfork,clone,clone3,execve",
        launcher,
      ],
      env,
      PAYLOAD,
    );
    assert.equal(ran.stdout, `${name} builtins args: lines:0\n`, ran.stderr);
    const calls = Deno.readTextFileSync(trace).trim().split("\n");
    assert.equal(calls.filter((l) => /\b(v?fork|clone3?)\(/.test(l)).length, 0, calls.join("\n"));
    const execs = calls.filter((l) => /\bexecve\(/.test(l));
    assert.equal(execs.length, 2, execs.join("\n"));
    assert.ok(execs[1]?.includes(join(dist, name)), execs.join("\n"));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/run: the hook exits 0 even if the binary fails; a command keeps its status",
  ignore: IGNORE,
}, async () => {
  const { dir, dist, launcher, env } = setup("Linux", "x86_64");
  try {
    installAll(dist, 3);
    assert.equal((await run(["sh", launcher], env)).code, 0);
    assert.equal((await run(["sh", launcher, "--version"], env)).code, 3);
    assert.ok(!listing(dist).includes(".entry"), "a failing binary is never made the common path");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/run passes over a binary that cannot be executed, stdin intact",
  ignore: IGNORE,
}, async () => {
  const deno = `#!/bin/sh\necho "deno stdin:$(wc -c | tr -d ' ')"\n`;
  const { dir, dist, launcher, env } = setup("Linux", "x86_64", { deno });
  try {
    // A missing ELF interpreter (a glibc build on musl) fails the same way: status 127.
    Deno.writeTextFileSync(
      join(dist, assetName("x86_64-unknown-linux-gnu")),
      "#!/nonexistent/ld-linux\n",
      { mode: 0o755 },
    );
    const ran = await run(
      ["sh", launcher],
      { ...env, LESSONS_REINJECT_NO_AUTO_INSTALL: "1" },
      new TextEncoder().encode("payload"),
    );
    assert.equal(ran.code, 0);
    assert.equal(ran.stdout, "deno stdin:7\n");
    assert.match(ran.stderr, /could not be executed \(status 127\)/);
    assert.ok(!listing(dist).includes(".entry"));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/run in a checkout runs the source with exactly the binary's permissions",
  ignore: IGNORE,
}, async () => {
  const { dir, root, dist, launcher, env } = setup("Darwin", "arm64", { deno: ECHO_DENO });
  try {
    Deno.writeTextFileSync(join(root, ".git"), "gitdir: /elsewhere\n"); // a worktree's .git file
    // Even this platform's binary does not shadow the source in a checkout.
    installAll(dist);
    const ran = await run(["sh", launcher], env, PAYLOAD);
    assert.equal(ran.code, 0);
    assert.deepEqual(ran.stdout.trim().split("\n"), fromSource(root));
    assert.equal(ran.stderr, "");
    assert.ok(!listing(dist).includes(".install-lock"), "no download in a checkout with deno");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/run installed with deno and no binary: downloads it, runs the source meanwhile",
  ignore: IGNORE,
}, async () => {
  const { dir, root, dist, launcher, env } = setup("Darwin", "arm64", { deno: ECHO_DENO }, [
    "curl",
    "sha256sum",
  ]);
  try {
    // A binary for another platform does not count.
    Deno.writeTextFileSync(join(dist, assetName("x86_64-apple-darwin")), "x", { mode: 0o755 });
    const ran = await run(
      ["sh", launcher],
      { ...env, LESSONS_REINJECT_RELEASE_URL: NOWHERE },
      PAYLOAD,
    );
    assert.equal(ran.code, 0);
    // Outside a checkout the hook never touches the network: Deno runs from its cache only.
    assert.deepEqual(ran.stdout.trim().split("\n"), fromSource(root, ["--cached-only"]));
    assert.equal(ran.stderr, "");
    await waitFor(
      () => /nothing installed/.test(Deno.readTextFileSync(join(dist, "install.log"))),
      10_000,
      "the background download to fail",
    );
    assert.ok(listing(dist).includes(".install-lock"), "a download was started");
    // ...and the background fills Deno's cache for the source meanwhile (firing calls need zod).
    await waitFor(() => listing(dist).includes("deno-cache.log"), 10_000, "the deno cache job");
    await waitFor(
      () => Deno.readTextFileSync(join(dist, "deno-cache.log")).includes("deno cache: "),
      10_000,
      "the deno cache job to end",
    );
    // Its last line says how it went: the startup notice reads it.
    assert.deepEqual(Deno.readTextFileSync(join(dist, "deno-cache.log")).trim().split("\n"), [
      "cache",
      "--quiet",
      join(root, "src", "main.ts"),
      "update-check:1",
      "stdin:0",
      "lessons-reinject deno cache: done",
    ]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** A firing call from source: no transcript, so the every-N-calls fallback fires at call 1. */
function firingEnv(dir: string, denoDir: string, registry?: string): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: dir,
    DENO_DIR: denoDir,
    ...(registry ? { NPM_CONFIG_REGISTRY: registry } : {}),
    LESSONS_REINJECT_NO_AUTO_INSTALL: "1",
    LESSONS_REINJECT_TOOL_COUNT: "1",
    LESSONS_STATE_DIR: join(dir, "state"),
    LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST,
    LESSONS_DEBUG: "1",
    // The payload's transcript does not exist: a context's first call would wait for it.
    LESSONS_REINJECT_WAIT_MS: "1",
  };
}

const FIRING = (() => {
  const payload = JSON.parse(
    Deno.readTextFileSync(join(ROOT, "tests", "fixtures", "payloads", "PostToolUse.Bash.json")),
  );
  payload.transcript_path = "/nonexistent/transcript.jsonl";
  return new TextEncoder().encode(JSON.stringify(payload));
})();

Deno.test({
  name: "hooks/run installed, from source: never waits on the npm registry, never a stack trace",
  ignore: IGNORE,
}, async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-run-" });
  try {
    const root = pluginRoot(dir);
    for (const name of ["src", "deno.json", "deno.lock"]) {
      Deno.symlinkSync(join(ROOT, name), join(root, name));
    }
    // A cold Deno cache and no registry: without --cached-only Deno spent about 0.9 s on every
    // call trying the registry. The real Deno says the firing call found no package in its cache.
    const cold = await run(
      [SH, join(root, "hooks", "run")],
      firingEnv(dir, join(dir, "dd"), "http://127.0.0.1:9/"),
      FIRING,
    );
    assert.equal(cold.code, 0);
    assert.equal(cold.stdout, "");
    // The hook's own debug line, one line in its own words: no Deno message, no file:// location.
    assert.match(
      cold.stderr,
      /^lessons-reinject: PostToolUse Bash: nothing: cannot record the decision: its package \S+ is not in Deno's cache yet \(hooks\/run fetches it in the background; the release binary needs none\)\n$/,
    );
    assert.doesNotMatch(cold.stderr, /backtrace|file:\/\/|--cached-only/i);
    // With the packages in Deno's cache (what the background `deno cache` does), it refreshes
    // (Deno keys its npm cache by registry: the tests' shared cache holds the default one's).
    const warm = await run(
      [SH, join(root, "hooks", "run")],
      firingEnv(dir, denoDir()),
      FIRING,
    );
    assert.ok(warm.stdout, warm.stderr);
    assert.match(
      JSON.parse(warm.stdout).hookSpecificOutput.additionalContext,
      /^\[lessons-reinject refresh /,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/run from source: Deno's own failure is one line, its stack backtrace dropped",
  ignore: IGNORE,
}, async () => {
  // What Deno 2.9.6 printed for a cold cache and no registry (NO_COLOR), then status 1.
  const captured = join(
    ROOT,
    "tests",
    "fixtures",
    "deno-errors",
    "cold-cache-no-registry-2.9.6.txt",
  );
  const deno = `#!/bin/sh\ncat >/dev/null\ncat '${captured}' >&2\nexit 1\n`;
  const { dir, launcher, env } = setup("Linux", "x86_64", { deno });
  try {
    const ran = await run(
      ["sh", launcher],
      { ...env, LESSONS_REINJECT_NO_AUTO_INSTALL: "1" },
      PAYLOAD,
    );
    assert.equal(ran.code, 0);
    assert.ok(ran.stdinTaken);
    assert.equal(
      ran.stderr,
      "lessons-reinject: cannot run from source with deno: error: Failed caching npm package " +
        "'jsonc-parser@3.3.1'; 0: error sending request for url (http://127.0.0.1:9/jsonc-parser/-/" +
        "jsonc-parser-3.3.1.tgz): client error (Connect): tcp connect error: Connection refused " +
        "(os error 111); 1: client error (Connect); 2: tcp connect error; 3: Connection refused " +
        "(os error 111)\n",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/run with neither binary nor deno: exit 0, one stderr line, stdin drained",
  ignore: IGNORE,
}, async () => {
  const { dir, root, launcher, env } = setup("Linux", "x86_64");
  try {
    const ran = await run(
      ["sh", launcher],
      { ...env, LESSONS_REINJECT_NO_AUTO_INSTALL: "1" },
      MB,
    );
    assert.equal(ran.code, 0);
    assert.equal(ran.stdout, "");
    assert.ok(ran.stdinTaken, "all of stdin was read");
    assert.equal(ran.stderr.split("\n").filter((l) => l !== "").length, 1);
    assert.match(
      ran.stderr,
      /no binary for x86_64-unknown-linux-gnu .* no deno on PATH; run .*install/,
    );
    assert.ok(ran.stderr.includes(root));
    const command = await run(["sh", launcher, "--version"], {
      ...env,
      LESSONS_REINJECT_NO_AUTO_INSTALL: "1",
    });
    assert.equal(command.code, 1, "a command (not the hook) reports the failure");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/run on an unknown platform: exit 0, one stderr line, no download",
  ignore: IGNORE,
}, async () => {
  const { dir, dist, launcher, env } = setup("FreeBSD", "amd64");
  try {
    const ran = await run(["sh", launcher], env, MB);
    assert.equal(ran.code, 0);
    assert.ok(ran.stdinTaken);
    assert.equal(ran.stderr.trim().split("\n").length, 1);
    assert.match(ran.stderr, /no binary for FreeBSD\/amd64/);
    assert.deepEqual(listing(dist), []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/run fetches the binary once in the background, then execs it",
  ignore: IGNORE,
}, async () => {
  const name = assetName("x86_64-unknown-linux-gnu");
  const release = fakeRelease({ [name]: new TextEncoder().encode(fakeBinary(name)) });
  const { dir, dist, launcher, env } = setup("Linux", "x86_64", {}, ["curl", "sha256sum"]);
  try {
    const first = await run(
      ["sh", launcher],
      { ...env, LESSONS_REINJECT_RELEASE_URL: release.base },
      MB,
    );
    assert.equal(first.code, 0);
    assert.equal(first.stdout, "");
    assert.ok(first.stdinTaken);
    assert.equal(first.stderr.trim().split("\n").length, 1);
    assert.match(first.stderr, /downloading it now in the background/);
    await waitFor(
      () => !listing(dist).includes(".install-lock"),
      10_000,
      "the background install to finish",
    );
    // hooks/install ran the binary (--version) and named it as the common path.
    assert.deepEqual(listing(dist), [".entry", "install.log", name]);
    assert.match(Deno.readTextFileSync(join(dist, "install.log")), /installed /);
    const second = await run(["sh", launcher], env, PAYLOAD);
    assert.equal(second.stdout, `${name} args: stdin:2\n`);
  } finally {
    await release.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test(
  { name: "hooks/run does not retry a failed download on every call", ignore: IGNORE },
  async () => {
    const name = assetName("aarch64-apple-darwin");
    const release = fakeRelease({ [name]: new Uint8Array(10) }, { modes: { [name]: "missing" } });
    const { dir, dist, launcher, env } = setup("Darwin", "arm64", {}, ["curl", "sha256sum"]);
    const withUrl = { ...env, LESSONS_REINJECT_RELEASE_URL: release.base };
    try {
      const first = await run(["sh", launcher], withUrl);
      assert.equal(first.code, 0);
      const log = join(dist, "install.log");
      await waitFor(
        () =>
          listing(dist).includes("install.log") &&
          /nothing installed/.test(Deno.readTextFileSync(log)),
        10_000,
        "the background install to fail",
      );
      const requests = release.requests.length;
      const second = await run(["sh", launcher], withUrl);
      assert.equal(second.code, 0);
      assert.match(second.stderr, /a download was started/);
      assert.equal(release.requests.length, requests, "no second download");
      assert.deepEqual(listing(dist), [".install-lock", "install.log"]);
    } finally {
      await release.close();
      Deno.removeSync(dir, { recursive: true });
    }
  },
);

interface NoticeCase {
  name: string;
  /** Prepares the plugin root and dist/. */
  arrange?: (root: string, dist: string) => void;
  fakes?: Record<string, string>;
  env?: Record<string, string>;
  /** The systemMessage expected (a pattern), or undefined for silence. */
  says: RegExp | undefined;
  /** Whether a background download must have been started. */
  downloads: boolean;
}

const NOTICES: NoticeCase[] = [
  {
    name: "binary verified (dist/.entry): the hook answers, as the hook (no arguments)",
    arrange: (_root, dist) => {
      const name = assetName("x86_64-unknown-linux-gnu");
      Deno.writeTextFileSync(join(dist, name), answeringBinary(name), { mode: 0o755 });
      Deno.writeTextFileSync(join(dist, ".entry"), `${name}\n`);
    },
    says: /^lessons-reinject-x86_64-unknown-linux-gnu answered args: lines:\d+$/,
    downloads: false,
  },
  {
    name: "binary present, not yet verified: the hook answers, names it in dist/.entry",
    arrange: (_root, dist) => {
      const name = assetName("x86_64-unknown-linux-gnu");
      Deno.writeTextFileSync(join(dist, name), answeringBinary(name), { mode: 0o755 });
    },
    says: /^lessons-reinject-x86_64-unknown-linux-gnu answered args: lines:\d+$/,
    downloads: false,
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
    name: "a download failed within the hour: says why and what to run",
    arrange: (_root, dist) => {
      Deno.mkdirSync(join(dist, ".install-lock"));
      Deno.writeTextFileSync(
        join(dist, "install.log"),
        "curl: (7) Failed to connect\nlessons-reinject install: cannot download x; nothing installed\n",
      );
    },
    says:
      /^lessons-reinject: the download of its binary failed \(cannot download x; nothing installed\); it is retried hourly in the background \(this notice comes once a day at most\), or run: sh .*\/hooks\/install; context refreshes start when it arrives\.$/,
    downloads: false,
  },
  {
    name: "downloads turned off, no deno: says refreshes are off and what to run",
    env: { LESSONS_REINJECT_NO_AUTO_INSTALL: "1" },
    says:
      /^lessons-reinject: no binary in .*\/dist, and background downloads are off: refreshes are off until you run: sh .*\/hooks\/install$/,
    downloads: false,
  },
  {
    name: "a checkout with deno: the source answers, as the hook (no arguments)",
    arrange: (root) => Deno.mkdirSync(join(root, ".git")),
    fakes: { deno: answeringBinary("deno") },
    says: /^deno answered args:run .* --allow-env \S+\/src\/main\.ts lines:\d+$/,
    downloads: false,
  },
];

Deno.test(
  { name: "hooks/run --startup-notice (SessionStart startup)", ignore: IGNORE },
  async (t) => {
    for (const c of NOTICES) {
      await t.step(c.name, async () => {
        const { dir, root, dist, launcher, env } = setup("Linux", "x86_64", c.fakes, [
          "curl",
          "sha256sum",
        ]);
        try {
          c.arrange?.(root, dist);
          const ran = await run(
            ["sh", launcher, "--startup-notice"],
            { ...env, LESSONS_REINJECT_RELEASE_URL: NOWHERE, ...c.env },
            STARTUP,
          );
          assert.equal(ran.code, 0, ran.stderr);
          assert.ok(ran.stdinTaken, "stdin drained");
          assert.equal(ran.stderr, "");
          const said = noticeOf(ran.stdout);
          if (c.says === undefined) assert.equal(said, undefined);
          else assert.match(said ?? "", c.says);
          if (said && !said.includes(" answered ")) {
            assert.ok(said.includes(root), "names the folder the hook really runs from");
          }
          if (c.downloads) {
            await waitFor(
              () => /nothing installed/.test(Deno.readTextFileSync(join(dist, "install.log"))),
              10_000,
              "the background download to fail",
            );
          } else if (c.name.startsWith("binary present")) {
            assert.equal(
              Deno.readTextFileSync(join(dist, ".entry")),
              `${assetName("x86_64-unknown-linux-gnu")}\n`,
            );
          }
          assert.equal(listing(dist).includes("install.log"), c.downloads || /failed/.test(c.name));
        } finally {
          Deno.removeSync(dir, { recursive: true });
        }
      });
    }
  },
);

Deno.test({
  name: "hooks/run --startup-notice: a folder name with quotes and backslashes stays valid JSON",
  ignore: IGNORE,
}, async () => {
  const { dir, env } = setup("Linux", "x86_64");
  try {
    const odd = join(dir, 'pl"ug\\in');
    Deno.renameSync(join(dir, "plugin"), odd);
    const ran = await run(
      ["sh", join(odd, "hooks", "run"), "--startup-notice"],
      { ...env, LESSONS_REINJECT_NO_AUTO_INSTALL: "1" },
      STARTUP,
    );
    assert.ok(noticeOf(ran.stdout)?.includes(`sh ${odd}/hooks/install`), ran.stdout);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/run with the real deno, from a checkout, passes the release smoke test",
  ignore: IGNORE,
}, async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-run-" });
  try {
    const root = pluginRoot(dir);
    Deno.mkdirSync(join(root, ".git"));
    for (const name of ["src", "deno.json", "deno.lock"]) {
      Deno.symlinkSync(join(ROOT, name), join(root, name));
    }
    assert.deepEqual(await smoke(["sh", join(root, "hooks", "run")]), []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
