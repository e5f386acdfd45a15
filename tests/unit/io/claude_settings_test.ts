/**
 * Claude Code's settings files as 2.1.328 reads them for auto-compaction, and the hook's step
 * that reads them once per context (src/hook/compaction_settings.ts).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  compactSettingsFrom,
  compactSourceOf,
  readCompactSources,
  settingsFiles,
} from "../../../src/io/claude_settings.ts";
import { compactSettingsFor } from "../../../src/hook/compaction_settings.ts";
import { compactionPoint, mergeCompactSettings } from "../../../src/core/compaction_point.ts";

Deno.test("compactSourceOf() keeps what the settings schema keeps", () => {
  assertEquals(
    compactSourceOf("f", {
      autoCompactEnabled: false,
      autoCompactWindow: 300_000,
      modelSettings: {
        "claude-opus-5-5": { autoCompactWindow: 500_000, effortLevel: "high" },
        "claude-sonnet-4-6": { autoCompactWindow: "auto" },
        // Below the 100,000 minimum, not a number, or no window: dropped, as Claude Code does.
        "claude-haiku-4-5": { autoCompactWindow: 50_000 },
        "claude-opus-4-8": { autoCompactWindow: "400k" },
        "claude-opus-4-7": { effortLevel: "low" },
      },
      statusLine: { type: "command", command: "x" },
    }),
    {
      file: "f",
      enabled: false,
      window: 300_000,
      byModel: { "claude-opus-5-5": 500_000, "claude-sonnet-4-6": "auto" },
    },
  );
  assertEquals(compactSourceOf("f", { autoCompactWindow: 99_999 }), undefined);
  assertEquals(compactSourceOf("f", ["not", "settings"]), undefined);
  // A key naming Object.prototype's own members is never taken (JSON can write `__proto__`).
  const hostile = JSON.parse('{"modelSettings":{"__proto__":{"autoCompactWindow":200000}}}');
  assertEquals(compactSourceOf("f", hostile), undefined);
});

Deno.test("settingsFiles(): user, project, local, then managed, lowest precedence first", () => {
  const files = settingsFiles({ claudeDir: "/h/.claude", projectDir: "/p", os: "linux" });
  assertEquals(files.slice(0, 4), [
    "/h/.claude/settings.json",
    "/p/.claude/settings.json",
    "/p/.claude/settings.local.json",
    "/etc/claude-code/managed-settings.json",
  ]);
});

Deno.test("readCompactSources() reads what exists, and the local file wins over the project's", () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-cc-settings-" });
  try {
    const claude = join(dir, "home", ".claude");
    const project = join(dir, "project");
    Deno.mkdirSync(claude, { recursive: true });
    Deno.mkdirSync(join(project, ".claude"), { recursive: true });
    Deno.writeTextFileSync(join(claude, "settings.json"), '{"autoCompactWindow": 400000}');
    Deno.writeTextFileSync(join(project, ".claude", "settings.json"), "{ not json");
    Deno.writeTextFileSync(
      join(project, ".claude", "settings.local.json"),
      '{"autoCompactWindow": 150000}',
    );
    const sources = readCompactSources({ claudeDir: claude, projectDir: project, os: "linux" });
    assertEquals(sources.map((s) => s.window), [400_000, 150_000]);
    const point = compactionPoint({
      window: 1_000_000,
      env: {},
      files: mergeCompactSettings(sources),
    });
    ok(point.kind === "point");
    assertEquals(point.tokens, 117_000);
    ok(point.evidence.includes("settings.local.json"), point.evidence);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("compactSettingsFor(): read on a context's first call, then kept in its state", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-cc-settings-" });
  try {
    const claude = join(dir, ".claude");
    Deno.mkdirSync(claude);
    const settings = {
      compactEnv: {},
      scaleForAutocompact: true,
      claudeDir: claude,
      projectDir: undefined,
    };
    Deno.writeTextFileSync(join(claude, "settings.json"), '{"autoCompactWindow": 400000}');
    const first = await compactSettingsFor({ fired: [], toolCount: 0 }, settings, dir);
    assertEquals(first.files?.window?.value, 400_000);
    ok(first.remember !== undefined);
    // The file changes; a call of the same context keeps what its first call read.
    Deno.writeTextFileSync(join(claude, "settings.json"), '{"autoCompactWindow": 200000}');
    const kept = await compactSettingsFor(
      { fired: [], toolCount: 0, claudeSettings: first.remember },
      settings,
      dir,
    );
    assertEquals([kept.files?.window?.value, kept.remember], [400_000, undefined]);
    // A state without them (a new context, or one that was reset) reads them again.
    assertEquals(
      (await compactSettingsFor({ fired: [], toolCount: 0 }, settings, dir)).files?.window?.value,
      200_000,
    );
    // A kept copy that is not what this program wrote is read again, not trusted.
    assertEquals(
      (await compactSettingsFor(
        { fired: [], toolCount: 0, claudeSettings: '{"window":5}' },
        settings,
        dir,
      ))
        .files?.window?.value,
      200_000,
    );
    // Nothing is read when it cannot matter.
    assertEquals(
      await compactSettingsFor(
        { fired: [], toolCount: 0 },
        { ...settings, scaleForAutocompact: false },
        dir,
      ),
      { files: undefined },
    );
    assertEquals(
      await compactSettingsFor(
        { fired: [], toolCount: 0 },
        { ...settings, compactEnv: { off: "DISABLE_AUTO_COMPACT" } },
        dir,
      ),
      { files: undefined },
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("compactSettingsFrom() round-trips what the state keeps", () => {
  const merged = mergeCompactSettings([
    { file: "a", enabled: true, window: 300_000, byModel: { "claude-opus-5-5": "auto" } },
  ]);
  assertEquals(compactSettingsFrom(JSON.stringify(merged)), merged);
  assertEquals(compactSettingsFrom("not json"), undefined);
  assertEquals(compactSettingsFrom('{"byModel":{"m":{"value":5,"file":"a"}}}'), undefined);
});
