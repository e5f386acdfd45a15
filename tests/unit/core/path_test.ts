/** src/core/path.ts gives what `node:path` gives, for the paths the hook builds. */
import * as node from "node:path";
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { basename, dirname, isAbsolute, join, resolve } from "../../../src/core/path.ts";

/** The empty path, then paths separated by spaces, then one the hook builds. */
const PATHS = [
  "",
  ..."/ a /a a/ /a/b/ /a//b a/b/c.jsonl ./a ../a /.. /a/../.. a/../.. . .. /a/./b a// /tmp/x/"
    .split(" "),
  "/home/dev/.claude/projects/-home-dev-project/c4145893.jsonl",
];

Deno.test({
  name: "join(), dirname(), basename(), isAbsolute() and resolve() match node:path",
  ignore: Deno.build.os === "windows",
  fn() {
    const q = JSON.stringify;
    for (const a of PATHS) {
      assertEquals(basename(a), node.basename(a), `basename(${q(a)})`);
      assertEquals(dirname(a), node.dirname(a), `dirname(${q(a)})`);
      assertEquals(isAbsolute(a), node.isAbsolute(a), `isAbsolute(${q(a)})`);
      assertEquals(resolve(a), node.resolve(a), `resolve(${q(a)})`);
      for (const b of PATHS) assertEquals(join(a, b), node.join(a, b), `join(${q(a)}, ${q(b)})`);
      assertEquals(join(a, "x", "..", "y.json"), node.join(a, "x", "..", "y.json"));
    }
    assertEquals(join(), node.join());
    assertEquals(resolve(), node.resolve());
  },
});

Deno.test({
  name: "join() builds the hook's state and subagent paths",
  ignore: Deno.build.os === "windows",
}, () => {
  assertEquals(join("/tmp", "lessons-reinject-0a1b2c3d"), "/tmp/lessons-reinject-0a1b2c3d");
  const main = "/home/dev/.claude/projects/-p/s.jsonl";
  assertEquals(
    join(dirname(main), basename(main).replace(/\.jsonl$/, ""), "subagents", "agent-x.jsonl"),
    "/home/dev/.claude/projects/-p/s/subagents/agent-x.jsonl",
  );
});
