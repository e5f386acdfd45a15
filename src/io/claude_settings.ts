/**
 * What Claude Code's settings files say about auto-compaction. It re-reads them mid-session
 * (2.1.329), so the state keeps what was read with the files' sizes and times; a steady call
 * only `stat`s them.
 */
import { fieldOf, isObject } from "../schemas/guards.ts";
import type { Settings } from "../settings/resolve.ts";
import { join } from "../core/path.ts";
import { entriesOf, readJson, statOf } from "./files.ts";
import { MANAGED_SETTINGS_DIRS, MIN_AUTO_COMPACT_WINDOW } from "../core/claude_code.ts";
import {
  type CompactSettings,
  type CompactSettingsSource,
  mergeCompactSettings,
} from "../core/compaction_point.ts";

/** Claude Code's folder, the project's root, and `Deno.build.os` (where managed settings live). */
interface SettingsPlaces {
  claudeDir: string | undefined;
  projectDir: string | undefined;
  os: string;
}

/** The settings files but the managed drop-ins, and the drop-ins' folder. */
function placesOf(places: SettingsPlaces): { files: string[]; dropIns: string } {
  const { claudeDir, projectDir, os } = places;
  const managed = MANAGED_SETTINGS_DIRS[os] ?? MANAGED_SETTINGS_DIRS.linux ?? "/etc/claude-code";
  const files = claudeDir ? [join(claudeDir, "settings.json")] : [];
  if (projectDir) {
    files.push(join(projectDir, ".claude", "settings.json"));
    files.push(join(projectDir, ".claude", "settings.local.json"));
  }
  files.push(join(managed, "managed-settings.json"));
  return { files, dropIns: join(managed, "managed-settings.d") };
}

/**
 * The settings files, lowest precedence first as 2.1.328 orders them: user, project, local,
 * managed (a hook cannot see `--settings`), then `managed-settings.d/*.json` in name order.
 */
export function settingsFiles(places: SettingsPlaces): string[] {
  const { files, dropIns } = placesOf(places);
  const names = entriesOf(dropIns)
    .filter((e) => e.isFile && e.name.endsWith(".json") && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort();
  return [...files, ...names.map((name) => join(dropIns, name))];
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
  if (isObject(models)) {
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

/** `source` as a settings file would say it: kept in the state, read back as a file is. */
function asSettingsFile(source: CompactSettingsSource): unknown {
  const byModel = Object.entries(source.byModel ?? {});
  return {
    autoCompactEnabled: source.enabled,
    autoCompactWindow: source.window,
    modelSettings: Object.fromEntries(
      byModel.map(([m, window]) => [m, { autoCompactWindow: window }]),
    ),
  };
}

/** The settings files' sizes and modification times (and the drop-in folder's), from `stat`. */
function signatureOf(places: SettingsPlaces): string {
  const { files, dropIns } = placesOf(places);
  return [...files, dropIns].map((path) => {
    const info = statOf(path);
    return info ? `${info.size}:${info.mtime?.getTime() ?? 0}` : "-";
  }).join(",");
}

/**
 * The settings kept in the state (`kept`, as this function wrote it) while the files' signature
 * holds, else the files read now, with `remember` for the state to keep.
 */
export function compactSettingsFor(
  kept: string | undefined,
  places: SettingsPlaces,
): { files: CompactSettings; remember?: string } {
  const sig = signatureOf(places);
  try {
    const json: unknown = JSON.parse(kept ?? "null");
    const stored = fieldOf(json, "sources");
    if (fieldOf(json, "sig") === sig && Array.isArray(stored)) {
      const sources = stored.map((s) =>
        typeof s?.[0] === "string" ? compactSourceOf(s[0], s[1]) : undefined
      );
      if (!sources.includes(undefined)) {
        return { files: mergeCompactSettings(sources as CompactSettingsSource[]) };
      }
    }
  } catch {
    // Not what this function writes: read the files again.
  }
  // Every file that exists and says something; missing or not JSON, Claude Code would not use it.
  const sources = settingsFiles(places).flatMap((file) =>
    compactSourceOf(file, readJson(file)) ?? []
  );
  const remember = JSON.stringify({
    sig,
    sources: sources.map((s) => [s.file, asSettingsFile(s)]),
  });
  return { files: mergeCompactSettings(sources), remember };
}

/**
 * Claude Code's auto-compaction settings for a project at `cwd`, worked out here for the hook and
 * the commands alike: read afresh unless `kept` (what the state remembered) still holds; none when
 * they cannot change the span (scaling off, or auto-compaction off in the environment), unless
 * `always`: where Claude Code compacts matters to doctor whether or not the hook scales for it.
 */
export function compactionSettings(
  settings: Settings,
  cwd: string | undefined,
  options: { kept?: string | undefined; always?: boolean } = {},
): { files: CompactSettings | undefined; remember?: string } {
  const matters = settings.scaleForAutocompact && !settings.compactEnv.off;
  if (!matters && !options.always) return { files: undefined };
  const { claudeDir, projectDir = cwd } = settings;
  return compactSettingsFor(options.kept, { claudeDir, projectDir, os: Deno.build.os });
}
