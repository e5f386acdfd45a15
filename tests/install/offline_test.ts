/**
 * Offline, and before the first release: hooks/run and doctor in a plugin folder whose release
 * host cannot be reached. The startup notice says a failed download once a day at most; a command
 * (doctor) never starts a download and never fetches packages; with dist/'s bundle and an empty
 * Deno cache the first firing call refreshes and doctor runs its checks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  downloadFailed,
  fakeRelease,
  FIRING,
  firingEnv,
  listing,
  notice,
  NOWHERE,
  plugin,
  posixTest,
  run,
  tempDir,
  textOf,
  waitFor,
} from "./_support.ts";

const test = posixTest("wc", "curl", "sha256sum");
const TARGET = "x86_64-unknown-linux-gnu";
const FAILED = "lessons-reinject install: cannot download https://example.invalid/rel/" +
  "SHA256SUMS; nothing installed";

/**
 * A deno that answers SessionStart as the hook would, and whose `deno cache` ends with `cache`'s
 * status (0: the packages arrive; 1: the registry cannot be reached).
 */
function fakeDeno(cacheStatus: number): string {
  return `#!/bin/sh\nif [ "$1" = cache ]; then echo "error: offline" >&2; exit ${cacheStatus}; fi\n` +
    `cat >/dev/null\nprintf '{"systemMessage":"deno answered %s"}\\n' "$1"\n`;
}

/** A plugin folder without a binary on a Linux x86_64 that has only `tools`. */
function setup(fakes: Record<string, string> = {}, tools: string[] = [], source = false) {
  const env = { LESSONS_REINJECT_RELEASE_URL: NOWHERE };
  return plugin({ tools: ["wc", "curl", "sha256sum", ...tools], fakes, env, source });
}

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

test("hooks/run --startup-notice says a failed download once a day at most", async (t) => {
  using at = setup();
  const { launcher, env } = at;
  const lock = join(at.dist, ".install-lock");
  const log = join(at.dist, "install.log");
  const told = join(at.dist, ".failure-told");
  const says =
    /^lessons-reinject: the download of its binary failed \((cannot download \S+; nothing installed)\); it is retried hourly in the background \(this notice comes once a day at most\), or run: sh \S+\/hooks\/install; context refreshes start when it arrives\.$/;
  await t.step("a failure within the hour: said once, then silence", async () => {
    Deno.mkdirSync(lock);
    Deno.writeTextFileSync(log, `curl: (6) Could not resolve host\n${FAILED}\n`);
    const first = await notice(launcher, env);
    assert.match(first, says);
    assert.ok(first.includes("https://example.invalid/rel/SHA256SUMS"), first);
    assert.ok(first.includes(at.root), "names the folder the hook really runs from");
    assert.equal(await notice(launcher, env), "", "the second session start is silent");
    assert.equal(await notice(launcher, env), "");
  });
  await t.step("a day later, said again", async () => {
    Deno.utimeSync(told, hoursAgo(25), hoursAgo(25));
    assert.match(await notice(launcher, env), says);
    assert.equal(await notice(launcher, env), "");
  });
  await t.step("an hour later the retry starts, silently within the day", async () => {
    Deno.utimeSync(lock, hoursAgo(2), hoursAgo(2));
    assert.equal(await notice(launcher, env), "");
    // The retry ran: its own failure (the unreachable release URL) replaced the old one.
    await waitFor(
      () => Deno.readTextFileSync(log).includes(`${NOWHERE}/SHA256SUMS`),
      "the retry to fail",
    );
  });
  await t.step("a retry started after a day: the failure is said, not 'downloading'", async () => {
    Deno.utimeSync(lock, hoursAgo(2), hoursAgo(2));
    Deno.utimeSync(told, hoursAgo(25), hoursAgo(25));
    const said = await notice(launcher, env);
    assert.match(said, says);
    assert.ok(said.includes(`${NOWHERE}/SHA256SUMS`), said);
  });
  await t.step("while a retry runs (its log has no end yet), the failure told stands", async () => {
    await downloadFailed(at.dist, "retry");
    Deno.writeTextFileSync(log, "curl: still trying\n");
    assert.equal(await notice(launcher, env), "");
    Deno.utimeSync(told, hoursAgo(25), hoursAgo(25));
    assert.match(await notice(launcher, env), says);
  });
});

test("hooks/run --startup-notice: with deno, a failure already told leaves the hook to answer", async () => {
  using at = setup({ deno: fakeDeno(0) });
  Deno.mkdirSync(join(at.dist, ".install-lock"));
  Deno.writeTextFileSync(join(at.dist, "install.log"), `${FAILED}\n`);
  assert.match(
    await notice(at.launcher, at.env),
    /failed .*; until it arrives, refreshes run from source with deno\.$/,
  );
  // The session starts as with a binary: the source (deno) answers, as the hook.
  assert.equal(await notice(at.launcher, at.env), "deno answered run");
});

test("hooks/run --startup-notice: when deno cannot fetch the packages either, says so", async () => {
  using at = setup({ deno: fakeDeno(1) });
  const { root, dist } = at;
  // The first session start: both jobs start; nothing is known yet.
  assert.match(await notice(at.launcher, at.env), /^lessons-reinject: downloading its binary/);
  const cacheLog = join(dist, "deno-cache.log");
  await waitFor(() => textOf(cacheLog).includes("deno cache: failed"), "deno cache");
  await downloadFailed(dist);
  assert.equal(
    await notice(at.launcher, at.env),
    `lessons-reinject: the download of its binary failed (cannot download ${NOWHERE}/` +
      "SHA256SUMS; nothing installed); it is retried hourly in the background (this notice " +
      `comes once a day at most), or run: sh ${root}/hooks/install; until then refreshes are ` +
      `off: deno could not fetch the source's packages either (log: ${cacheLog}); or warm its ` +
      `cache: deno cache --config ${root}/deno.json ${root}/src/main.ts.`,
  );
});

test("hooks/run: a command (doctor, --version) never starts a download; a hook call does", async () => {
  await using release = fakeRelease({});
  using at = setup();
  const withRelease = { ...at.env, LESSONS_REINJECT_RELEASE_URL: release.base };
  for (const command of [["doctor"], ["--version"], ["doctor", "--json"]]) {
    const ran = await run(["sh", at.launcher, ...command], withRelease);
    assert.deepEqual([ran.code, ran.stdout], [1, ""], command.join(" "));
    assert.match(
      ran.stderr,
      new RegExp(
        `^lessons-reinject: no binary for ${TARGET} in \\S+ and no deno on PATH; run \\S+/hooks/install\\n$`,
      ),
    );
  }
  assert.deepEqual(listing(at.dist), [], "no lock, no log");
  assert.deepEqual(release.requests, [], "nothing asked of the release host");
  // Control: the same folder, called as a hook, does download.
  await run(["sh", at.launcher], withRelease, new TextEncoder().encode("{}"));
  await waitFor(() => release.requests.length > 0, "the hook's download");
  await downloadFailed(at.dist, "the hook's download to end");
});

test(
  "a copy with dist/'s bundle, an empty Deno cache: the first firing call refreshes, doctor checks",
  async () => {
    using empty = tempDir("lessons-empty-deno-dir-");
    const bundle = [
      "hooks/source_bundle.js",
      "dist/lessons-reinject.js",
      "dist/lessons-reinject-cli.js",
    ];
    const extra = [...bundle, "hooks/hooks.json", ".claude-plugin/plugin.json"];
    using at = plugin({ tools: ["deno"], source: true, extra });
    Object.assign(at.env, firingEnv(at.dir, empty.dir));
    // A firing call reads the manifest: what it needs is in the bundle, not in Deno's cache
    // (tests/e2e/first_run_test.ts has the same at 31 % in real Claude Code).
    const first = await run(["sh", at.launcher], at.env, FIRING);
    const answer = JSON.parse(first.stdout || "{}").hookSpecificOutput?.additionalContext;
    assert.match(answer ?? first.stderr, /^\[lessons-reinject refresh /);
    const doctor = (await run(["sh", at.launcher, "doctor"], at.env)).stdout.replace(/\s+/g, " ");
    assert.match(doctor, / ok hooks wiring .* runs \S+\/dist\/lessons-reinject\.js with /);
    // Deno makes its npm folder, and leaves it empty: no package was fetched.
    assert.deepEqual(
      listing(join(empty.dir, "npm", "registry.npmjs.org")),
      [],
      "no package fetched",
    );
  },
  "deno",
);
