/**
 * Finds and reads the user's own rules: sections marked in CLAUDE.md files and whole rules files
 * (`reinject.md`), in the project (the payload's `cwd` and its git root) and in the user's Claude
 * folder. Only a firing call gets here. A missing or unreadable file is skipped with its reason.
 */
import { dirname, isAbsolute, join, resolve } from "../core/path.ts";
import { markedSections } from "../core/marked_rules.ts";
import type { RuleBlock } from "../core/render_rules.ts";
import type { SourceName } from "../core/rule_source_names.ts";
import { messageOf } from "../core/errors.ts";

/** Rules files larger than this are refused rather than read (a real one is a few KB). */
export const MAX_RULES_FILE_BYTES = 1024 * 1024;

/** A place rules may be, in rank order (see {@link ruleSourceCandidates}). */
export interface RuleSourceSpec {
  /** `claude-md`: only marked sections are read; `rules-file`: the whole file is. */
  kind: "claude-md" | "rules-file";
  scope: "configured" | "project" | "user";
  path: string;
  /** The path as shown to the model and the user: relative to the project, or `~/...`. */
  display: string;
}

/** What reading one source gave. */
export interface LoadedRuleSource extends RuleSourceSpec {
  status: "read" | "missing" | "skipped";
  /** Why it was skipped, or what was odd in it (unclosed markers ...). */
  notes: string[];
  /** File size in bytes, when it exists. */
  bytes: number | undefined;
  /** Its rule units: one per marked section, or the whole file. */
  blocks: RuleBlock[];
}

export interface CandidateInput {
  cwd: string | undefined;
  /** The git root above `cwd`, when there is one. */
  gitRoot: string | undefined;
  /** The user's Claude folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
  userDir: string | undefined;
  home: string | undefined;
  /** Sources that are on. */
  sources: ReadonlySet<SourceName>;
  /** Extra rules files named in the settings, read whole. */
  extraFiles: readonly string[];
}

/**
 * Every place to look, in rank order (the order the budget honours, most important first):
 * 1. rules files named in the settings;
 * 2. the project's `.claude/reinject.md` (the `cwd`, then the git root);
 * 3. marked sections of the project's `CLAUDE.local.md`, `CLAUDE.md`, `.claude/CLAUDE.md`
 *    (the `cwd`, then the git root);
 * 4. the user's `reinject.md`, then the marked sections of the user's `CLAUDE.md`.
 * The more specific a source, the higher it ranks. Duplicate paths are kept once, at their first
 * place. Pure.
 */
export function ruleSourceCandidates(input: CandidateInput): RuleSourceSpec[] {
  const specs: RuleSourceSpec[] = [];
  const projectDirs = [input.cwd, input.gitRoot].filter((d): d is string => !!d);
  const root = input.gitRoot ?? input.cwd;
  const show = (path: string) => displayPath(path, root, input.home);
  const add = (kind: RuleSourceSpec["kind"], scope: RuleSourceSpec["scope"], path: string) => {
    if (specs.some((s) => s.path === path)) return;
    specs.push({ kind, scope, path, display: show(path) });
  };
  const rulesFiles = input.sources.has("rules-file");
  const claudeMd = input.sources.has("claude-md");
  if (rulesFiles) {
    for (const file of input.extraFiles) {
      add(
        "rules-file",
        "configured",
        isAbsolute(file) || !input.cwd ? file : join(input.cwd, file),
      );
    }
    for (const dir of projectDirs) {
      add("rules-file", "project", join(dir, ".claude", "reinject.md"));
    }
  }
  if (claudeMd) {
    for (const dir of projectDirs) {
      add("claude-md", "project", join(dir, "CLAUDE.local.md"));
      add("claude-md", "project", join(dir, "CLAUDE.md"));
      add("claude-md", "project", join(dir, ".claude", "CLAUDE.md"));
    }
  }
  if (input.userDir) {
    if (rulesFiles) add("rules-file", "user", join(input.userDir, "reinject.md"));
    if (claudeMd) add("claude-md", "user", join(input.userDir, "CLAUDE.md"));
  }
  return specs;
}

/** `path` relative to the project root when inside it, `~/...` under the home folder. */
export function displayPath(path: string, root: string | undefined, home: string | undefined) {
  const inside = (base: string | undefined) => {
    if (!base || !path.startsWith(base)) return undefined;
    const rest = path.slice(base.length);
    return /^[\\/]/.test(rest) || /[\\/]$/.test(base) ? rest.replace(/^[\\/]+/, "") : undefined;
  };
  const rel = inside(root);
  if (rel !== undefined) return rel;
  const fromHome = inside(home);
  return fromHome !== undefined ? `~/${fromHome}` : path;
}

/**
 * The nearest folder at or above `cwd` holding `.git` (a folder, or the file a worktree or
 * submodule has), by stat only: no `git` process.
 */
export function findGitRoot(cwd: string | undefined): string | undefined {
  if (!cwd || !isAbsolute(cwd)) return undefined;
  let dir = resolve(cwd);
  for (let i = 0; i < 256; i++) {
    try {
      Deno.statSync(join(dir, ".git"));
      return dir;
    } catch {
      // Not here (or not readable): look further up.
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/** Reads one source: its blocks, or why it gave none. Never throws. */
export function readRuleSource(spec: RuleSourceSpec): LoadedRuleSource {
  const done = (
    status: LoadedRuleSource["status"],
    notes: string[],
    bytes: number | undefined,
    blocks: RuleBlock[] = [],
  ): LoadedRuleSource => ({ ...spec, status, notes, bytes, blocks });
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(spec.path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return done("missing", [], undefined);
    }
    return done("skipped", [`cannot read: ${messageOf(error)}`], undefined);
  }
  if (!info.isFile) return done("skipped", ["not a file"], undefined);
  if (info.size > MAX_RULES_FILE_BYTES) {
    return done(
      "skipped",
      [`${info.size} bytes is over the ${MAX_RULES_FILE_BYTES}-byte limit`],
      info.size,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Deno.readFileSync(spec.path));
  } catch (error) {
    const why = error instanceof TypeError ? "not UTF-8 text" : `cannot read: ${messageOf(error)}`;
    return done("skipped", [why], info.size);
  }
  const heading = spec.kind === "claude-md"
    ? `## Rules you marked in ${spec.display}`
    : `## Your rules from ${spec.display}`;
  if (spec.kind === "rules-file") {
    const body = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").trim();
    if (body === "") return done("read", ["empty"], info.size);
    return done("read", [], info.size, [{ id: spec.display, heading, text: body }]);
  }
  const marked = markedSections(text);
  const blocks = marked.sections.map((s) => ({
    id: `${spec.display}:${s.line}`,
    heading,
    text: s.text,
  }));
  const notes = blocks.length === 0 && marked.problems.length === 0
    ? ["no marked sections"]
    : marked.problems;
  return done("read", notes, info.size, blocks);
}

/** Options for {@link loadRuleSources}: {@link CandidateInput} but the git root, found here. */
export type RuleSourceOptions = Omit<CandidateInput, "gitRoot">;

/** Every candidate source for `cwd`, read, in rank order. Never throws. */
export function loadRuleSources(options: RuleSourceOptions): LoadedRuleSource[] {
  const specs = ruleSourceCandidates({ ...options, gitRoot: findGitRoot(options.cwd) });
  return specs.map(readRuleSource);
}

/** One line per source for a debug line or a report: `CLAUDE.md: 2 sections, 812 bytes`. */
export function describeSource(source: LoadedRuleSource): string {
  if (source.status === "missing") return `${source.display}: not found`;
  const size = source.bytes === undefined ? "" : `, ${source.bytes} bytes`;
  const notes = source.notes.length > 0 ? ` (${source.notes.join("; ")})` : "";
  if (source.status === "skipped") return `${source.display}: skipped${size}${notes}`;
  const what = source.kind === "rules-file"
    ? (source.blocks.length > 0 ? "whole file" : "nothing")
    : `${source.blocks.length} marked ${source.blocks.length === 1 ? "section" : "sections"}`;
  return `${source.display}: ${what}${size}${notes}`;
}
