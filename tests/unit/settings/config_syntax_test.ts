/** A config file that is not valid JSONC is named once, with its line and column. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { loadSettings } from "../../../src/settings/load.ts";

Deno.test("a config syntax error names the file once: path:line:column, then why", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-config-" });
  try {
    const path = join(dir, "c.jsonc");
    for (
      const [text, expected] of [
        ['{ "thresholds": [30,\n  "x" }\n', `config ${path}:2:7: expected ',' (not valid JSONC)`],
        ["[30, 52]", `config ${path}:1:1: expected an object of settings ({ ... })`],
      ]
    ) {
      Deno.writeTextFileSync(path, text!);
      const { problems } = await loadSettings((name) => ({ LESSONS_CONFIG: path })[name]);
      assertEquals(problems, [`${expected}; using the defaults`]);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
