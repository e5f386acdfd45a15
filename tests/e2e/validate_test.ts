/**
 * End-to-end: real Claude Code 2.1.328's `claude plugin validate` on this repository (the plugin
 * and its one-plugin marketplace) passes with nothing to report: the icon is one the plugin
 * directory takes, and every host the plugin reaches is declared in plugin.json.
 */
import { equal, match, ok } from "node:assert/strict";
import { baseEnv, ROOT } from "../_helpers.ts";
import { claudeForSuite } from "./harness.ts";

const bin = await claudeForSuite();

Deno.test({
  name: "claude plugin validate: passes, no warning, every host declared",
  ignore: bin === "",
}, async () => {
  const home = await Deno.makeTempDir({ prefix: "lessons-validate-" });
  try {
    const out = await new Deno.Command(bin, {
      args: ["plugin", "validate", ROOT],
      cwd: ROOT,
      // No API key: validate works offline, and with one each command waits on the network.
      env: baseEnv({ HOME: home, TMPDIR: home, DISABLE_AUTOUPDATER: "1" }),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    equal(out.code, 0, text);
    match(text, /✔ Validation passed/);
    match(text, /✔ These checks found nothing to report/);
    ok(!/⚠|warning|Hosts not declared|ICON_/i.test(text), text);
    match(text, /Hosts: .*github\.com \(declared\)/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
