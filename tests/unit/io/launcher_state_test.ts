/**
 * readLauncherState() and launcherVerdict(): what doctor says hooks/run will do in a plugin
 * folder, for each state the launcher and hooks/install leave behind.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { join } from "node:path";
import { launcherVerdict, readLauncherState } from "../../../src/io/launcher_state.ts";

const NAME = "lessons-reinject-x86_64-unknown-linux-gnu";
const DENO = "/usr/bin/deno";

interface Case {
  name: string;
  arrange: (root: string, dist: string) => void;
  deno: string | undefined;
  status: "ok" | "warn" | "fail";
  says: RegExp;
  fix?: RegExp;
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
    deno: undefined,
    status: "ok",
    says: /verified here: hooks\/run execs it without a fork/,
  },
  {
    name: "a binary not yet run by a hook",
    arrange: (_root, dist) => binary(dist),
    deno: undefined,
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
      /a download is under way .*; until it arrives, hooks\/run runs the source with \/usr\/bin\/deno/,
    fix: /^wait for it, or run sh .*\/hooks\/install/,
  },
  {
    name: "a failed download, no deno",
    arrange: (_root, dist) => failedLog(dist),
    deno: undefined,
    status: "fail",
    says:
      /the background download failed \(cannot download https:\/\/x\/SHA256SUMS; nothing installed\)/,
    fix: /^run sh .*\/hooks\/install to fetch the release binary now/,
  },
  {
    name: "a failed download, deno on PATH: a warning",
    arrange: (_root, dist) => failedLog(dist),
    deno: DENO,
    status: "warn",
    says: /download failed .* runs the source with/,
  },
  {
    name: "nothing yet, deno on PATH",
    arrange: () => {},
    deno: DENO,
    status: "warn",
    says: /the next hook call starts its download/,
  },
  {
    name: "nothing yet, no deno",
    arrange: () => {},
    deno: undefined,
    status: "fail",
    says: /no deno on PATH: the next hook call starts its download .* the hook does nothing/,
  },
];

Deno.test("launcherVerdict() for each state hooks/run and hooks/install leave", async (t) => {
  for (const c of CASES) {
    await t.step(c.name, async () => {
      const root = Deno.makeTempDirSync({ prefix: "lessons-launcher-state-" });
      try {
        const dist = join(root, "dist");
        Deno.mkdirSync(dist);
        c.arrange(root, dist);
        const verdict = launcherVerdict(await readLauncherState(root, NAME), c.deno);
        assertEquals(verdict.status, c.status, verdict.detail);
        match(verdict.detail, c.says);
        if (c.fix) match(verdict.fix ?? "", c.fix);
        if (c.status !== "ok") match(verdict.fix ?? "", /\S/);
      } finally {
        Deno.removeSync(root, { recursive: true });
      }
    });
  }
});
