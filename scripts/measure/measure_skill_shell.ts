/**
 * A measurement, not a test: the `PreSkillShellCommand` hook event (new in 2.1.332). A project
 * skill with an inline shell command (`!` + a backquoted command) is invoked as `/probe`; a hook
 * on the event saves its payload, and user-level hooks on the tool-call events show whether the
 * inline command fires those too. Prints, per release, what fired, and each payload.
 *
 *     deno run -A scripts/measure/measure_skill_shell.ts 2.1.331 2.1.332
 */
import { installedClaude } from "../loopback/claude_cli.ts";
import { Scenario } from "../../tests/e2e/harness.ts";

const SKILL = [
  "---",
  "name: probe",
  "description: A probe skill",
  "allowed-tools: Bash(echo:*)",
  "---",
  "The probe says: !`echo skill-shell-probe`",
  "",
].join("\n");
const SAVE = 'cat > "$E2E_PAYLOADS/skill-$(date +%s%N).json"';

const print = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
for (const version of Deno.args) {
  const cli = await installedClaude(version);
  if ("problem" in cli) throw new Error(cli.problem);
  const s = await Scenario.start(cli.bin, {
    name: `skill-${version}`,
    manifest: null,
    pluginDirs: [],
    files: {
      "work/.claude/skills/probe/SKILL.md": SKILL,
      // Alone in its file: a release that does not know the event refuses the whole file.
      "work/.claude/settings.json": JSON.stringify({
        hooks: { PreSkillShellCommand: [{ hooks: [{ type: "command", command: SAVE }] }] },
      }),
      // Does the inline command also fire the tool-call events the hook listens to?
      "home/.claude/settings.json": JSON.stringify({
        hooks: Object.fromEntries(
          ["PreToolUse", "PostToolUse", "PostToolUseFailure"].map((event) => [
            event,
            [{ matcher: ".*", hooks: [{ type: "command", command: SAVE }] }],
          ]),
        ),
      }),
    },
    script: { main: [{ usage: { input_tokens: 1000 }, text: "Skill done." }] },
  });
  try {
    const turn = await s.turn("/probe");
    const ran = s.stub.requests.some((r) =>
      JSON.stringify(r.body.messages ?? "").includes("skill-shell-probe")
    );
    const payloads = await s.payloads();
    const events = payloads.map((p) => String(p.hook_event_name));
    print(JSON.stringify({ version, exit: turn.code, shellRan: ran, fired: events }));
    for (const p of payloads) print(JSON.stringify(p));
  } finally {
    await s.close();
  }
}
