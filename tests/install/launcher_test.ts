/**
 * hooks/run, the launcher Claude Code calls: with a fake `uname` for each platform name and fake
 * binaries in dist/, it must pick the right one; else `deno run` with the binary's permissions;
 * else exit 0 with one stderr line, stdin drained, and the binary fetched once in the background.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HOOK_PERMISSIONS, ROOT } from "../_helpers.ts";
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

/** POSIX only (Windows runs the launcher for real in the release workflow's smoke test). */
const IGNORE = !POSIX || !has(...BASE_TOOLS, "wc", "curl", "sha256sum");

const MB = new Uint8Array(1024 * 1024).fill(0x41);

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
  return { dir, root, dist, launcher: join(root, "hooks", "run"), env: { PATH: bin } };
}

function installAll(dist: string, exitCode = 0): void {
  for (const target of TARGETS) {
    const name = assetName(target);
    Deno.writeTextFileSync(join(dist, name), fakeBinary(name, exitCode), { mode: 0o755 });
  }
}

for (const [system, machine, target] of PLATFORMS) {
  Deno.test(
    { name: `hooks/run on ${system} ${machine} runs ${assetName(target)}`, ignore: IGNORE },
    async () => {
      const { dir, dist, launcher, env } = setup(system, machine);
      try {
        installAll(dist);
        const ran = await run(["sh", launcher], env, new TextEncoder().encode("{}"));
        assert.equal(ran.code, 0, ran.stderr);
        assert.equal(ran.stdout, `${assetName(target)} args: stdin:2\n`);
        assert.equal(ran.stderr, "");
        const withArgs = await run(["sh", launcher, "--version"], env);
        assert.equal(withArgs.stdout, `${assetName(target)} args:--version stdin:0\n`);
      } finally {
        Deno.removeSync(dir, { recursive: true });
      }
    },
  );
}

Deno.test({
  name: "hooks/run: the hook exits 0 even if the binary fails; a command keeps its status",
  ignore: IGNORE,
}, async () => {
  const { dir, dist, launcher, env } = setup("Linux", "x86_64");
  try {
    installAll(dist, 3);
    assert.equal((await run(["sh", launcher], env)).code, 0);
    assert.equal((await run(["sh", launcher, "--version"], env)).code, 3);
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
    const ran = await run(["sh", launcher], env, new TextEncoder().encode("payload"));
    assert.equal(ran.code, 0);
    assert.equal(ran.stdout, "deno stdin:7\n");
    assert.match(ran.stderr, /could not be executed \(status 127\)/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/run falls back to deno run with exactly the binary's permissions",
  ignore: IGNORE,
}, async () => {
  const deno = `#!/bin/sh\nprintf '%s\\n' "$@"\necho "update-check:$DENO_NO_UPDATE_CHECK"\n` +
    `echo "stdin:$(wc -c | tr -d ' ')"\n`;
  const { dir, root, dist, launcher, env } = setup("Darwin", "arm64", { deno });
  try {
    // A binary for another platform does not count.
    Deno.writeTextFileSync(join(dist, assetName("x86_64-apple-darwin")), "x", { mode: 0o755 });
    const ran = await run(["sh", launcher], env, new TextEncoder().encode("{}"));
    assert.equal(ran.code, 0);
    assert.deepEqual(ran.stdout.trim().split("\n"), [
      "run",
      "--quiet",
      "--no-prompt",
      ...HOOK_PERMISSIONS,
      join(root, "src", "main.ts"),
      "update-check:1",
      "stdin:2",
    ]);
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
  name: "hooks/run fetches the binary once in the background, then runs it",
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
    assert.deepEqual(listing(dist), ["install.log", name]);
    assert.match(Deno.readTextFileSync(join(dist, "install.log")), /installed /);
    const second = await run(["sh", launcher], env, new TextEncoder().encode("{}"));
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

Deno.test({
  name: "hooks/run with the real deno, from source, passes the release smoke test",
  ignore: IGNORE,
}, async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-run-" });
  try {
    const root = pluginRoot(dir);
    for (const name of ["src", "deno.json", "deno.lock"]) {
      Deno.symlinkSync(join(ROOT, name), join(root, name));
    }
    assert.deepEqual(await smoke(["sh", join(root, "hooks", "run")]), []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
