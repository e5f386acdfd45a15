/**
 * The README's configuration table, generated from the settings table (src/settings/table.ts):
 * `deno run --allow-read --allow-write scripts/settings_table.ts` rewrites it between the
 * `<!-- settings-table:start -->` and `<!-- settings-table:end -->` markers; a test checks that
 * it is current.
 */
import { ENVIRONMENT_INPUTS, SETTINGS } from "../src/settings/table.ts";

const START = "<!-- settings-table:start -->";
const END = "<!-- settings-table:end -->";

/** The markdown table: one row per setting, then the variables read but not owned. */
export function renderSettingsTable(): string {
  const rows = [
    "| environment variable | config file key | default | accepted values | what it does |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const row of Object.values(SETTINGS)) {
    rows.push(
      `| \`${row.env}\` | \`${row.key}\` | ${row.shownDefault} | ${row.expected} | ${row.doc} |`,
    );
  }
  for (const input of ENVIRONMENT_INPUTS) {
    const names = input.env.split(", ").map((n) => `\`${n}\``).join(", ");
    rows.push(`| ${names} | | | | ${input.doc} |`);
  }
  return rows.join("\n");
}

/** `text` with the table between the markers replaced, or undefined when a marker is missing. */
export function withSettingsTable(text: string): string | undefined {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return undefined;
  return `${text.slice(0, start + START.length)}\n${renderSettingsTable()}\n${text.slice(end)}`;
}

if (import.meta.main) {
  const path = new URL("../README.md", import.meta.url);
  const updated = withSettingsTable(Deno.readTextFileSync(path));
  if (updated === undefined) {
    // deno-lint-ignore no-console -- a script's error
    console.error(`README.md has no ${START} ... ${END} markers`);
    Deno.exit(1);
  }
  Deno.writeTextFileSync(path, updated);
}
