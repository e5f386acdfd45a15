/**
 * Faults: a broken state folder, state file, transcript, manifest or stdin. Each case: exit 0, a
 * sane answer (nothing, or one refresh within the inline limit), nothing written outside the
 * state folder.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join, relative } from "node:path";
import { entries, SAMPLE_MANIFEST, writeTranscript } from "../_helpers.ts";
import {
  assertSane,
  changesOutside,
  type Crossing,
  crossing,
  headerThresholds,
  hook,
  insertLine,
  readJson,
  SESSION,
  sessionToken,
  skipped,
  snapshotTree,
  tmpfs,
} from "./_harden.ts";

const MB = 1024 * 1024;

/**
 * Fails when the scope holding it (`using`) ends if anything changed outside the state folder
 * (and `allowed`) since it was made: declared once a case's fault is planted.
 */
function unchangedOutside(c: Crossing, allowed: string[] = []): Disposable {
  const before = snapshotTree(c.box.dir);
  const inside = [relative(c.box.dir, c.box.stateDir), ...allowed];
  return {
    [Symbol.dispose]: () =>
      assertEquals(
        changesOutside(before, snapshotTree(c.box.dir), inside),
        [],
        "written outside the state folder",
      ),
  };
}

// ---------------------------------------------------------------- state folder

Deno.test("faults: a missing state folder (two levels deep) is created private and used", async () => {
  using c = await crossing();
  c.env.LESSONS_STATE_DIR = join(c.box.dir, "state", "deeper");
  using _unchanged = unchangedOutside(c);
  const run = await hook(c);
  assertEquals(headerThresholds(run.context), "30");
  assertEquals(Deno.statSync(join(c.box.dir, "state", "deeper")).mode! & 0o777, 0o700);
  assertEquals((await hook(c)).context, undefined, "fired twice");
});

Deno.test("faults: a state folder that cannot be created (its parent is a file) gives nothing", async () => {
  using c = await crossing();
  Deno.writeTextFileSync(join(c.box.dir, "blocker"), "a file");
  c.env.LESSONS_STATE_DIR = join(c.box.dir, "blocker", "state");
  using _unchanged = unchangedOutside(c);
  const run = await hook(c);
  assertEquals(run.stdout, "");
  assert(/cannot create state folder|Not a directory/.test(run.stderr), run.stderr);
});

Deno.test("faults: a read-only state folder gives nothing, never a refresh it cannot record", async () => {
  using c = await crossing();
  await using ro = await tmpfs(join(c.box.dir, "state"), "ro,mode=0700,size=64k");
  if (!ro) return skipped("cannot mount a read-only tmpfs here (needs root)");
  using _unchanged = unchangedOutside(c);
  for (let call = 1; call <= 3; call++) {
    const run = await hook(c);
    assertEquals(run.stdout, "", `call ${call}`);
    assert(/not writable|Read-only/i.test(run.stderr), run.stderr);
  }
});

Deno.test("faults: a full disk gives nothing and leaves no temp files behind", async () => {
  using c = await crossing();
  const full = join(c.box.dir, "state");
  await using mounted = await tmpfs(full, "mode=0700,size=64k");
  if (!mounted) return skipped("cannot mount a small tmpfs here (needs root)");
  // Fill it: the filler takes every block, so the state file's bytes cannot be written.
  const filler = await Deno.open(join(full, "filler"), { write: true, create: true });
  try {
    while (true) await filler.write(new Uint8Array(4096));
  } catch {
    // ENOSPC: full.
  } finally {
    filler.close();
  }
  using _unchanged = unchangedOutside(c);
  for (let call = 1; call <= 3; call++) {
    assertEquals((await hook(c)).stdout, "", `call ${call}: refreshed without recording it`);
  }
  const lock = /^lessons-[0-9a-f]{16}-reinject\.lock$/;
  const left = [...Deno.readDirSync(full)].map((e) => e.name).filter((name) => name !== "filler");
  assertEquals(left.filter((name) => !lock.test(name)), [], "left behind");
  // Room again: the threshold was never claimed, so it fires now, once.
  Deno.removeSync(join(full, "filler"));
  assertEquals(headerThresholds((await hook(c)).context), "30");
  assertEquals((await hook(c)).context, undefined);
});

// ---------------------------------------------------------------- state file

Deno.test("faults: a truncated state file counts as empty; the transcript's record prevents a re-fire", async () => {
  using c = await crossing(35);
  const token = await sessionToken(SESSION);
  insertLine(
    c.box.transcript,
    1,
    entries.refresh(`[lessons-reinject refresh 30 ref=${token}] x`, "toolu_prev"),
  );
  Deno.mkdirSync(c.box.stateDir, { mode: 0o700 });
  Deno.writeTextFileSync(c.statePath, '{"fired":[30],"toolCo');
  using _unchanged = unchangedOutside(c);
  assertEquals((await hook(c)).stdout, "");
});

Deno.test("faults: a truncated, garbage or huge state file counts as empty: one refresh, then a valid file", async (t) => {
  const variants: [string, (path: string) => void][] = [
    ["truncated", (p) => Deno.writeTextFileSync(p, '{"fired":[],"toolCount":3,"ep')],
    ["binary garbage", (p) => Deno.writeFileSync(p, crypto.getRandomValues(new Uint8Array(4096)))],
    ["valid JSON, wrong shape", (p) => Deno.writeTextFileSync(p, '{"fired":"all","toolCount":-1}')],
    ["huge (1 GiB, sparse)", (p) => {
      Deno.writeFileSync(p, new Uint8Array());
      Deno.truncateSync(p, 1024 * MB);
    }],
  ];
  for (const [name, plant] of variants) {
    await t.step(name, async () => {
      using c = await crossing();
      Deno.mkdirSync(c.box.stateDir, { mode: 0o700 });
      plant(c.statePath);
      using _unchanged = unchangedOutside(c);
      const run = await hook(c);
      assertEquals(headerThresholds(run.context), "30");
      assert(run.ms < 5000, `${run.ms} ms`);
      assertEquals(readJson(c.statePath)?.fired, [30]);
      assertEquals((await hook(c)).context, undefined, "fired twice");
    });
  }
});

Deno.test("faults: a directory at the state file's path gives nothing and is left alone", async () => {
  using c = await crossing();
  Deno.mkdirSync(join(c.statePath, "inside"), { recursive: true, mode: 0o700 });
  using _unchanged = unchangedOutside(c);
  for (let call = 1; call <= 2; call++) assertEquals((await hook(c)).stdout, "");
  assert(Deno.statSync(join(c.statePath, "inside")).isDirectory);
});

// ---------------------------------------------------------------- transcript

Deno.test("faults: a transcript cut mid-line", async (t) => {
  await t.step(
    "inside this call's entry: the wait ends, the last whole usage (25%) is used",
    async () => {
      using c = await crossing();
      const text = Deno.readTextFileSync(c.box.transcript).trimEnd();
      Deno.writeTextFileSync(c.box.transcript, text.slice(0, text.length - 200));
      using _unchanged = unchangedOutside(c);
      assertEquals((await hook(c)).stdout, "");
    },
  );
  await t.step("after this call's entry: it still fires", async () => {
    using c = await crossing();
    const next = JSON.stringify(entries.assistant(40_000, ["toolu_y"]));
    Deno.writeTextFileSync(c.box.transcript, next.slice(0, 300), { append: true });
    using _unchanged = unchangedOutside(c);
    assertEquals(headerThresholds((await hook(c)).context), "30");
  });
});

Deno.test("faults: a transcript replaced by a shorter file does not re-fire a threshold", async () => {
  using c = await crossing(45);
  using _unchanged = unchangedOutside(c, ["session.jsonl", "shorter.jsonl"]);
  assertEquals(headerThresholds((await hook(c)).context), "30");
  // A new, shorter file (rename over it), with a lower reading than the one that fired.
  const shorter = join(c.box.dir, "shorter.jsonl");
  writeTranscript(shorter, [entries.assistant(35_000, ["toolu_z"])]);
  Deno.renameSync(shorter, c.box.transcript);
  assertEquals((await hook(c, {}, { ...c.stdin, tool_use_id: "toolu_z" })).stdout, "");
  // Truncated in place to nothing: no reading, the call counter counts, no refresh.
  Deno.truncateSync(c.box.transcript, 0);
  assertEquals((await hook(c)).stdout, "");
});

Deno.test("faults: a transcript rewritten and truncated in place while 40 hooks read it", async () => {
  using c = await crossing();
  const whole = Deno.readFileSync(c.box.transcript);
  let stop = false;
  const churn = (async () => {
    for (let i = 0; !stop; i++) {
      if (i % 2) Deno.truncateSync(c.box.transcript, Math.floor(whole.length * Math.random()));
      else Deno.writeFileSync(c.box.transcript, whole);
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  try {
    using _unchanged = unchangedOutside(c, ["session.jsonl"]);
    let refreshes = 0;
    for (let batch = 0; batch < 4; batch++) {
      const runs = await Promise.all(Array.from({ length: 10 }, () => hook(c)));
      refreshes += runs.filter((r) => r.context !== undefined).length;
    }
    assert(refreshes <= 1, `${refreshes} refreshes of 30`);
  } finally {
    stop = true;
    await churn;
  }
});

Deno.test("faults: a transcript deleted while the hook waits for this call's entry", async () => {
  using c = await crossing();
  using _unchanged = unchangedOutside(c, ["session.jsonl"]);
  const never = { ...c.stdin, tool_use_id: "toolu_never" };
  const pending = hook(c, { LESSONS_REINJECT_WAIT_MS: "1500" }, never);
  await new Promise((r) => setTimeout(r, 400));
  Deno.removeSync(c.box.transcript);
  const run = await pending;
  assertEquals(run.stdout, "", "no reading: only the call counter (1 of 20)");
  assert(run.ms < 5000, `${run.ms} ms`);
});

Deno.test("faults: a single 50 MB line", async (t) => {
  await t.step("after this call's entry: skipped, the call fires within 5 s", async () => {
    using c = await crossing();
    const big = JSON.stringify(entries.toolResult("toolu_x", "x".repeat(50 * MB)));
    Deno.writeTextFileSync(c.box.transcript, big + "\n", { append: true });
    using _unchanged = unchangedOutside(c);
    const run = await hook(c);
    assertEquals(headerThresholds(run.context), "30");
    assert(run.ms < 5000, `${run.ms} ms`);
  });
  await t.step(
    "as this call's entry: skipped, the previous usage (25%) is used within 5 s",
    async () => {
      using c = await crossing();
      writeTranscript(c.box.transcript, [entries.assistant(25_000, ["toolu_prev"])]);
      const huge = entries.assistant(31_000, ["toolu_big"]);
      // deno-lint-ignore no-explicit-any
      (huge.message as any).content[0].input.command = "y".repeat(50 * MB);
      Deno.writeTextFileSync(c.box.transcript, JSON.stringify(huge) + "\n", { append: true });
      using _unchanged = unchangedOutside(c);
      const run = await hook(c, {}, { ...c.stdin, tool_use_id: "toolu_big" });
      assertEquals(run.stdout, "");
      assert(run.ms < 5000, `${run.ms} ms`);
    },
  );
});

Deno.test("faults: NUL bytes and invalid UTF-8 in the transcript", async (t) => {
  await t.step("a NUL-filled tail (a crash's preallocated blocks) and NUL lines", async () => {
    using c = await crossing();
    const f = await Deno.open(c.box.transcript, { append: true });
    await f.write(new Uint8Array(1000).fill(0));
    await f.write(new TextEncoder().encode("\n"));
    await f.write(new Uint8Array(MB));
    f.close();
    using _unchanged = unchangedOutside(c);
    assertEquals(headerThresholds((await hook(c)).context), "30");
  });
  await t.step(
    "invalid UTF-8 lines around an entry with invalid UTF-8 inside a string",
    async () => {
      using c = await crossing();
      const entry = JSON.stringify(entries.assistant(31_000, ["toolu_u"])).replace(
        '"echo hi"',
        '"echo \u0001MARK"',
      );
      const bytes = new TextEncoder().encode(entry);
      const mark = new TextEncoder().encode("\u0001MARK");
      const at = bytes.findIndex((_, i) => mark.every((m, j) => bytes[i + j] === m));
      const patched = new Uint8Array(bytes);
      patched.set([0xff, 0xfe, 0xc3, 0x28, 0xe2], at); // invalid sequences inside the JSON string
      const f = await Deno.open(c.box.transcript, { append: true });
      await f.write(new Uint8Array([0xff, 0xfe, 0xfd, 0x80, 0x0a, 0xc0, 0xaf, 0x7b, 0x0a]));
      await f.write(patched);
      await f.write(new Uint8Array([0x0a, 0xed, 0xa0, 0x80, 0x0a]));
      f.close();
      using _unchanged = unchangedOutside(c);
      const run = await hook(c, {}, { ...c.stdin, tool_use_id: "toolu_u" });
      assertEquals(headerThresholds(run.context), "30");
      assert(run.stderr.includes("tool_use match"), run.stderr);
    },
  );
});

Deno.test("faults: this call's tool_use_id never appears: the bounded wait ends, the latest usage is used", async (t) => {
  await t.step("default wait (250 ms)", async () => {
    using c = await crossing();
    delete c.env.LESSONS_REINJECT_WAIT_MS;
    using _unchanged = unchangedOutside(c);
    const run = await hook(c, {}, { ...c.stdin, tool_use_id: "toolu_never" });
    assertEquals(headerThresholds(run.context), "30");
    assert(run.stderr.includes("transcript latest"), run.stderr);
    assert(run.ms < 2000, `${run.ms} ms`);
  });
  await t.step("default wait, behind 60 MB of lines without usage", async () => {
    using c = await crossing();
    delete c.env.LESSONS_REINJECT_WAIT_MS;
    const line = JSON.stringify(entries.toolResult("toolu_x", "z".repeat(64 * 1024))) + "\n";
    const f = await Deno.open(c.box.transcript, { append: true });
    const block = new TextEncoder().encode(line.repeat(16));
    for (let written = 0; written < 60 * MB; written += block.length) await f.write(block);
    f.close();
    using _unchanged = unchangedOutside(c);
    const run = await hook(c, {}, { ...c.stdin, tool_use_id: "toolu_never" });
    assertSane(run);
    assert(run.ms < 5000, `${run.ms} ms`);
    // deno-lint-ignore no-console
    console.log(`  60 MB without usage, id never written: ${run.ms.toFixed(0)} ms`);
  });
});

// ---------------------------------------------------------------- manifest

Deno.test("faults: a missing or garbage manifest gives nothing and does not use up the threshold", async (t) => {
  const plants: [string, (path: string) => void][] = [
    ["missing", () => {}],
    ["garbage", (p) => Deno.writeFileSync(p, crypto.getRandomValues(new Uint8Array(2048)))],
    ["JSON of another shape", (p) => Deno.writeTextFileSync(p, '{"lessons":[1,2,3]}')],
  ];
  for (const [name, plant] of plants) {
    await t.step(name, async () => {
      using c = await crossing();
      const manifest = join(c.box.dir, "manifest.json");
      plant(manifest);
      using _unchanged = unchangedOutside(c);
      const run = await hook(c, { LESSONS_MANIFEST_PATH: manifest });
      assertEquals(run.stdout, "");
      assert(run.stderr.includes("manifest"), run.stderr);
      assertEquals(headerThresholds((await hook(c)).context), "30", "the threshold was used up");
    });
  }
});

/** The sample manifest as an object, and where `c` may hold a changed copy of it. */
function sampleIn(c: Crossing) {
  return {
    // deno-lint-ignore no-explicit-any
    sample: JSON.parse(Deno.readTextFileSync(SAMPLE_MANIFEST)) as Record<string, any>,
    manifest: join(c.box.dir, "manifest.json"),
  };
}

Deno.test("faults: a 50 MB manifest is refused quickly", async () => {
  using c = await crossing();
  const { sample, manifest } = sampleIn(c);
  sample.padding = "p".repeat(50 * MB);
  Deno.writeTextFileSync(manifest, JSON.stringify(sample));
  using _unchanged = unchangedOutside(c);
  const run = await hook(c, { LESSONS_MANIFEST_PATH: manifest });
  assertEquals(run.stdout, "");
  assert(run.stderr.includes("limit"), run.stderr);
  assert(run.ms < 5000, `${run.ms} ms`);
});

Deno.test("faults: lessons with wrong types are skipped and named under LESSONS_DEBUG; the valid ones inject", async () => {
  using c = await crossing();
  const { sample, manifest } = sampleIn(c);
  const ids = Object.keys(sample.lessons);
  const valid = ids.filter((id) => ["directive", "protocol"].includes(sample.lessons[id].type));
  const base = sample.lessons[valid[0]!];
  sample.lessons["bad-priority"] = { ...base, slug: "bad-priority", priority: "high" };
  sample.lessons["bad-message"] = { ...base, slug: "bad-message", message: 42 };
  sample.lessons["bad-tags"] = { ...base, slug: "bad-tags", tags: "git" };
  sample.lessons["not-an-object"] = "a string";
  Deno.writeTextFileSync(manifest, JSON.stringify(sample));
  using _unchanged = unchangedOutside(c);
  const run = await hook(c, { LESSONS_MANIFEST_PATH: manifest });
  assertEquals(headerThresholds(run.context), "30");
  for (const id of valid) {
    const lesson = sample.lessons[id];
    if (lesson.disabled || lesson.scope) continue;
    assert(run.context!.includes(lesson.message.trim().slice(0, 40)), `lesson ${id} missing`);
  }
  const bad = ["bad-priority", "bad-message", "bad-tags", "not-an-object"];
  assertEquals(bad.filter((id) => !run.stderr.includes(id)), [], `not named: ${run.stderr}`);
});

// ---------------------------------------------------------------- stdin

Deno.test("faults: stdin of 100 MB, binary garbage, deeply nested JSON", async (t) => {
  await t.step("100 MB: refused at the cap, quickly", async () => {
    using c = await crossing();
    const big = JSON.stringify({ ...c.stdin, tool_response: { stdout: "b".repeat(100 * MB) } });
    using _unchanged = unchangedOutside(c);
    const run = await hook(c, {}, big);
    assertEquals(run.stdout, "");
    assert(run.stderr.includes("16 MB"), run.stderr);
    assert(run.ms < 5000, `${run.ms} ms`);
  });
  await t.step("binary garbage", async () => {
    using c = await crossing();
    using _unchanged = unchangedOutside(c);
    for (let i = 0; i < 3; i++) {
      const run = await hook(c, {}, crypto.getRandomValues(new Uint8Array(65536)));
      assertEquals(run.stdout, "");
    }
  });
  await t.step("a million nested arrays", async () => {
    using c = await crossing();
    const nested = "[".repeat(1_000_000) + "]".repeat(1_000_000);
    using _unchanged = unchangedOutside(c);
    assertEquals((await hook(c, {}, nested)).stdout, "");
  });
  await t.step("a valid payload whose tool_input nests 100,000 deep still works", async () => {
    using c = await crossing();
    const nested = '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000);
    const text = JSON.stringify({ ...c.stdin, tool_input: "@@" }).replace('"@@"', nested);
    using _unchanged = unchangedOutside(c);
    assertEquals(headerThresholds((await hook(c, {}, text)).context), "30");
  });
});
