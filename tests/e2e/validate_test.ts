/**
 * End-to-end: real Claude Code 2.1.328's `claude plugin validate` on this repository (the plugin
 * and its one-plugin marketplace) passes with nothing to report: the icon is one the plugin
 * directory takes. The hosts it reaches are not declared in plugin.json (releases before 2.1.76
 * refuse the `network` field): validate notes that, and it is no warning.
 */
import { equal, match, ok } from "node:assert/strict";
import { baseEnv, ROOT } from "../_helpers.ts";
import { claudeForSuite } from "./harness.ts";

const bin = await claudeForSuite();

Deno.test({
  name: "claude plugin validate: passes, nothing to report, no warning",
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
    ok(!/⚠|warning|ICON_/i.test(text), text);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
