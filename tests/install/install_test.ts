/**
 * hooks/install (sh, with curl + sha256sum and with wget + shasum) and scripts/install.ts
 * (`deno task install`) against a fake release on loopback: a good file, a bad checksum, a
 * missing asset, a body that breaks off, a short Content-Length. Only a verified binary may land.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "../_helpers.ts";
import { assetName, releaseBaseUrl, type Target } from "../../scripts/release_files.ts";
import {
  type AssetMode,
  BASE_TOOLS,
  fakeRelease,
  fakeUname,
  has,
  listing,
  pluginRoot,
  POSIX,
  run,
  toolbox,
} from "./_support.ts";

const TARGET: Target = "x86_64-unknown-linux-gnu";
const ASSET = assetName(TARGET);
/** Large enough that a half body is a real truncation, not one read. */
const BINARY = new Uint8Array(300_000).map((_, i) => (i * 31 + 7) % 256);

interface Case {
  name: string;
  modes?: Record<string, AssetMode>;
  sums?: Record<string, string>;
  /** Words the failure message of hooks/install, and of install.ts, must contain. */
  says: { sh: RegExp; ts: RegExp };
}

const FAILURES: Case[] = [
  {
    name: "bad checksum",
    sums: { [ASSET]: "0".repeat(64) },
    says: { sh: /checksum mismatch/, ts: /checksum mismatch/ },
  },
  {
    name: "missing asset",
    modes: { [ASSET]: "missing" },
    says: { sh: /cannot download .*\/lessons-reinject-x86_64/, ts: /HTTP 404/ },
  },
  { name: "asset not in SHA256SUMS", sums: {}, says: { sh: /lists no/, ts: /lists no/ } },
  {
    name: "body breaks off",
    modes: { [ASSET]: "truncated-stream" },
    says: { sh: /cannot download .*interrupted/, ts: /broke off/ },
  },
  {
    name: "Content-Length longer than the body",
    modes: { [ASSET]: "short-content-length" },
    says: { sh: /cannot download .*interrupted/, ts: /broke off/ },
  },
];

const SH_VARIANTS = [
  { name: "curl + sha256sum", tools: ["curl", "sha256sum"] },
  { name: "wget + shasum", tools: ["wget", "shasum"] },
];

function shSetup(tools: string[]) {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-install-" });
  const root = pluginRoot(dir);
  const bin = toolbox(dir, [...BASE_TOOLS, ...tools], { uname: fakeUname("Linux", "x86_64") });
  return { dir, root, dist: join(root, "dist"), env: { PATH: bin, HOME: dir } };
}

for (const variant of SH_VARIANTS) {
  const ignore = !POSIX || !has(...BASE_TOOLS, ...variant.tools);
  Deno.test({
    name: `hooks/install (${variant.name}) installs a verified binary atomically`,
    ignore,
  }, async () => {
    const { dir, root, dist, env } = shSetup(variant.tools);
    const release = fakeRelease({ [ASSET]: BINARY });
    try {
      // hooks/run's record of an earlier failure it told the user about goes with it.
      Deno.mkdirSync(dist);
      Deno.writeTextFileSync(join(dist, ".failure-told"), "cannot download x\n");
      const ran = await run(["sh", join(root, "hooks", "install")], {
        ...env,
        LESSONS_REINJECT_RELEASE_URL: release.base,
      });
      assert.equal(ran.code, 0, ran.stderr);
      assert.match(ran.stdout, /installed .*lessons-reinject-x86_64-unknown-linux-gnu/);
      assert.deepEqual(listing(dist), [ASSET]);
      assert.deepEqual(Deno.readFileSync(join(dist, ASSET)), BINARY);
      assert.ok((Deno.statSync(join(dist, ASSET)).mode ?? 0) & 0o100, "executable");
    } finally {
      await release.close();
      Deno.removeSync(dir, { recursive: true });
    }
  });

  for (const failure of FAILURES) {
    Deno.test(
      { name: `hooks/install (${variant.name}): ${failure.name} leaves nothing`, ignore },
      async () => {
        const { dir, root, dist, env } = shSetup(variant.tools);
        const release = fakeRelease({ [ASSET]: BINARY }, {
          ...(failure.sums ? { sums: failure.sums } : {}),
          ...(failure.modes ? { modes: failure.modes } : {}),
        });
        try {
          const ran = await run(["sh", join(root, "hooks", "install")], {
            ...env,
            LESSONS_REINJECT_RELEASE_URL: release.base,
          });
          assert.notEqual(ran.code, 0);
          assert.match(ran.stderr, failure.says.sh);
          assert.match(ran.stderr, /nothing installed/);
          assert.deepEqual(listing(dist), [], "no binary and no temp file left in dist/");
        } finally {
          await release.close();
          Deno.removeSync(dir, { recursive: true });
        }
      },
    );
  }
}

Deno.test({
  name: "hooks/install keeps the old binary when the new one fails its checksum",
  ignore: !POSIX || !has(...BASE_TOOLS, "curl", "sha256sum"),
}, async () => {
  const { dir, root, dist, env } = shSetup(["curl", "sha256sum"]);
  Deno.mkdirSync(dist, { recursive: true });
  Deno.writeTextFileSync(join(dist, ASSET), "old binary");
  const release = fakeRelease({ [ASSET]: BINARY }, { sums: { [ASSET]: "f".repeat(64) } });
  try {
    const ran = await run(["sh", join(root, "hooks", "install")], {
      ...env,
      LESSONS_REINJECT_RELEASE_URL: release.base,
    });
    assert.notEqual(ran.code, 0);
    assert.deepEqual(listing(dist), [ASSET]);
    assert.equal(Deno.readTextFileSync(join(dist, ASSET)), "old binary");
  } finally {
    await release.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/install picks the .exe asset under Git Bash",
  ignore: !POSIX || !has(...BASE_TOOLS, "curl", "sha256sum"),
}, async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-install-" });
  const root = pluginRoot(dir);
  const exe = assetName("x86_64-pc-windows-msvc");
  const bin = toolbox(dir, [...BASE_TOOLS, "curl", "sha256sum"], {
    uname: fakeUname("MINGW64_NT-10.0-26100", "x86_64"),
  });
  const release = fakeRelease({ [exe]: BINARY });
  try {
    const ran = await run(["sh", join(root, "hooks", "install")], {
      PATH: bin,
      LESSONS_REINJECT_RELEASE_URL: release.base,
    });
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(listing(join(root, "dist")), [exe]);
  } finally {
    await release.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/install says so on an unsupported platform or without a downloader",
  ignore: !POSIX || !has(...BASE_TOOLS, "curl", "sha256sum"),
}, async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-install-" });
  try {
    const root = pluginRoot(dir);
    const freebsd = toolbox(join(dir, "a"), [...BASE_TOOLS, "curl", "sha256sum"], {
      uname: fakeUname("FreeBSD", "amd64"),
    });
    const bsd = await run(["sh", join(root, "hooks", "install")], { PATH: freebsd });
    assert.equal(bsd.code, 1);
    assert.match(bsd.stderr, /no release binary for the system FreeBSD/);

    const bare = toolbox(join(dir, "b"), [...BASE_TOOLS, "sha256sum"], {
      uname: fakeUname("Linux", "aarch64"),
    });
    const none = await run(["sh", join(root, "hooks", "install")], {
      PATH: bare,
      LESSONS_REINJECT_RELEASE_URL: "http://127.0.0.1:9/rel",
    });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /needs curl or wget .*lessons-reinject-aarch64-unknown-linux-gnu/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "hooks/install and install.ts default to the same release URL",
  ignore: !POSIX || !has(...BASE_TOOLS, "curl", "sha256sum"),
}, async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-install-" });
  try {
    const root = pluginRoot(dir, ["deno.json", ".claude-plugin/marketplace.json"]);
    const log = join(dir, "urls");
    // A curl that records the URL and fails: no network is touched.
    const bin = toolbox(dir, [...BASE_TOOLS, "sha256sum"], {
      uname: fakeUname("Darwin", "arm64"),
      curl: `#!/bin/sh\nfor a in "$@"; do last="$a"; done\necho "$last" >> '${log}'\nexit 22\n`,
    });
    const ran = await run(["sh", join(root, "hooks", "install")], { PATH: bin });
    assert.equal(ran.code, 1);
    const expected = releaseBaseUrl(() => undefined);
    assert.match(expected, /^https:\/\/github\.com\/[^/]+\/[^/]+\/releases\/download\/v\d/);
    assert.equal(Deno.readTextFileSync(log).trim(), `${expected}/SHA256SUMS`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

// --- scripts/install.ts: the same cases through `deno task install`'s script ---

const INSTALL_TS = join(ROOT, "scripts", "install.ts");

async function denoInstall(base: string, dist: string, target: string = TARGET) {
  return await run(
    [
      Deno.execPath(),
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-net",
      INSTALL_TS,
      "--target",
      target,
      "--dist",
      dist,
    ],
    {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      DENO_NO_UPDATE_CHECK: "1",
      LESSONS_REINJECT_RELEASE_URL: base,
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR") ?? "" } : {}),
    },
  );
}

Deno.test("install.ts installs a verified binary atomically", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-install-" });
  const release = fakeRelease({ [ASSET]: BINARY });
  try {
    const dist = join(dir, "dist");
    const ran = await denoInstall(release.base, dist);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /installed /);
    assert.deepEqual(listing(dist), [ASSET]);
    assert.deepEqual(Deno.readFileSync(join(dist, ASSET)), BINARY);
    if (POSIX) assert.ok((Deno.statSync(join(dist, ASSET)).mode ?? 0) & 0o100, "executable");
  } finally {
    await release.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

for (const failure of FAILURES) {
  Deno.test(`install.ts: ${failure.name} leaves nothing`, async () => {
    const dir = Deno.makeTempDirSync({ prefix: "lessons-install-" });
    const release = fakeRelease({ [ASSET]: BINARY }, {
      ...(failure.sums ? { sums: failure.sums } : {}),
      ...(failure.modes ? { modes: failure.modes } : {}),
    });
    try {
      const dist = join(dir, "dist");
      const ran = await denoInstall(release.base, dist);
      assert.equal(ran.code, 1, ran.stdout);
      assert.match(ran.stderr, failure.says.ts);
      assert.match(ran.stderr, /nothing installed/);
      assert.deepEqual(listing(dist), []);
    } finally {
      await release.close();
      Deno.removeSync(dir, { recursive: true });
    }
  });
}

Deno.test("install.ts refuses an unknown target", async () => {
  const ran = await denoInstall("http://127.0.0.1:9/rel", "/nonexistent", "riscv64-linux");
  assert.equal(ran.code, 1);
  assert.match(ran.stderr, /no release binary for riscv64-linux/);
});

Deno.test({
  name: "hooks/install names a binary that runs here in dist/.entry, for hooks/run's common path",
  ignore: !POSIX || !has(...BASE_TOOLS, "curl", "sha256sum"),
}, async () => {
  const { dir, root, dist, env } = shSetup(["curl", "sha256sum"]);
  const runs = new TextEncoder().encode(`#!/bin/sh\necho "lessons-reinject 0.1.0"\n`);
  const release = fakeRelease({ [ASSET]: runs });
  try {
    const ran = await run(["sh", join(root, "hooks", "install")], {
      ...env,
      LESSONS_REINJECT_RELEASE_URL: release.base,
    });
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(listing(dist), [".entry", ASSET]);
    assert.equal(Deno.readTextFileSync(join(dist, ".entry")), `${ASSET}\n`);
    // One that does not run here (the 300 KB of noise) is installed but not named.
    const noise = fakeRelease({ [ASSET]: BINARY });
    try {
      const again = await run(["sh", join(root, "hooks", "install")], {
        ...env,
        LESSONS_REINJECT_RELEASE_URL: noise.base,
      });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /does not run here/);
      assert.deepEqual(listing(dist), [ASSET]);
    } finally {
      await noise.close();
    }
  } finally {
    await release.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
