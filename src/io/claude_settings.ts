/**
 * Reads what Claude Code's own settings files say about auto-compaction (`autoCompactEnabled`,
 * `autoCompactWindow`, `modelSettings.<model>.autoCompactWindow`), from the files 2.1.328 reads,
 * lowest precedence first: user, project, local, managed. The hook reads them once per context.
 */
import { fieldOf } from "../core/field.ts";
import { join } from "../core/path.ts";
import { MANAGED_SETTINGS_DIRS, MIN_AUTO_COMPACT_WINDOW } from "../core/claude_code.ts";
import type { CompactSettings, CompactSettingsSource } from "../core/compaction_point.ts";

/** Where the settings files are. */
export interface SettingsPlaces {
  /** Claude Code's folder (`CLAUDE_CONFIG_DIR`, else `~/.claude`). */
  claudeDir: string | undefined;
  /** The project's root (`CLAUDE_PROJECT_DIR`, else the payload's `cwd`). */
  projectDir: string | undefined;
  /** `Deno.build.os`: where the managed settings live. */
  os: string;
}

/** The managed-settings folder of 2.1.328, by platform (core/claude_code.ts). */
export function managedSettingsDir(os: string): string {
  return MANAGED_SETTINGS_DIRS[os] ?? MANAGED_SETTINGS_DIRS.linux ?? "/etc/claude-code";
}

/**
 * The settings files, lowest precedence first, as 2.1.328 orders its sources (`Gs`: user,
 * project, local, flag, policy; `--settings` is not visible to a hook). The managed folder's
 * `managed-settings.d/*.json` drop-ins follow its `managed-settings.json`, in name order.
 */
export function settingsFiles(places: SettingsPlaces): string[] {
  const files: string[] = [];
  if (places.claudeDir) files.push(join(places.claudeDir, "settings.json"));
  if (places.projectDir) {
    files.push(join(places.projectDir, ".claude", "settings.json"));
    files.push(join(places.projectDir, ".claude", "settings.local.json"));
  }
  const managed = managedSettingsDir(places.os);
  files.push(join(managed, "managed-settings.json"));
  try {
    const dropIns = [...Deno.readDirSync(join(managed, "managed-settings.d"))]
      .filter((e) => e.isFile && e.name.endsWith(".json") && !e.name.startsWith("."))
      .map((e) => e.name)
      .sort();
    for (const name of dropIns) files.push(join(managed, "managed-settings.d", name));
  } catch {
    // No drop-in folder: the usual case.
  }
  return files;
}

/** A window as the settings schema takes it: a whole number of at least 100,000, else dropped. */
function windowOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) &&
      value >= MIN_AUTO_COMPACT_WINDOW
    ? value
    : undefined;
}

/** What one parsed settings file says about auto-compaction, or undefined when nothing. */
export function compactSourceOf(file: string, json: unknown): CompactSettingsSource | undefined {
  const source: CompactSettingsSource = { file };
  const enabled = fieldOf(json, "autoCompactEnabled");
  if (typeof enabled === "boolean") source.enabled = enabled;
  const window = windowOf(fieldOf(json, "autoCompactWindow"));
  if (window !== undefined) source.window = window;
  const models = fieldOf(json, "modelSettings");
  const byModel: Record<string, number | "auto"> = {};
  if (typeof models === "object" && models !== null && !Array.isArray(models)) {
    for (const [model, entry] of Object.entries(models)) {
      if (Object.hasOwn(Object.prototype, model)) continue;
      const value = fieldOf(entry, "autoCompactWindow");
      const perModel = value === "auto" ? "auto" : windowOf(value);
      if (perModel !== undefined) byModel[model] = perModel;
    }
  }
  if (Object.keys(byModel).length > 0) source.byModel = byModel;
  const says = source.enabled !== undefined || source.window !== undefined ||
    source.byModel !== undefined;
  return says ? source : undefined;
}

/** Reads every settings file that exists and says something about auto-compaction. */
export function readCompactSources(places: SettingsPlaces): CompactSettingsSource[] {
  const sources: CompactSettingsSource[] = [];
  for (const file of settingsFiles(places)) {
    let json: unknown;
    try {
      json = JSON.parse(Deno.readTextFileSync(file));
    } catch {
      continue; // Missing or not JSON: Claude Code would not use it either.
    }
    const source = compactSourceOf(file, json);
    if (source) sources.push(source);
  }
  return sources;
}

/**
 * Settings kept in a state file (JSON written by this program) back as {@link CompactSettings},
 * or undefined when the text is not that shape (read them again).
 */
export function compactSettingsFrom(text: string): CompactSettings | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const entry = <T>(value: unknown, ok: (x: unknown) => T | undefined) => {
    const file = fieldOf(value, "file");
    const got = ok(fieldOf(value, "value"));
    return typeof file === "string" && got !== undefined ? { value: got, file } : undefined;
  };
  const settings: CompactSettings = { byModel: {} };
  const enabledField = fieldOf(json, "enabled");
  if (enabledField !== undefined) {
    const enabled = entry(enabledField, (x) => typeof x === "boolean" ? x : undefined);
    if (!enabled) return undefined;
    settings.enabled = enabled;
  }
  const windowField = fieldOf(json, "window");
  if (windowField !== undefined) {
    const window = entry(windowField, windowOf);
    if (!window) return undefined;
    settings.window = window;
  }
  const byModel = fieldOf(json, "byModel");
  if (typeof byModel !== "object" || byModel === null || Array.isArray(byModel)) return undefined;
  for (const [model, value] of Object.entries(byModel)) {
    const got = entry(value, (x) => x === "auto" ? "auto" as const : windowOf(x));
    if (!got || Object.hasOwn(Object.prototype, model)) return undefined;
    settings.byModel[model] = got;
  }
  return settings;
}
