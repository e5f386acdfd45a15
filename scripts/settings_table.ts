/**
 * The configuration docs, generated from the settings table (src/settings/table.ts): the full
 * table in docs/configuration.md and the README's short list of the settings people change.
 * `deno run --allow-read --allow-write scripts/settings_table.ts` rewrites both between their
 * markers; a test checks that they are current.
 */
import { type SettingKey, SETTINGS, shownDefaultOf } from "../src/settings/table.ts";

/** Markers around the full table in docs/configuration.md. */
export const TABLE_MARKERS = ["<!-- settings-table:start -->", "<!-- settings-table:end -->"];
/** Markers around the short list in the README. */
export const LIST_MARKERS = ["<!-- settings-list:start -->", "<!-- settings-list:end -->"];

/** The settings people change, in the README's order; the rest are in docs/configuration.md. */
export const README_SETTINGS: readonly SettingKey[] = [
  "thresholds",
  "cadence",
  "contextWindow",
  "maxChars",
  "manifestPath",
  "debug",
];

/** The README's line limit, which the generated list keeps to. */
const LINE_WIDTH = 100;

/**
 * Environment variables the program reads but does not own (Claude Code's, the system's, the
 * launcher's): documented beside the settings, never in the config file.
 */
const ENVIRONMENT_INPUTS: readonly { env: string; doc: string }[] = [
  { env: "LESSONS_CONFIG", doc: "A JSONC config file to read instead of the default locations." },
  {
    env: "LESSONS_REINJECT_NO_AUTO_INSTALL",
    doc: "Set: `hooks/run` never starts `hooks/install` in the background.",
  },
  {
    env: "LESSONS_REINJECT_RELEASE_URL",
    doc: "Where `hooks/install` downloads the binary and `SHA256SUMS` from.",
  },
  {
    env: "CLAUDE_CODE_DISABLE_1M_CONTEXT",
    doc: "Claude Code's: `1` means a 200,000-token window for every model.",
  },
  {
    env: "CLAUDE_CODE_AUTO_COMPACT_WINDOW, CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
    doc: "Claude Code's: where it auto-compacts (with the `autoCompactWindow` settings in its " +
      "settings files); the percentage thresholds are measured against that point when it comes " +
      "early (`scaleForAutocompact`).",
  },
  {
    env: "DISABLE_AUTO_COMPACT, DISABLE_COMPACT",
    doc: "Claude Code's: no auto-compaction (also `autoCompactEnabled: false`); the thresholds " +
      "are then percentages of the whole window.",
  },
  {
    env:
      "ANTHROPIC_BASE_URL, CLAUDE_CODE_USE_BEDROCK, CLAUDE_CODE_USE_VERTEX, CLAUDE_CODE_USE_FOUNDRY",
    doc: "Claude Code's: a gateway or cloud provider. Claude Code 2.1.150 to 2.1.275 give " +
      "natively-1M models 1M only on the first-party API, so then the window is not certain.",
  },
  {
    env: "CLAUDE_CONFIG_DIR",
    doc: "Claude Code's folder (default `~/.claude`): projects, plugins, settings.",
  },
  {
    env: "CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA, CLAUDE_PROJECT_DIR",
    doc: "Set by Claude Code for a plugin's hooks: where the plugin, its data and the project are.",
  },
  {
    env: "NO_COLOR",
    doc: "Set to anything but empty: commands print no colour (no-color.org).",
  },
  {
    env: "COLUMNS",
    doc: "The terminal's width, when the terminal cannot tell: `demo` lays itself out to it.",
  },
];

/** The markdown table: one row per setting, then the variables read but not owned. */
export function renderSettingsTable(): string {
  const rows = [
    "| environment variable | config file key | default | accepted values | what it does |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const row of Object.values(SETTINGS)) {
    rows.push(
      `| \`${row.env}\` | \`${row.key}\` | ${shownDefaultOf(row)} | ${row.expected} | ${row.doc} |`,
    );
  }
  for (const input of ENVIRONMENT_INPUTS) {
    const names = input.env.split(", ").map((n) => `\`${n}\``).join(", ");
    rows.push(`| ${names} | | | | ${input.doc} |`);
  }
  return rows.join("\n");
}

/** The README's list: one bullet per setting people change, wrapped to the README's width. */
export function renderSettingsList(): string {
  return README_SETTINGS.map((key) => {
    const row = SETTINGS[key];
    // "see below" points at the manifest's search order, which is in docs/configuration.md.
    const shown = shownDefaultOf(row).includes("see below") ? row.absent : shownDefaultOf(row);
    return wrap(`- \`${row.env}\` (key \`${row.key}\`; default: ${shown}): ${row.doc}`);
  }).join("\n");
}

/** Words onto lines of at most LINE_WIDTH characters, continuation lines indented for a bullet. */
function wrap(text: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line === "" ? word : `${line} ${word}`;
    if (next.length > LINE_WIDTH && line.trim() !== "") {
      lines.push(line);
      line = `  ${word}`;
    } else line = next;
  }
  return [...lines, line].join("\n");
}

/** `text` with `body` between `markers` replaced, or undefined when a marker is missing. */
export function between(text: string, markers: string[], body: string): string | undefined {
  const [startMarker = "", endMarker = ""] = markers;
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  if (start < 0 || end < start) return undefined;
  return `${text.slice(0, start + startMarker.length)}\n${body}\n${text.slice(end)}`;
}

if (import.meta.main) {
  const targets = [
    { file: "../docs/configuration.md", markers: TABLE_MARKERS, body: renderSettingsTable() },
    { file: "../README.md", markers: LIST_MARKERS, body: renderSettingsList() },
  ];
  for (const { file, markers, body } of targets) {
    const path = new URL(file, import.meta.url);
    const updated = between(Deno.readTextFileSync(path), markers, body);
    if (updated === undefined) {
      // deno-lint-ignore no-console -- a script's error
      console.error(`${file.slice(3)} has no ${markers.join(" ... ")} markers`);
      Deno.exit(1);
    }
    Deno.writeTextFileSync(path, updated);
  }
}
