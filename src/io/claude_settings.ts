/**
 * Reads what Claude Code's own settings files say about auto-compaction (`autoCompactEnabled`,
 * `autoCompactWindow`, `modelSettings.<model>.autoCompactWindow`), from the files 2.1.328 reads,
 * lowest precedence first: user, project, local, managed. Claude Code re-reads them mid-session
 * (2.1.329), so the hook keeps what it read with the files' sizes and times, and reads them
 * again when a `stat` shows a change: a steady call opens none of them.
 */
import { fieldOf } from "../schemas/guards.ts";
import { join } from "../core/path.ts";
import { MANAGED_SETTINGS_DIRS, MIN_AUTO_COMPACT_WINDOW } from "../core/claude_code.ts";
import {
  type CompactSettings,
  type CompactSettingsSource,
  mergeCompactSettings,
} from "../core/compaction_point.ts";

/** Where the settings files are. */
export interface SettingsPlaces {
  /** Claude Code's folder (`CLAUDE_CONFIG_DIR`, else `~/.claude`). */
  claudeDir: string | undefined;
  /** The project's root (`CLAUDE_PROJECT_DIR`, else the payload's `cwd`). */
  projectDir: string | undefined;
  /** `Deno.build.os`: where the managed settings live. */
  os: string;
}

/** The managed-settings folder, by platform. */
function managedSettingsDir(os: string): string {
  return MANAGED_SETTINGS_DIRS[os] ?? MANAGED_SETTINGS_DIRS.linux ?? "/etc/claude-code";
}

/**
 * The settings files, lowest precedence first, as 2.1.328 orders them: user, project, local,
 * managed (`--settings` is not visible to a hook); the managed folder's `managed-settings.d/*.json`
 * drop-ins follow its `managed-settings.json`, in name order.
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
function compactSettingsFrom(json: unknown): CompactSettings | undefined {
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

/**
 * A signature of the settings files: each one's size and modification time (and the drop-in
 * folder's), from `stat` alone. A changed signature means the files must be read again.
 */
function signatureOf(places: SettingsPlaces): string {
  const managed = managedSettingsDir(places.os);
  const paths = [
    ...(places.claudeDir ? [join(places.claudeDir, "settings.json")] : []),
    ...(places.projectDir
      ? [
        join(places.projectDir, ".claude", "settings.json"),
        join(places.projectDir, ".claude", "settings.local.json"),
      ]
      : []),
    join(managed, "managed-settings.json"),
    join(managed, "managed-settings.d"),
  ];
  return paths.map((path) => {
    try {
      const info = Deno.statSync(path);
      return `${info.size}:${info.mtime?.getTime() ?? 0}`;
    } catch {
      return "-";
    }
  }).join(",");
}

/**
 * The settings a context's decisions use: the ones kept in its state (`kept`, as written by this
 * function) while their files' signature holds, else the files read now; `remember` is set when
 * they were read, for the state to keep.
 */
export function compactSettingsFor(
  kept: string | undefined,
  places: SettingsPlaces,
): { files: CompactSettings; remember?: string } {
  const signature = signatureOf(places);
  if (kept !== undefined) {
    try {
      const json: unknown = JSON.parse(kept);
      const files = fieldOf(json, "sig") === signature
        ? compactSettingsFrom(fieldOf(json, "files"))
        : undefined;
      if (files) return { files };
    } catch {
      // Not what this function writes: read the files again.
    }
  }
  const files = mergeCompactSettings(readCompactSources(places));
  return { files, remember: JSON.stringify({ sig: signature, files }) };
}
