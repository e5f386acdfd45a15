/**
 * Claude Code's settings files as 2.1.328 reads them for auto-compaction, and the hook's step
 * that reads them once per context (src/io/claude_settings.ts `compactionSettings`).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  compactSettingsFor,
  compactSourceOf,
  settingsFiles,
} from "../../../src/io/claude_settings.ts";
import { compactionPoint } from "../../../src/core/compaction_point.ts";
import { folderWith } from "./_io.ts";

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

Deno.test("compactSettingsFor() reads what exists, and the local file wins over the project's", () => {
  const dir = folderWith({
    "home/.claude/settings.json": '{"autoCompactWindow": 400000}',
    "project/.claude/settings.json": "{ not json",
    "project/.claude/settings.local.json": '{"autoCompactWindow": 150000}',
  });
  const [claudeDir, projectDir] = [join(dir, "home", ".claude"), join(dir, "project")];
  const { files } = compactSettingsFor(undefined, { claudeDir, projectDir, os: "linux" });
  const point = compactionPoint({ window: 1_000_000, env: {}, files });
  ok(point.kind === "point");
  assertEquals(point.tokens, 117_000);
  ok(point.evidence.includes("settings.local.json"), point.evidence);
});

Deno.test("compactSettingsFor(): read once, kept in the state, read again when a file changes", () => {
  const dir = folderWith({ ".claude/settings.json": '{"autoCompactWindow": 400000}' });
  const places = { claudeDir: join(dir, ".claude"), projectDir: dir, os: "linux" };
  const file = join(dir, ".claude", "settings.json");
  const first = compactSettingsFor(undefined, places);
  assertEquals(first.files.window?.value, 400_000);
  ok(first.remember !== undefined);
  // Nothing changed: the kept copy is used, no file is read.
  const kept = compactSettingsFor(first.remember, places);
  assertEquals([kept.files.window?.value, kept.remember], [400_000, undefined]);
  // Claude Code re-reads its settings mid-session (2.1.329): a changed file is read again.
  Deno.writeTextFileSync(file, '{"autoCompactWindow": 3000000}');
  const changed = compactSettingsFor(first.remember, places);
  assertEquals(changed.files.window?.value, 3_000_000);
  ok(changed.remember !== undefined);
  // A file removed is a change too.
  Deno.removeSync(file);
  assertEquals(compactSettingsFor(changed.remember, places).files.window, undefined);
  // A kept copy that is not what this program wrote is read again, not trusted.
  Deno.writeTextFileSync(file, '{"autoCompactWindow": 200000}');
  assertEquals(compactSettingsFor('{"window":5}', places).files.window?.value, 200_000);
  assertEquals(compactSettingsFor("not json", places).files.window?.value, 200_000);
});
