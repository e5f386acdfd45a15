/**
 * What can be checked of the release here, where `deno compile` cannot run (it downloads its
 * runtime): one permission list everywhere, the compile commands, the checksum file, the
 * marketplace entry, the workflows, and the bundle passing the release's smoke test alone.
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { denoDir, HOOK_PERMISSIONS, ROOT } from "../_helpers.ts";
import { bundleArgs, compileArgs, runtimeDownloadFailure } from "../../scripts/compile.ts";
import {
  assetName,
  BINARY_PERMISSIONS,
  formatSums,
  parseSums,
  releaseBaseUrl,
  releaseProblems,
  repositoryUrl,
  targetFor,
  TARGETS,
  VERSION,
  writeSums,
} from "../../scripts/release_files.ts";
import { smoke } from "../../scripts/smoke.ts";
import { listing, OFFLINE, run, tempDir } from "./_support.ts";

const read = (path: string) => Deno.readTextFileSync(join(ROOT, path));
const denoJson = JSON.parse(read("deno.json"));
const allowFlags = (words: string[]) => words.filter((w) => w.startsWith("--allow-"));
/** scripts/compile.ts of the checkout at `root` with `args`. */
const compile = (args: string[], env: Record<string, string> = {}, root = ROOT) =>
  run([
    Deno.execPath(),
    "run",
    "--quiet",
    "--allow-all",
    join(root, "scripts", "compile.ts"),
    ...args,
  ], env);

Deno.test("one permission list: compile, hook task, hooks/run and the test helper", () => {
  const expected = ["--allow-read", "--allow-write", "--allow-env"];
  assert.deepEqual([...BINARY_PERMISSIONS], expected);
  assert.deepEqual([...HOOK_PERMISSIONS], expected);
  for (const target of TARGETS) {
    assert.deepEqual(allowFlags(compileArgs(target)), expected, `compile ${target}`);
  }
  const hook = denoJson.tasks.hook.command as string;
  assert.deepEqual(allowFlags(hook.split(/\s+/)), expected, "deno task hook");
  const launcher = read("hooks/run").replace(/\\\n/g, " ");
  const denoLines = launcher.split("\n").filter((l) => /\bdeno run\b/.test(l));
  // Every deno run of the program (the source, or its bundle) has the binary's permissions; the
  // one other runs the bundle's builder in the background, which runs `deno bundle`.
  const builds = denoLines.filter((l) => l.includes("scripts/source_bundle.ts"));
  assert.equal(builds.length, 1, builds.join("\n"));
  assert.deepEqual(allowFlags(builds[0]!.split(/\s+/)), [...expected, "--allow-run"]);
  const program = denoLines.filter((l) => !builds.includes(l));
  assert.ok(program.some((l) => l.includes("src/main.ts")), "hooks/run has a deno run fallback");
  assert.ok(program.some((l) => l.includes("hooks/source_bundle.js")), "and runs the bundle");
  for (const line of program) assert.deepEqual(allowFlags(line.split(/\s+/)), expected, line);
  // The bundle runs as the binary does: no config file.
  for (const line of program.filter((l) => l.includes("source_bundle.js"))) {
    assert.ok(line.includes("--no-config"), line);
  }
  assert.match(denoJson.tasks.compile, /scripts\/compile\.ts/);
});

Deno.test("compile.ts --dry-run: bundle, then one deno compile per target into dist/", async () => {
  const ran = await compile(["--dry-run"], { NO_COLOR: "1" });
  assert.equal(ran.code, 0, ran.stderr);
  const lines = ran.stdout.trim().split("\n");
  assert.equal(lines.length, 1 + TARGETS.length);
  assert.ok(lines[0]?.includes(bundleArgs().join(" ")));
  for (const [i, target] of TARGETS.entries()) {
    const words = (lines[i + 1] ?? "").split(" ");
    assert.deepEqual(allowFlags(words), [...BINARY_PERMISSIONS]);
    assert.ok(words.includes("--no-prompt"));
    assert.equal(words[words.indexOf("--target") + 1], target);
    assert.equal(words[words.indexOf("--output") + 1], join(ROOT, "dist", assetName(target)));
    assert.equal(words.at(-1), join(ROOT, "dist", "lessons-reinject.js"));
  }
  const one = await compile(["--dry-run", "--target", "aarch64-apple-darwin"]);
  assert.equal(one.stdout.trim().split("\n").length, 2);
  const bad = await compile(["--target", "sparc"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown target sparc/);
});

Deno.test("runtimeDownloadFailure() makes Deno's failed runtime download one sentence", () => {
  // What Deno 2.9.6 printed (in colour, into a pipe) where dl.deno.land cannot be resolved.
  const captured = read("tests/fixtures/deno-errors/compile-no-runtime-2.9.6.txt");
  assert.equal(
    runtimeDownloadFailure(captured, "x86_64-unknown-linux-gnu"),
    "deno compile could not download its runtime for x86_64-unknown-linux-gnu " +
      "(https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip: failed to " +
      "lookup address information: Name or service not known), so no binary was built; run it " +
      "where that host can be reached, or fetch that archive another way and set DENORT_BIN to " +
      "the denort inside it",
  );
  assert.equal(runtimeDownloadFailure("error: Module not found", "x86_64-apple-darwin"), undefined);
});

Deno.test("deno task compile without its runtime download: one sentence, no stack trace", async () => {
  using temp = tempDir("lessons-compile-");
  const dir = temp.dir;
  // esbuild in the shared cache, for the bundle step (a first `deno bundle` fetches it).
  const entry = join(dir, "one.ts");
  Deno.writeTextFileSync(entry, "export const one = 1;\n");
  const warm = await run([Deno.execPath(), "bundle", "--quiet", entry, "-o", `${entry}.js`], {});
  assert.equal(warm.code, 0, warm.stderr);
  // A checkout of its own (compile.ts writes into its dist/), and a Deno cache holding the
  // packages and esbuild but no runtime: whatever this machine has cached, compile must fetch.
  const root = join(dir, "checkout");
  cpSync(join(ROOT, "scripts"), join(root, "scripts"), { recursive: true });
  for (const name of ["src", ".claude-plugin"]) {
    Deno.symlinkSync(join(ROOT, name), join(root, name));
  }
  for (const name of ["deno.json", "deno.lock"]) {
    Deno.copyFileSync(join(ROOT, name), join(root, name));
  }
  const cache = join(dir, "deno-dir");
  Deno.mkdirSync(join(cache, "dl"), { recursive: true });
  Deno.symlinkSync(join(denoDir(), "npm"), join(cache, "npm"));
  for (const found of Deno.readDirSync(join(denoDir(), "dl"))) {
    if (found.name.startsWith("esbuild-")) {
      Deno.symlinkSync(join(denoDir(), "dl", found.name), join(cache, "dl", found.name));
    }
  }
  // Every request goes to a proxy that refuses it: the runtime cannot be downloaded.
  const ran = await compile(
    ["--target", "aarch64-apple-darwin"],
    { DENO_DIR: cache, ...OFFLINE },
    root,
  );
  assert.equal(ran.code, 1, ran.stderr);
  assert.match(
    ran.stderr,
    /^compile: deno compile could not download its runtime for aarch64-apple-darwin \(https:\/\/dl\.deno\.land\/release\/v[\d.]+\/denort-aarch64-apple-darwin\.zip: [^\n]+\), so no binary was built; run it where that host can be reached, or fetch that archive another way and set DENORT_BIN to the denort inside it\n$/,
  );
  assert.ok(!listing(join(root, "dist")).includes(assetName("aarch64-apple-darwin")));
});

Deno.test("asset names and platform mapping", () => {
  assert.deepEqual(TARGETS.map(assetName), [
    "lessons-reinject-x86_64-unknown-linux-gnu",
    "lessons-reinject-aarch64-unknown-linux-gnu",
    "lessons-reinject-x86_64-apple-darwin",
    "lessons-reinject-aarch64-apple-darwin",
    "lessons-reinject-x86_64-pc-windows-msvc.exe",
  ]);
  assert.equal(targetFor("linux", "aarch64"), "aarch64-unknown-linux-gnu");
  assert.equal(targetFor("darwin", "x86_64"), "x86_64-apple-darwin");
  assert.equal(targetFor("windows", "x86_64"), "x86_64-pc-windows-msvc");
  assert.equal(targetFor("freebsd", "x86_64"), undefined);
});

Deno.test("SHA256SUMS: written in sha256sum's format, parsed back, garbage refused", async () => {
  using temp = tempDir("lessons-sums-");
  const dir = temp.dir;
  await assert.rejects(() => writeSums(dir), /no lessons-reinject binaries/);
  Deno.writeTextFileSync(join(dir, assetName("x86_64-apple-darwin")), "abc");
  Deno.writeTextFileSync(join(dir, "unrelated.txt"), "x");
  const sums = await writeSums(dir);
  const text = Deno.readTextFileSync(join(dir, "SHA256SUMS"));
  assert.equal(
    text,
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  " +
      "lessons-reinject-x86_64-apple-darwin\n",
  );
  assert.deepEqual(parseSums(text), sums);
  assert.deepEqual(parseSums(formatSums(sums).replace("  ", " *")), sums);
  assert.throws(() => parseSums("not a checksum line\n"), SyntaxError);
});

Deno.test("marketplace.json lists this plugin from the repository root", () => {
  const marketplace = JSON.parse(read(".claude-plugin/marketplace.json"));
  const plugin = JSON.parse(read(".claude-plugin/plugin.json"));
  assert.match(marketplace.name, /^[a-z0-9][a-z0-9-]*$/);
  assert.equal(typeof marketplace.owner?.name, "string");
  const entries = marketplace.plugins.map((p: Record<string, unknown>) => [p.name, p.source]);
  assert.deepEqual(entries, [[plugin.name, "./"]]);
  assert.match(repositoryUrl(), /^https:\/\/github\.com\/[^/]+\/[^/]+$/);
  assert.equal(plugin.version, VERSION, "plugin.json and deno.json name the same version");
  const gemini = JSON.parse(read("gemini-extension.json"));
  assert.deepEqual([gemini.name, gemini.version], [plugin.name, VERSION], "gemini-extension.json");
});

Deno.test("plugin.json holds only fields every release takes; docs/install.md names the hosts; its icon is one the directory takes", () => {
  const plugin = JSON.parse(read(".claude-plugin/plugin.json"));
  // Releases before 2.1.76 refuse a manifest with a field they do not know, `network` among them,
  // and then load nothing of the plugin (scripts/measure/measure_plugin_events.ts, 2.0.76 to 2.1.75).
  const known = ["name", "version", "description", "author", "license", "keywords", "homepage"];
  assert.deepEqual(Object.keys(plugin).filter((key) => !known.includes(key)), []);
  // hooks/install: the release host, and where GitHub redirects a release asset (today's host
  // and the one it used before 2025); hooks/run's background `deno cache`: the npm registry.
  const reached = [
    new URL(releaseBaseUrl(() => undefined)).hostname,
    "release-assets.githubusercontent.com",
    "objects.githubusercontent.com",
    "registry.npmjs.org",
  ];
  const install = read("docs/install.md");
  for (const host of reached) {
    assert.ok(install.includes(`\`${host}\``), `docs/install.md names ${host}`);
  }
  assert.ok(read("hooks/install").includes("$repo"), "hooks/install downloads from the repository");
  assert.ok(read("hooks/run").includes("deno cache"), "hooks/run fills Deno's cache");
  // What `claude plugin validate` (2.1.328) accepts: a square PNG of 512 to 2048 px, under 2 MB,
  // at .claude-plugin/icon.png.
  const icon = Deno.readFileSync(join(ROOT, ".claude-plugin", "icon.png"));
  assert.deepEqual([...icon.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], "a PNG");
  const header = new DataView(icon.buffer, icon.byteOffset + 16, 8);
  const [width, height] = [header.getUint32(0), header.getUint32(4)];
  assert.equal(width, height, "square");
  assert.ok(width >= 512 && width <= 2048, `${width} px`);
  assert.ok(icon.length < 2 * 1024 * 1024);
});

Deno.test("release gate: tag v<version>, repository as marketplace.json names it", () => {
  const repo = repositoryUrl().replace("https://github.com/", "");
  assert.deepEqual(releaseProblems(`v${VERSION}`, repo), []);
  assert.equal(releaseProblems("v9.9.9", repo).length, 1);
  assert.equal(releaseProblems(`v${VERSION}`, "someone/else").length, 1);
  assert.equal(
    releaseBaseUrl(() => undefined),
    `${repositoryUrl()}/releases/download/v${VERSION}`,
  );
  assert.equal(releaseBaseUrl(() => "http://127.0.0.1:1/x/"), "http://127.0.0.1:1/x");
});

Deno.test("workflows: CI runs .ci/run on three systems; release builds and smoke-tests five", () => {
  const ci = read(".github/workflows/ci.yml");
  assert.match(ci, /run: bash \.ci\/run/);
  for (const os of ["ubuntu-latest", "macos-latest", "windows-latest"]) assert.ok(ci.includes(os));
  const release = read(".github/workflows/release.yml");
  assert.match(release, /tags: \["v\*"\]/);
  for (const target of TARGETS) assert.ok(release.includes(`target: ${target}`), target);
  assert.match(release, /scripts\/smoke\.ts/);
  assert.match(
    release,
    /smoke-plugin\/dist\/\.entry/,
    "the launcher's common path is smoke-tested",
  );
  assert.match(release, /compile --sums-only/);
  assert.match(release, /gh release create/);
  const pinned = [...`${ci}\n${release}`.matchAll(/DENO_VERSION: ([\d.]+)/g)].map((m) => m[1]);
  const ciRun = /DENO_VERSION=([\d.]+)/.exec(read(".ci/run"))?.[1];
  for (const version of pinned) assert.equal(version, ciRun, "workflows use .ci/run's Deno");
});

Deno.test("the bundle alone, run by deno, passes the release smoke test", async () => {
  using temp = tempDir("lessons-bundle-");
  const dir = temp.dir;
  const bundle = join(dir, "lessons-reinject.js");
  // The release build (deno bundle, then eager functions). run() passes on the proxy and CA
  // variables: a first `deno bundle` downloads esbuild.
  const built = await run(
    [Deno.execPath(), "run", "--allow-all", join(ROOT, "scripts", "bundle.ts"), bundle],
    {},
  );
  assert.equal(built.code, 0, built.stderr);
  // Only node: built-ins may be left to load: everything else is inlined in the one file.
  const imports = [...Deno.readTextFileSync(bundle).matchAll(/^import .* from "([^"]+)";$/gm)]
    .map((m) => m[1] ?? "");
  assert.deepEqual(imports.filter((s) => !s.startsWith("node:")), []);
  const problems = await smoke([
    Deno.execPath(),
    "run",
    "--quiet",
    "--no-prompt",
    "--no-config",
    ...BINARY_PERMISSIONS,
    bundle,
  ]);
  assert.deepEqual(problems, []);
});

Deno.test("the smoke test fails a hook that answers wrongly", async () => {
  const problems = await smoke(["sh", "-c", "cat >/dev/null; echo '{\"hookSpecificOutput\":{}}'"]);
  assert.ok(problems.some((p) => p.startsWith("31 %:")));
  assert.ok(problems.some((p) => p.startsWith("25 %: stdout not empty")));
});
