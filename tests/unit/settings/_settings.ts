/** What the settings tests share: an environment from a record, and a config file's outcome. */

/** An environment lookup over `vars`. */
export const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

/** A config file named by LESSONS_CONFIG that gave `settings` and no problems. */
export const withFile = (settings: Record<string, unknown>) => ({
  path: "/c.jsonc",
  via: "LESSONS_CONFIG" as const,
  settings,
  problems: [],
});
