/** Re-arming the lessons-learned PreToolUse dedup: the setting, when it applies, what it removes. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import {
  dedupPaths,
  manifestSlugs,
  rearmDedup,
  rearmDue,
} from "../../../src/io/lessons_learned_dedup.ts";
import { hexDigest } from "../../../src/io/state_store.ts";
import { nodeTmpdir } from "../../../src/settings/other_programs.ts";

Deno.test("manifestSlugs() lists every lesson's slug, of any type, and none from junk", () => {
  const manifest = Deno.readTextFileSync(
    new URL("../../../src/data/sample_manifest.json", import.meta.url),
  );
  const slugs = manifestSlugs(manifest);
  assertEquals(slugs.length, 8);
  assert(slugs.includes("pytest-tty-hang-k1l2")); // a guard: the PreToolUse kind
  assertEquals(manifestSlugs("not json"), []);
  assertEquals(manifestSlugs("[]"), []);
  assertEquals(manifestSlugs('{"lessons":{"a":{"slug":1},"b":null,"c":{"slug":"ok"}}}'), ["ok"]);
});

Deno.test("rearmDue() only for a chosen threshold, only on the main thread", async (t) => {
  const cases: [number[], number[], boolean, boolean][] = [
    [[30], [52, 70], false, false],
    [[52], [52, 70], false, true],
    [[30, 52, 70], [70], false, true],
    [[52], [], false, false],
    [[52], [52], true, false],
    [[], [52], false, false],
  ];
  for (const [fired, at, subagent, due] of cases) {
    await t.step(`fired ${fired} at ${at} subagent ${subagent}`, () => {
      assertEquals(rearmDue(fired, at, subagent), due);
    });
  }
});

Deno.test("nodeTmpdir() picks the folder Node's os.tmpdir() would", async (t) => {
  const cases: [Record<string, string>, string, string][] = [
    [{}, "linux", "/tmp"],
    [{ TMPDIR: "/var/folders/ab/T/" }, "darwin", "/var/folders/ab/T"],
    [{ TMP: "/x", TEMP: "/y" }, "linux", "/x"],
    [{ TEMP: "/y" }, "linux", "/y"],
    [{ TMPDIR: "/" }, "linux", "/"],
    [{ TMPDIR: "", TMP: "/x" }, "linux", "/x"],
    [
      { TEMP: "C:\\Users\\me\\AppData\\Local\\Temp\\", TMP: "D:\\t" },
      "windows",
      "C:\\Users\\me\\AppData\\Local\\Temp",
    ],
    [{ TMP: "D:\\t" }, "windows", "D:\\t"],
    [{ TEMP: "C:\\" }, "windows", "C:\\"],
    [{ SystemRoot: "C:\\WINDOWS" }, "windows", "C:\\WINDOWS\\temp"],
  ];
  for (const [env, os, expected] of cases) {
    await t.step(`${os} ${JSON.stringify(env)}`, () => {
      assertEquals(nodeTmpdir((name) => env[name], os), expected);
    });
  }
});

Deno.test("dedupPaths() names the files as lessons-learned's dedup.mjs does", async () => {
  const digest = await hexDigest("9aa8e4c5-b43c-48e3-a748-e66b451a200a", 64);
  const paths = dedupPaths("/tmp", digest);
  assertEquals(paths.seenFile, join("/tmp", `lessons-${digest.slice(0, 16)}-seen.txt`));
  assertEquals(paths.claimDir, join("/tmp", `lessons-${digest.slice(0, 16)}-seen.d`));
});

function folderWith(files: Record<string, string>): string {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-rearm-" });
  for (const [name, text] of Object.entries(files)) {
    Deno.mkdirSync(join(dir, name, ".."), { recursive: true });
    Deno.writeTextFileSync(join(dir, name), text);
  }
  return dir;
}

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test("rearmDedup() forgets the manifest's lessons and nothing else", async () => {
  const dir = folderWith({
    "lessons-abc-seen.txt": "git-c-flag,pytest-tty",
    "lessons-abc-seen.d/git-c-flag": "",
    "lessons-abc-seen.d/pytest-tty": "",
    "lessons-abc-seen.d/not-in-manifest": "",
    "lessons-other-seen.txt": "x",
  });
  try {
    const paths = dedupPaths(dir, "abc");
    const result = await rearmDedup(paths, [
      "git-c-flag",
      "pytest-tty",
      "never-seen",
      "../lessons-other-seen.txt",
    ]);
    assertEquals(result, {
      forgotten: ["git-c-flag", "pytest-tty"],
      seenFileRemoved: true,
      problems: [],
    });
    assertEquals(names(dir), ["lessons-abc-seen.d", "lessons-other-seen.txt"]);
    assertEquals(names(paths.claimDir), ["not-in-manifest"]);
    // Nothing left to forget: a second call is quiet.
    assertEquals(await rearmDedup(paths, ["git-c-flag"]), {
      forgotten: [],
      seenFileRemoved: false,
      problems: [],
    });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("rearmDedup() with no dedup state yet does nothing and reports nothing", async () => {
  const dir = folderWith({});
  try {
    assertEquals(await rearmDedup(dedupPaths(dir, "abc"), ["a"]), {
      forgotten: [],
      seenFileRemoved: false,
      problems: [],
    });
    assertEquals(names(dir), []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "rearmDedup() never follows a claim folder that is a symlink",
  ignore: Deno.build.os === "windows", // symlinks need privileges there
  async fn() {
    const dir = folderWith({ "elsewhere/git-c-flag": "keep me" });
    try {
      const paths = dedupPaths(dir, "abc");
      Deno.symlinkSync(join(dir, "elsewhere"), paths.claimDir);
      const result = await rearmDedup(paths, ["git-c-flag"]);
      assertEquals(result.forgotten, []);
      assertEquals(result.problems, [`${paths.claimDir} is not a folder; left alone`]);
      assertEquals(Deno.readTextFileSync(join(dir, "elsewhere", "git-c-flag")), "keep me");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
