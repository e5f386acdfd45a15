/** Re-arming the lessons-learned PreToolUse dedup: the setting, when it applies, what it removes. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { rearmAfterRefresh } from "../../../src/io/lessons_learned_dedup.ts";
import { nodeTmpdir } from "../../../src/settings/other_programs.ts";
import { folderWith } from "./_io.ts";

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

const SESSION = "9aa8e4c5-b43c-48e3-a748-e66b451a200a";
/** The files lessons-learned's hooks/lib/dedup.mjs keeps for SESSION (Node's crypto names them). */
const BASE = `lessons-${createHash("sha256").update(SESSION).digest("hex").slice(0, 16)}-seen`;
const SEEN = `${BASE}.txt`;
const CLAIMS = `${BASE}.d`;

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

/** A manifest file whose lessons have `slugs`, beside the dedup files. */
function manifestIn(dir: string, slugs: unknown[]): string {
  const lessons = Object.fromEntries(slugs.map((slug, i) => [`0${i}`, { slug, type: "guard" }]));
  folderWith({ "manifest/lesson-manifest.json": JSON.stringify({ lessons }) }, dir);
  return join(dir, "manifest", "lesson-manifest.json");
}

/** Re-arms after a main-thread refresh at 52, with re-arming chosen at 52 and 70. */
const rearm = (dir: string, manifest: string) =>
  rearmAfterRefresh([52], { sessionId: SESSION, subagent: false }, manifest, {
    rearmDedupAt: [52, 70],
    lessonsLearnedTmp: dir,
  });

// When it applies (a main-thread refresh naming a chosen threshold, of several at once too) is
// tests/integration/rearm_test.ts's, through the real entry point.
Deno.test("rearmAfterRefresh() forgets the manifest's lessons, of any type, and nothing else", () => {
  const dir = folderWith({
    [SEEN]: "git-c-flag,pytest-tty",
    [`${CLAIMS}/git-c-flag`]: "",
    [`${CLAIMS}/pytest-tty`]: "",
    [`${CLAIMS}/not-in-manifest`]: "",
    "lessons-other-seen.txt": "x",
  });
  const manifest = manifestIn(dir, [
    "git-c-flag",
    "pytest-tty",
    "never-seen",
    "../lessons-other-seen.txt",
    1,
  ]);
  assertEquals(rearm(dir, manifest), {
    forgotten: ["git-c-flag", "pytest-tty"],
    seenFileRemoved: true,
    problems: [],
  });
  assertEquals(names(dir), [CLAIMS, "lessons-other-seen.txt", "manifest"]);
  assertEquals(names(join(dir, CLAIMS)), ["not-in-manifest"]);
  // Nothing left to forget: a second call is quiet.
  assertEquals(rearm(dir, manifest), { forgotten: [], seenFileRemoved: false, problems: [] });
});

Deno.test("rearmAfterRefresh() with a manifest that is not JSON forgets only the seen file", () => {
  const dir = folderWith({ [SEEN]: "a", [`${CLAIMS}/a`]: "", "junk.json": "not json" });
  assertEquals(rearm(dir, join(dir, "junk.json")), {
    forgotten: [],
    seenFileRemoved: true,
    problems: [],
  });
  assertEquals(names(join(dir, CLAIMS)), ["a"]);
  const missing = rearm(dir, join(dir, "absent.json"));
  assertEquals(missing?.problems.length, 1);
  assertEquals(missing?.problems[0]?.startsWith(join(dir, "absent.json")), true);
});

Deno.test("rearmAfterRefresh() with no dedup state yet does nothing and reports nothing", () => {
  const dir = folderWith({});
  const manifest = manifestIn(dir, ["a"]);
  assertEquals(rearm(dir, manifest), { forgotten: [], seenFileRemoved: false, problems: [] });
  assertEquals(names(dir), ["manifest"]);
});

Deno.test({
  name: "rearmAfterRefresh() never follows a claim folder that is a symlink",
  ignore: Deno.build.os === "windows", // symlinks need privileges there
  fn() {
    const dir = folderWith({ "elsewhere/git-c-flag": "keep me" });
    Deno.symlinkSync(join(dir, "elsewhere"), join(dir, CLAIMS));
    const result = rearm(dir, manifestIn(dir, ["git-c-flag"]));
    assertEquals(result?.forgotten, []);
    assertEquals(result?.problems, [`${join(dir, CLAIMS)} is not a folder; left alone`]);
    assertEquals(Deno.readTextFileSync(join(dir, "elsewhere", "git-c-flag")), "keep me");
  },
});
