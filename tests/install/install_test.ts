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
  has,
  listing,
  plugin,
  POSIX,
  type Ran,
  run,
  tempDir,
} from "./_support.ts";

const TARGET: Target = "x86_64-unknown-linux-gnu";
const ASSET = assetName(TARGET);
/** Large enough that a half body is a real truncation, not one read. */
const BINARY = new Uint8Array(300_000).map((_, i) => (i * 31 + 7) % 256);
const CURL = !POSIX || !has(...BASE_TOOLS, "curl", "sha256sum");

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

/** A plugin on Linux x86_64 (or `uname`) with `tools`, HOME in its own folder. */
function shPlugin(tools: string[], uname: [string, string] = ["Linux", "x86_64"]) {
  const made = plugin({ uname, tools });
  made.env.HOME = made.dir;
  return made;
}

/** hooks/install run by sh in `at`, from the release at `base` (else its default). */
const shInstall = (at: { root: string; env: Record<string, string> }, base?: string) =>
  run(["sh", join(at.root, "hooks", "install")], {
    ...at.env,
    ...(base ? { LESSONS_REINJECT_RELEASE_URL: base } : {}),
  });

const INSTALL_TS = join(ROOT, "scripts", "install.ts");

/** scripts/install.ts with the permissions of `deno task install`. */
function denoInstall(base: string, dist: string, target: string = TARGET): Promise<Ran> {
  const args = ["--allow-read", "--allow-write", "--allow-env", "--allow-net", INSTALL_TS];
  return run(
    [Deno.execPath(), "run", "--quiet", "--no-prompt", ...args, "--target", target, "--dist", dist],
    // run() passes on this machine's PATH, HOME and DENO_DIR, and no update check.
    { LESSONS_REINJECT_RELEASE_URL: base },
  );
}

/** One way to install: a fresh dist/, and the command that installs into it from a release. */
interface Installer {
  name: string;
  ignore: boolean;
  says: keyof Case["says"];
  open(): { dist: string; install(base: string): Promise<Ran> } & Disposable;
}

const INSTALLERS: Installer[] = [
  ...[
    { name: "curl + sha256sum", tools: ["curl", "sha256sum"] },
    { name: "wget + shasum", tools: ["wget", "shasum"] },
  ].map((variant): Installer => ({
    name: `hooks/install (${variant.name})`,
    ignore: !POSIX || !has(...BASE_TOOLS, ...variant.tools),
    says: "sh",
    open: () => {
      const at = shPlugin(variant.tools);
      return { ...at, install: (base) => shInstall(at, base) };
    },
  })),
  {
    name: "install.ts",
    ignore: false,
    says: "ts",
    open: () => {
      const temp = tempDir("lessons-install-");
      const dist = join(temp.dir, "dist");
      return { ...temp, dist, install: (base) => denoInstall(base, dist) };
    },
  },
];

for (const installer of INSTALLERS) {
  Deno.test({
    name: `${installer.name} installs a verified binary atomically`,
    ignore: installer.ignore,
  }, async () => {
    using at = installer.open();
    await using release = fakeRelease({ [ASSET]: BINARY });
    if (installer.says === "sh") {
      // hooks/run's record of an earlier failure it told the user about goes with it.
      Deno.writeTextFileSync(join(at.dist, ".failure-told"), "cannot download x\n");
    }
    const ran = await at.install(release.base);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /installed .*lessons-reinject-x86_64-unknown-linux-gnu/);
    assert.deepEqual(listing(at.dist), [ASSET]);
    assert.deepEqual(Deno.readFileSync(join(at.dist, ASSET)), BINARY);
    if (POSIX) assert.ok((Deno.statSync(join(at.dist, ASSET)).mode ?? 0) & 0o100, "executable");
  });

  for (const failure of FAILURES) {
    Deno.test({
      name: `${installer.name}: ${failure.name} leaves nothing`,
      ignore: installer.ignore,
    }, async () => {
      using at = installer.open();
      await using release = fakeRelease({ [ASSET]: BINARY }, {
        ...(failure.sums ? { sums: failure.sums } : {}),
        ...(failure.modes ? { modes: failure.modes } : {}),
      });
      const ran = await at.install(release.base);
      assert.equal(ran.code, 1, ran.stdout);
      assert.match(ran.stderr, failure.says[installer.says]);
      assert.match(ran.stderr, /nothing installed/);
      assert.deepEqual(listing(at.dist), [], "no binary and no temp file left in dist/");
    });
  }
}

Deno.test({
  name: "hooks/install keeps the old binary when the new one fails its checksum",
  ignore: CURL,
}, async () => {
  using at = shPlugin(["curl", "sha256sum"]);
  Deno.writeTextFileSync(join(at.dist, ASSET), "old binary");
  await using release = fakeRelease({ [ASSET]: BINARY }, { sums: { [ASSET]: "f".repeat(64) } });
  assert.notEqual((await shInstall(at, release.base)).code, 0);
  assert.deepEqual(listing(at.dist), [ASSET]);
  assert.equal(Deno.readTextFileSync(join(at.dist, ASSET)), "old binary");
});

Deno.test({ name: "hooks/install picks the .exe asset under Git Bash", ignore: CURL }, async () => {
  using at = shPlugin(["curl", "sha256sum"], ["MINGW64_NT-10.0-26100", "x86_64"]);
  const exe = assetName("x86_64-pc-windows-msvc");
  await using release = fakeRelease({ [exe]: BINARY });
  const ran = await shInstall(at, release.base);
  assert.equal(ran.code, 0, ran.stderr);
  assert.deepEqual(listing(at.dist), [exe]);
});

Deno.test({
  name: "hooks/install says so on an unsupported platform or without a downloader",
  ignore: CURL,
}, async () => {
  using freebsd = shPlugin(["curl", "sha256sum"], ["FreeBSD", "amd64"]);
  const bsd = await shInstall(freebsd);
  assert.equal(bsd.code, 1);
  assert.match(bsd.stderr, /no release binary for the system FreeBSD/);

  using bare = shPlugin(["sha256sum"], ["Linux", "aarch64"]);
  const none = await shInstall(bare, "http://127.0.0.1:9/rel");
  assert.equal(none.code, 1);
  assert.match(none.stderr, /needs curl or wget .*lessons-reinject-aarch64-unknown-linux-gnu/);
});

Deno.test({
  name: "hooks/install and install.ts default to the same release URL",
  ignore: CURL,
}, async () => {
  using temp = tempDir("lessons-install-");
  const log = join(temp.dir, "urls");
  // A curl that records the URL and fails: no network is touched.
  using at = plugin({
    uname: ["Darwin", "arm64"],
    tools: ["sha256sum"],
    fakes: {
      curl: `#!/bin/sh\nfor a in "$@"; do last="$a"; done\necho "$last" >> '${log}'\nexit 22\n`,
    },
    extra: ["deno.json", ".claude-plugin/marketplace.json"],
  });
  assert.equal((await shInstall(at)).code, 1);
  const expected = releaseBaseUrl(() => undefined);
  assert.match(expected, /^https:\/\/github\.com\/[^/]+\/[^/]+\/releases\/download\/v\d/);
  assert.equal(Deno.readTextFileSync(log).trim(), `${expected}/SHA256SUMS`);
});

Deno.test("install.ts refuses an unknown target", async () => {
  const ran = await denoInstall("http://127.0.0.1:9/rel", "/nonexistent", "riscv64-linux");
  assert.equal(ran.code, 1);
  assert.match(ran.stderr, /no release binary for riscv64-linux/);
});

Deno.test({
  name: "hooks/install names a binary that runs here in dist/.entry, for hooks/run's common path",
  ignore: CURL,
}, async () => {
  using at = shPlugin(["curl", "sha256sum"]);
  const runs = new TextEncoder().encode(`#!/bin/sh\necho "lessons-reinject 0.1.0"\n`);
  await using release = fakeRelease({ [ASSET]: runs });
  const ran = await shInstall(at, release.base);
  assert.equal(ran.code, 0, ran.stderr);
  assert.deepEqual(listing(at.dist), [".entry", ASSET]);
  assert.equal(Deno.readTextFileSync(join(at.dist, ".entry")), `${ASSET}\n`);
  // One that does not run here (the 300 KB of noise) is installed but not named.
  await using noise = fakeRelease({ [ASSET]: BINARY });
  const again = await shInstall(at, noise.base);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /does not run here/);
  assert.deepEqual(listing(at.dist), [ASSET]);
});
