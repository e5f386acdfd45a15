/**
 * readLauncherState() and doctor's checkBinary(): what doctor says hooks/run will do in a plugin
 * folder, for each state the launcher and hooks/install leave behind and each state of Deno's
 * cache; denoNpmCache(): where Deno 2 keeps npm packages.
 */
import { deepStrictEqual as assertEquals, doesNotMatch, match } from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { checkBinary } from "../../../src/cli/doctor_setup.ts";
import { readLauncherState, SOURCE_PACKAGES } from "../../../src/io/launcher_state.ts";
import { denoNpmCache } from "../../../src/settings/other_programs.ts";
import { fail } from "../../../src/core/result.ts";
import { ROOT, sandbox } from "../../_helpers.ts";

const NAME = "lessons-reinject-x86_64-unknown-linux-gnu";
const DENO = "/usr/bin/deno";

interface Case {
  name: string;
  /** What the plugin folder holds besides deno.lock and an empty dist/ (default: nothing). */
  arrange?: (root: string, dist: string) => void;
  /** The deno on PATH (default: none). */
  deno?: string;
  /** Deno's cache: holding every package, lacking zod, or not known (default: holding all). */
  cache?: "warm" | "cold" | "unknown";
  /** The plugin folder has no deno.lock to read. */
  noLock?: boolean;
  status: "ok" | "warn" | "fail";
  says: RegExp;
  fix?: RegExp;
}

/** A Deno npm cache holding the plugin's packages, all or all but zod, under `dir`. */
function npmCache(dir: string, kind: "warm" | "cold"): string {
  const npm = join(dir, "npm", "registry.npmjs.org");
  for (
    const [name, version] of [["zod", "4.6.7"], ["jsonc-parser", "3.3.1"], ["acorn", "8.19.0"]]
  ) {
    if (kind === "cold" && name === "zod") continue;
    Deno.mkdirSync(join(npm, name!, version!), { recursive: true });
  }
  return npm;
}

const binary = (dist: string, mode = 0o755) =>
  Deno.writeTextFileSync(join(dist, NAME), "#!/bin/sh\n", { mode });
const failedLog = (dist: string) => {
  Deno.mkdirSync(join(dist, ".install-lock"));
  Deno.writeTextFileSync(
    join(dist, "install.log"),
    "curl: (6) Could not resolve host: github.com\n" +
      "lessons-reinject install: cannot download https://x/SHA256SUMS; nothing installed\n",
  );
};

const CASES: Case[] = [
  {
    name: "a checkout with deno: the source, whatever is in dist/",
    arrange: (root, dist) => {
      Deno.writeTextFileSync(join(root, ".git"), "gitdir: /elsewhere\n");
      binary(dist);
    },
    deno: DENO,
    status: "ok",
    says: /is a checkout: hooks\/run runs the source with \/usr\/bin\/deno/,
  },
  {
    name: "a verified binary: the fast path",
    arrange: (_root, dist) => {
      binary(dist);
      Deno.writeTextFileSync(join(dist, ".entry"), `${NAME}\n`);
    },
    status: "ok",
    says: /verified here: hooks\/run execs it without a fork/,
  },
  {
    name: "a binary not yet run by a hook",
    arrange: (_root, dist) => binary(dist),
    status: "ok",
    says: /the next hook call checks that it runs here/,
  },
  {
    name: "a binary without its execute bit",
    arrange: (_root, dist) => binary(dist, 0o644),
    deno: DENO,
    status: "fail",
    says: /is not executable/,
    fix: /^chmod \+x /,
  },
  {
    name: "a download under way, deno on PATH",
    arrange: (_root, dist) => Deno.mkdirSync(join(dist, ".install-lock")),
    deno: DENO,
    status: "warn",
    says:
      /a download is under way .*; meanwhile refreshes work: hooks\/run runs the source with \/usr\/bin\/deno from Deno's cache, which holds jsonc-parser@3\.3\.1, zod@4\.6\.7 \(slower than the binary\)$/,
    fix: /^wait for it, or put the binary in \S+\/dist: sh .*\/hooks\/install \(the release/,
  },
  {
    name: "a failed download, no deno: the hook does nothing",
    arrange: (_root, dist) => failedLog(dist),
    status: "fail",
    says:
      /its background download failed \(cannot download https:\/\/x\/SHA256SUMS; nothing installed\): the release host cannot be reached from here, or has no such release yet; .* no deno on PATH either, so the hook does nothing/,
    fix:
      /^put the binary in \S+: sh \S+\/hooks\/install \(the release; .*\), or copy one you built \(`deno task compile --target <target>` in a checkout.*\) to \S+\/dist\/lessons-reinject-x86_64-unknown-linux-gnu; or install Deno .* deno cache --config \S+\/deno\.json \S+\/src\/main\.ts$/,
  },
  {
    name: "a failed download, deno and a warm cache: a warning, refreshes work",
    arrange: (_root, dist) => failedLog(dist),
    deno: DENO,
    status: "warn",
    says: /download failed .*; meanwhile refreshes work: hooks\/run runs the source with/,
    fix: /^put the binary in /,
  },
  {
    name: "a failed download, deno and a cold cache: refreshes do nothing",
    arrange: (_root, dist) => failedLog(dist),
    deno: DENO,
    cache: "cold",
    status: "fail",
    says:
      /download failed .*; meanwhile hooks\/run runs the source with \/usr\/bin\/deno from Deno's cache only, which lacks zod@4\.6\.7 \(looked in \S+\/npm\/registry\.npmjs\.org\), so refreshes do nothing$/,
    fix:
      /^warm Deno's cache \(it needs the npm registry\): deno cache --config \S+\/deno\.json \S+\/src\/main\.ts; or put the binary in /,
  },
  {
    name: "a cache that cannot be checked: says so, and how to fill it",
    deno: DENO,
    cache: "unknown",
    status: "warn",
    says:
      /meanwhile hooks\/run runs the source with \/usr\/bin\/deno from Deno's cache \(slower than the binary\); whether that cache holds jsonc-parser@3\.3\.1, zod@4\.6\.7 was not checked \(packages come from another npm registry \(http:\/\/mirror\/\)\)$/,
    fix: /^make sure it does: deno cache --config \S+\/deno\.json \S+\/src\/main\.ts; or put /,
  },
  {
    name: "no deno.lock to read: which packages is not known, and it says why",
    deno: DENO,
    noLock: true,
    status: "warn",
    says:
      /whether that cache holds the source's packages was not checked \(\S+\/deno\.lock cannot be read\)$/,
  },
  {
    name: "nothing yet, deno on PATH",
    deno: DENO,
    status: "warn",
    says: /no hook call has started its download yet/,
  },
  {
    name: "nothing yet, no deno",
    status: "fail",
    says: /no hook call has started its download yet .*; no deno on PATH either/,
  },
];

Deno.test("checkBinary() for each state hooks/run and hooks/install leave", async (t) => {
  for (const c of CASES) {
    await t.step(c.name, async () => {
      const { dir: root } = sandbox();
      const dist = join(root, "dist");
      Deno.mkdirSync(dist);
      c.arrange?.(root, dist);
      if (!c.noLock) Deno.copyFileSync(join(ROOT, "deno.lock"), join(root, "deno.lock"));
      const cache = c.cache === "unknown"
        ? fail("packages come from another npm registry (http://mirror/)")
        : { dir: npmCache(join(root, "deno-dir"), c.cache ?? "warm") };
      const verdict = checkBinary(await readLauncherState(root, NAME, cache), c.deno);
      assertEquals(verdict.status, c.status, verdict.detail);
      match(verdict.detail, c.says);
      if (c.fix) match(verdict.fix ?? "", c.fix);
      if (c.status !== "ok") match(verdict.fix ?? "", /\S/);
      // Never a promise the launcher cannot keep: "runs the source" only with a warm cache.
      if (c.cache === "cold") doesNotMatch(verdict.detail, /refreshes work/);
    });
  }
});

Deno.test("denoNpmCache() finds Deno's npm cache as Deno 2 does, or says why it cannot", () => {
  const cases: [Record<string, string>, typeof Deno.build.os, string][] = [
    [{ HOME: "/home/me" }, "linux", "/home/me/.cache/deno/npm/registry.npmjs.org"],
    [{ HOME: "/home/me", XDG_CACHE_HOME: "/xdg" }, "linux", "/xdg/deno/npm/registry.npmjs.org"],
    [{ HOME: "/Users/me" }, "darwin", "/Users/me/Library/Caches/deno/npm/registry.npmjs.org"],
    [{ HOME: "/home/me", DENO_DIR: "/dd" }, "linux", "/dd/npm/registry.npmjs.org"],
    [
      { HOME: "/home/me", NPM_CONFIG_REGISTRY: "https://registry.npmjs.org" },
      "linux",
      "/home/me/.cache/deno/npm/registry.npmjs.org",
    ],
    [{ NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/", HOME: "/h" }, "linux", "another npm registry"],
    [{}, "linux", "cannot be told"],
  ];
  for (const [env, os, expected] of cases) {
    const found = denoNpmCache((name) => env[name], os);
    const said = "dir" in found ? found.dir : found.error;
    if (expected.startsWith("/")) assertEquals(said, expected, JSON.stringify(env));
    else match(said, new RegExp(expected));
  }
});

Deno.test("the cache check agrees with Deno: the warm cache the tests run from holds every package", async () => {
  // This process loaded zod and jsonc-parser from that cache: the check must find them there.
  const cache = denoNpmCache((name) => Deno.env.get(name), Deno.build.os);
  const state = await readLauncherState(ROOT, NAME, cache);
  assertEquals(state.missing, [], state.where);
});

Deno.test("SOURCE_PACKAGES are the npm packages src/ imports, and only those", () => {
  const imports: Record<string, string> = JSON.parse(
    Deno.readTextFileSync(join(ROOT, "deno.json")),
  ).imports;
  const used = new Set<string>();
  for (const file of readdirSync(join(ROOT, "src"), { recursive: true }) as string[]) {
    if (!file.endsWith(".ts")) continue;
    const text = Deno.readTextFileSync(join(ROOT, "src", file));
    for (const [, name] of text.matchAll(/from "([^".][^"]*)"/g)) {
      // npm:zod@4.6.7/mini is zod, npm:@xmldom/xmldom@0.9.12 is @xmldom/xmldom.
      const npm = /^npm:((?:@[^/]+\/)?[^@/]+)@/.exec(imports[name!] ?? "")?.[1];
      if (npm) used.add(npm);
    }
  }
  assertEquals([...used].sort(), [...SOURCE_PACKAGES].sort());
});
