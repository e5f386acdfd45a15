/**
 * End-to-end: real Claude Code 2.1.328's `claude plugin validate` on this repository (the plugin
 * and its one-plugin marketplace) passes with nothing to report: the icon is one the plugin
 * directory takes. The hosts it reaches are not declared in plugin.json (releases before 2.1.76
 * refuse the `network` field): validate notes that, and it is no warning.
 */
import { equal, match, ok } from "node:assert/strict";
import { ROOT, spawnWithStdin } from "../_helpers.ts";
import { claudeForSuite, foldersTest } from "./harness.ts";

const bin = await claudeForSuite();

foldersTest(bin, "claude plugin validate: passes, nothing to report, no warning", async (f) => {
  // No API key: validate works offline, and with one each command waits on the network.
  const env = { HOME: f.home, TMPDIR: f.home, DISABLE_AUTOUPDATER: "1" };
  const out = await spawnWithStdin(bin, ["plugin", "validate", ROOT], "", env, ROOT);
  const text = out.stdout + out.stderr;
  equal(out.code, 0, text);
  match(text, /✔ Validation passed/);
  match(text, /✔ These checks found nothing to report/);
  ok(!/⚠|warning|ICON_/i.test(text), text);
});
