/** The user's own rules: marked sections of CLAUDE.md files and whole `reinject.md` files. */
import { dirname, isAbsolute, join, resolve } from "../core/path.ts";
import { markedSections, type MarkerProblem, markerText } from "../core/marked_rules.ts";
import type { RuleBlock } from "../core/render_rules.ts";
import type { Settings } from "../settings/resolve.ts";
import { failed } from "../core/result.ts";
import { readSmallFile, statOf } from "./files.ts";

/** Rules files larger than this are refused unread (a real one is a few KB). */
const MAX_RULES_FILE_BYTES = 1024 * 1024;

/** A CLAUDE.md (marked sections only) or a rules file (whole); `display`: relative, or `~/...`. */
interface RuleSourceSpec {
  kind: "claude-md" | "rules-file";
  scope: "configured" | "project" | "user";
  path: string;
  display: string;
}

/** What reading one source gave: its blocks, or why none; `markers`: its odd markers. */
export type LoadedRuleSource = ReturnType<typeof readRuleSource>;

/**
 * Every place to look, the more specific first (the budget's rank): configured rules files, the
 * project's `.claude/reinject.md`, then its `CLAUDE.local.md`, `CLAUDE.md`, `.claude/CLAUDE.md`
 * (`cwd`, then the git root), then the user's `reinject.md` and `CLAUDE.md`. Each path once. Pure.
 */
export function ruleSourceCandidates(
  settings:
    & Pick<Settings, "sources" | "rulesFiles" | "claudeDir" | "home">
    & Partial<Pick<Settings, "hostRules">>,
  cwd: string | undefined,
  gitRoot: string | undefined,
): RuleSourceSpec[] {
  const { sources, claudeDir: userDir, home } = settings;
  const specs: RuleSourceSpec[] = [];
  const add = (kind: RuleSourceSpec["kind"], scope: RuleSourceSpec["scope"], path: string) => {
    if (!sources.includes(kind) || specs.some((s) => s.path === path)) return;
    specs.push({ kind, scope, path, display: displayPath(path, gitRoot ?? cwd, home) });
  };
  const projectDirs = [cwd, gitRoot].filter((d) => d !== undefined && d !== "") as string[];
  for (const file of settings.rulesFiles) {
    add("rules-file", "configured", isAbsolute(file) || !cwd ? file : join(cwd, file));
  }
  for (const dir of projectDirs) add("rules-file", "project", join(dir, ".claude", "reinject.md"));
  // Another host reads its own files where Claude Code reads CLAUDE.md (io/hosts.ts).
  const host = settings.hostRules;
  const own = host?.files ?? ["CLAUDE.local.md", "CLAUDE.md", join(".claude", "CLAUDE.md")];
  for (const dir of projectDirs) {
    for (const file of own) add("claude-md", "project", join(dir, file));
  }
  if (userDir) add("rules-file", "user", join(userDir, "reinject.md"));
  const agentDir = host ? host.dir : userDir;
  for (const file of host?.files ?? ["CLAUDE.md"]) {
    if (agentDir) add("claude-md", "user", join(agentDir, file));
  }
  return specs;
}

/** `path` relative to the project root when inside it, `~/...` under the home folder. */
function displayPath(path: string, root: string | undefined, home: string | undefined): string {
  const inside = (base: string | undefined) => {
    if (!base || !path.startsWith(base)) return undefined;
    const rest = path.slice(base.length);
    return /^[\\/]/.test(rest) || /[\\/]$/.test(base) ? rest.replace(/^[\\/]+/, "") : undefined;
  };
  const fromHome = inside(home);
  return inside(root) ?? (fromHome !== undefined ? `~/${fromHome}` : path);
}

/** The nearest folder at or above `cwd` holding `.git` (a folder or a file), by stat only. */
export function findGitRoot(cwd: string | undefined): string | undefined {
  if (!cwd || !isAbsolute(cwd)) return undefined;
  for (let dir = resolve(cwd);; dir = dirname(dir)) {
    if (statOf(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Never throws. */
export function readRuleSource(spec: RuleSourceSpec) {
  const done = (
    status: "read" | "missing" | "skipped",
    notes: string[],
    bytes?: number,
    blocks: RuleBlock[] = [],
    markers: MarkerProblem[] = [],
  ) => ({ ...spec, status, notes, bytes, blocks, markers });
  const read = readSmallFile(spec.path, MAX_RULES_FILE_BYTES);
  if (failed(read, "missing")) {
    // Only a file the settings name is missed: the others are places to look.
    return done("missing", spec.scope === "configured" ? ["there is no such file"] : []);
  }
  if (failed(read)) return done("skipped", [read.error]);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(read);
  } catch {
    return done("skipped", ["it is not text (invalid UTF-8)"], read.length);
  }
  if (spec.kind === "rules-file") {
    const body = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").trim();
    const heading = `## Your rules from ${spec.display}`;
    if (body === "") return done("read", ["empty"], read.length);
    return done("read", [], read.length, [{ id: spec.display, heading, text: body }]);
  }
  const { sections, problems } = markedSections(text);
  const heading = `## Rules you marked in ${spec.display}`;
  const blocks = sections.map((s) => ({ id: `${spec.display}:${s.line}`, heading, text: s.text }));
  const notes = blocks.length === 0 && problems.length === 0 ? ["no marked sections"] : [];
  return done("read", notes, read.length, blocks, problems);
}

/** One line per source for a debug line or a report: `CLAUDE.md: 2 marked sections, 812 bytes`. */
export function describeSource(source: LoadedRuleSource): string {
  if (source.status === "missing") return `${source.display}: not found`;
  const size = source.bytes === undefined ? "" : `, ${source.bytes} bytes`;
  const all = [...source.notes, ...source.markers.map((m) => `line ${m.line}: ${markerText(m)}`)];
  const notes = all.length > 0 ? ` (${all.join("; ")})` : "";
  const n = source.blocks.length;
  const what = source.status === "skipped"
    ? "skipped"
    : source.kind === "rules-file"
    ? (n > 0 ? "whole file" : "nothing")
    : `${n} marked ${n === 1 ? "section" : "sections"}`;
  return `${source.display}: ${what}${size}${notes}`;
}

/**
 * Each source's problem, by full path and line: `/p/CLAUDE.md:7: section never closed; left out`,
 * `/p/.claude/reinject.md: it is not text (invalid UTF-8)`, a configured file that is missing.
 * Empty files and files without markers are no problem. `unread`: only what cost rules, each
 * named without the `; left out` (a refresh's account of what it left out).
 */
export function sourceProblems(sources: readonly LoadedRuleSource[], unread = false): string[] {
  return sources.flatMap((s) =>
    s.status !== "read"
      ? s.notes.map((note) => `${s.path}: ${note}`)
      : s.markers.filter((m) => !unread || m.leftOut).map((m) =>
        `${s.path}:${m.line}: ${unread ? m.problem : markerText(m)}`
      )
  );
}
