/**
 * End-to-end: real Claude Code 2.1.328's `claude plugin validate` on this repository (the plugin
 * and its one-plugin marketplace) passes with nothing to report: the icon is one the plugin
 * directory takes. The hosts it reaches are not declared in plugin.json (releases before 2.1.76
 * refuse the `network` field): validate notes that, and it is no warning. Its one warning is
 * hooks.json's AfterTool entry, Gemini CLI's event, which Claude Code ignores at runtime.
 */
import { equal, match, ok } from "node:assert/strict";
import { ROOT, spawnWithStdin } from "../_helpers.ts";
import { claudeForSuite, foldersTest } from "./harness.ts";

const bin = await claudeForSuite();

foldersTest(bin, "claude plugin validate: passes, nothing to report, one warning", async (f) => {
  // No API key: validate works offline, and with one each command waits on the network.
  const env = { HOME: f.home, TMPDIR: f.home, DISABLE_AUTOUPDATER: "1" };
  const out = await spawnWithStdin(bin, ["plugin", "validate", ROOT], "", env, ROOT);
  const text = out.stdout + out.stderr;
  equal(out.code, 0, text);
  match(text, /✔ Validation passed/);
  match(text, /✔ These checks found nothing to report/);
  // hooks.json's one warning: Gemini CLI's AfterTool, which Claude Code ignores (gemini-facts.md).
  const rest = text.replace(/hooks\.AfterTool: unknown hook event; entry ignored at runtime/, "");
  match(text, /Found 1 warning/);
  ok(!/⚠ Found [02-9]|ICON_|hooks\.(?!AfterTool)\w+: /i.test(rest), text);
});
