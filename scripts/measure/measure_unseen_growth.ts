/**
 * A measurement, not a test: how much a request can grow that the transcript does not show, per
 * source of growth, with the real Claude Code CLI. Each source is a scripted session against the
 * loopback API (which reports usage from the request's own size); a user-level hook records the
 * transcript's size when each tool call's hook starts. Run: `deno task measure-growth [names...]`;
 * `--write` saves the pairs to tests/fixtures/unseen-growth/ (what the unit test pins).
 */
import { join } from "node:path";
import { scriptArgs } from "../script_args.ts";
import type { Step, ToolCall } from "../loopback/api_stub.ts";
import { locateClaude } from "../loopback/claude_cli.ts";
import { ROOT, Scenario, type ScenarioSetup, type TurnOptions } from "../../tests/e2e/harness.ts";
import {
  analyseSession,
  type GrowthPair,
  growthTable,
  UNSEEN_GROWTH_FIXTURE,
} from "./unseen_growth.ts";
import { pngOf } from "./png.ts";

/** One source of growth: a session that exercises it, and how many sessions of it to run. */
interface Source {
  name: string;
  /** What a user does that makes this growth. */
  what: string;
  setup?: Pick<ScenarioSetup, "files" | "env">;
  /** Arguments of the MCP server (scripts/loopback/mcp_server.ts), for a `MCP_CONFIG` turn. */
  mcp?: string[];
  /** Writes what text files cannot hold into the working folder, before the first turn. */
  prepare?: (work: string) => void;
  turns: { prompt: string; options?: TurnOptions }[];
  main: (work: string) => Step[];
  agents?: Record<string, Step[]>;
}

const call = (...tools: ToolCall[]): Step => ({ usage: "request", tools });
const done = (text = "Finished."): Step => ({ usage: "request", text });
const bash = (command: string, id?: string): ToolCall => ({
  name: "Bash",
  input: { command, description: "probe" },
  ...(id ? { id } : {}),
});
const read = (path: string): ToolCall => ({ name: "Read", input: { file_path: path } });

/**
 * A file of source code about `bytes` long: numbered functions named after `module`, so that no
 * two files share a line (the analysis looks for each piece of new content in the transcript).
 */
function code(bytes: number, module = "main"): string {
  let text = `// ${module}: a generated module for the unseen-growth measurement.\n`;
  for (let i = 0; text.length < bytes; i++) {
    text += `export function ${module}Step${i}(input: number[]): number {\n` +
      `  return input.reduce((sum, value) => sum + value * ${i}, ${i % 7}); // ${module}\n}\n\n`;
  }
  return text;
}

const MCP_SERVER = join(ROOT, "scripts", "loopback", "mcp_server.ts");

function mcpConfig(root: string, args: string[]): string {
  const path = join(root, "mcp.json");
  Deno.writeTextFileSync(
    path,
    JSON.stringify({
      mcpServers: {
        probe: {
          type: "stdio",
          command: Deno.execPath(),
          args: ["run", "--no-config", "--quiet", MCP_SERVER, ...args],
        },
      },
    }),
  );
  return path;
}

/** One tool at the start, 20 more (1.5 KB descriptions) 2.5 s in, 3 KB of instructions. */
const LATE_TOOLS = [
  "--tools=1",
  "--late=20",
  "--late-after=2500",
  "--description=1500",
  "--instructions=3000",
];

/** A command that starts a detached process editing `file` with sed `script` a second later. */
function behindTheBack(file: string, script: string): string {
  return `nohup sh -c "sleep 1; sed -i '${script}' '${file}'" >/dev/null 2>&1 & echo started`;
}

const AGENT_MARKER = "MEASURE-SUBAGENT-7c1e";
const SLOW = "sleep 1.5; echo waited";

export const SOURCES: Source[] = [
  {
    name: "bash",
    what: "Bash output (small, 30 KB, truncated past Claude Code's limit, failing)",
    turns: [{ prompt: "Run commands." }],
    main: () => [
      call(bash("echo hello")),
      call(bash("seq 1 6000")),
      call(bash("seq 1 40000")),
      call(bash("echo failing >&2; exit 3")),
      done(),
    ],
  },
  {
    name: "read-code",
    what: "Read of source files (12 KB, 60 KB) and a partial Read",
    setup: {
      files: { "work/src/a.ts": code(12_000, "alpha"), "work/src/b.ts": code(60_000, "beta") },
    },
    turns: [{ prompt: "Read code." }],
    main: (work) => [
      call(read(join(work, "src/a.ts"))),
      call(read(join(work, "src/b.ts"))),
      call({ name: "Read", input: { file_path: join(work, "src/b.ts"), offset: 10, limit: 50 } }),
      done(),
    ],
  },
  {
    name: "read-image",
    what: "Read of images (a noisy 640x480 PNG, a flat 1568x1568 PNG)",
    prepare: (work) => {
      Deno.writeFileSync(join(work, "noise.png"), pngOf(640, 480, "noise"));
      Deno.writeFileSync(join(work, "flat.png"), pngOf(1568, 1568, "flat"));
    },
    turns: [{ prompt: "Look at images." }],
    main: (work) => [
      call(read(join(work, "noise.png"))),
      call(read(join(work, "flat.png"))),
      call(bash("echo looked")),
      done(),
    ],
  },
  {
    name: "grep-glob",
    what: "Grep (content and file lists) and Glob",
    setup: {
      files: Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [`work/lib/m${i}.ts`, code(3_000, `lib${i}`)]),
      ),
    },
    turns: [{ prompt: "Search." }],
    main: (work) => [
      call({ name: "Grep", input: { pattern: "reduce", path: work, output_mode: "content" } }),
      call({ name: "Grep", input: { pattern: "Step1", path: work } }),
      call({ name: "Glob", input: { pattern: "**/*.ts", path: work } }),
      done(),
    ],
  },
  {
    name: "edit-write",
    what: "Write, Edit, and a file changed by another process, in the same turn and the next " +
      "(no file-changed reminder came: see below)",
    setup: { files: { "work/notes.md": "# Notes\n\n" + "A line of notes.\n".repeat(200) } },
    turns: [{ prompt: "Edit files." }, { prompt: "Continue.", options: { resume: true } }],
    main: (work) => [
      call({
        name: "Write",
        input: { file_path: join(work, "new.ts"), content: code(8_000, "fresh") },
      }),
      call({
        name: "Edit",
        input: {
          file_path: join(work, "new.ts"),
          old_string: "freshStep3(",
          new_string: "freshStepThree(",
        },
      }),
      call(read(join(work, "notes.md"))),
      // Changed by another process a second later, as an editor or a formatter would.
      call(bash(behindTheBack(join(work, "notes.md"), "s/A line/A changed line/"))),
      call(bash(SLOW)),
      call(bash("echo after")),
      done(),
      call(bash(behindTheBack(join(work, "notes.md"), "s/changed/edited/"))),
      call(bash(SLOW)),
      done(),
    ],
  },
  {
    name: "prompt",
    what: "A user prompt pasted in a new turn (40 KB)",
    turns: [
      { prompt: "First turn." },
      {
        prompt: "Here is the log I mentioned:\n" + "2026-12-01 12:00:00 INFO request served\n"
          .repeat(1_000),
        options: { resume: true },
      },
    ],
    main: () => [call(bash("echo one")), done(), call(bash("echo two")), done()],
  },
  {
    name: "skill",
    what: "A project skill invoked with the Skill tool (8 KB SKILL.md)",
    setup: {
      files: {
        "work/.claude/skills/probe-skill/SKILL.md": "---\nname: probe-skill\n" +
          "description: A probe skill for the measurement.\n---\n\n# Probe skill\n\n" +
          "Follow these steps with care and report each result.\n".repeat(150),
      },
    },
    turns: [{ prompt: "Use the skill.", options: { allowTools: ["Skill"] } }],
    main: () => [
      call(bash("echo before")),
      call({ name: "Skill", input: { skill: "probe-skill" } }),
      call(bash("echo after")),
      done(),
    ],
  },
  {
    name: "nested-claude-md",
    what: "A nested CLAUDE.md (6 KB) loaded when a file in its folder is read",
    setup: {
      files: {
        "work/pkg/CLAUDE.md": "# Package rules\n\n" +
          "Keep this package's API stable.\n".repeat(200),
        "work/pkg/index.ts": code(2_000, "pkg"),
      },
    },
    turns: [{ prompt: "Read the package." }],
    main: (work) => [
      call(bash("echo before")),
      call(read(join(work, "pkg/index.ts"))),
      call(bash("echo after")),
      done(),
    ],
  },
  {
    name: "tool-search",
    what: "Deferred tool schemas loaded by ToolSearch",
    turns: [{ prompt: "Load tools.", options: { allowTools: ["ToolSearch"] } }],
    main: () => [
      call(bash("echo before")),
      call({
        name: "ToolSearch",
        input: {
          query: "select:WebFetch,WebSearch,NotebookEdit,CronCreate,TaskCreate,TaskUpdate",
          max_results: 10,
        },
      }),
      call(bash("echo after")),
      done(),
    ],
  },
  {
    name: "mcp-late",
    what: "An MCP server whose 20 more tools (1.5 KB descriptions) arrive mid-session, loaded " +
      "with ToolSearch",
    turns: [{
      prompt: "Use the server.",
      options: {
        allowTools: ["ToolSearch", "mcp__probe__probe_tool_00"],
        extraArgs: ["--mcp-config", "MCP_CONFIG"],
      },
    }],
    main: () => [
      call(bash(SLOW)),
      call(bash(SLOW)),
      call(bash(SLOW)),
      call({
        name: "ToolSearch",
        input: { query: "select:mcp__probe__probe_tool_00", max_results: 5 },
      }),
      call({ name: "mcp__probe__probe_tool_00", input: { query: "x" } }),
      call(bash("echo after")),
      done(),
    ],
  },
  {
    name: "mcp-late-no-search",
    what: "The same server with tool search off (ENABLE_TOOL_SEARCH=false): the schemas of its " +
      "20 late tools load at once",
    setup: { env: { ENABLE_TOOL_SEARCH: "false" } },
    turns: [{
      prompt: "Use the server.",
      options: {
        allowTools: ["mcp__probe__probe_tool_00"],
        extraArgs: ["--mcp-config", "MCP_CONFIG"],
      },
    }],
    main: () => [
      call(bash(SLOW)),
      call(bash(SLOW)),
      call(bash(SLOW)),
      call({ name: "mcp__probe__probe_tool_00", input: { query: "x" } }),
      call(bash("echo after")),
      done(),
    ],
  },
  {
    name: "reminders",
    what: "Task-list and other reminders over a long turn of small calls (a task created first)",
    turns: [{
      prompt: "Work through many small steps.",
      options: { allowTools: ["ToolSearch", "TaskCreate", "TaskUpdate"] },
    }],
    main: () => [
      call({
        name: "ToolSearch",
        input: { query: "select:TaskCreate,TaskUpdate", max_results: 5 },
      }),
      call({
        name: "TaskCreate",
        input: { subject: "Probe the steps", description: "Run every probe step in order." },
      }),
      ...Array.from({ length: 14 }, (_, i) => call(bash(`echo step ${i}`))),
      done(),
    ],
  },
  {
    name: "subagent",
    what: "A subagent's result (its final report, 12 KB)",
    turns: [{ prompt: "Delegate.", options: { allowTools: ["Agent"] } }],
    main: () => [
      call(bash("echo before")),
      call({
        name: "Agent",
        input: {
          description: "probe task",
          prompt: `Do the probe task. ${AGENT_MARKER}`,
          subagent_type: "general-purpose",
        },
      }),
      call(bash("echo after")),
      done(),
    ],
    agents: {
      [AGENT_MARKER]: [
        call(bash("seq 1 3000")),
        done("Report: " + "the sub task found this and that in the code. ".repeat(270)),
      ],
    },
  },
  {
    name: "background",
    what: "A background command's completion notice (run_in_background, 20 KB of output)",
    turns: [{ prompt: "Start a background job." }],
    main: () => [
      call({
        name: "Bash",
        input: { command: "sleep 1; seq 1 4000", description: "job", run_in_background: true },
      }),
      call(bash("sleep 2; echo waited")),
      call(bash("echo after")),
      done(),
      call(bash("echo next")),
      done(),
    ],
  },
  {
    name: "parallel",
    what: "Parallel tool calls in one streamed response (four Reads of 20 KB)",
    setup: {
      files: Object.fromEntries(
        Array.from({ length: 4 }, (_, i) => [`work/p${i}.ts`, code(20_000, `part${i}`)]),
      ),
    },
    turns: [{ prompt: "Read four files." }],
    main: (work) => [
      call(bash("echo before")),
      {
        // Streamed as a model streams: each Read runs before the next block arrives.
        ...call(...Array.from({ length: 4 }, (_, i) => read(join(work, `p${i}.ts`)))),
        blockDelayMs: 400,
      },
      call(bash("echo after")),
      done(),
    ],
  },
];

/** The capture hook: the transcript's size when a tool call's hooks start, by tool_use_id. */
function sizeHook(log: string): string {
  // One session per scenario: the only JSONL directly under a project folder is its transcript.
  return `s=$(stat -c %s "$HOME"/.claude/projects/*/*.jsonl 2>/dev/null | head -1); ` +
    `i=$(sed -n 's/.*"tool_use_id":"\\([^"]*\\)".*/\\1/p' | head -1); echo "$i $s" >> '${log}'`;
}

async function installSizeHook(s: Scenario, log: string): Promise<void> {
  const entry = [{ matcher: ".*", hooks: [{ type: "command", command: sizeHook(log) }] }];
  const settings = { hooks: { PostToolUse: entry, PostToolUseFailure: entry } };
  await Deno.mkdir(join(s.home, ".claude"), { recursive: true });
  await Deno.writeTextFile(join(s.home, ".claude", "settings.json"), JSON.stringify(settings));
}

/** Runs one source with request replay on or off; returns its pairs. */
export async function measureSource(
  bin: string,
  source: Source,
  replay: boolean,
): Promise<GrowthPair[]> {
  const extra = source.setup ?? {};
  const s = await Scenario.start(bin, {
    name: `growth-${source.name}`,
    manifest: null,
    pluginDirs: [],
    ...extra,
    env: {
      ...extra.env,
      ...(replay ? {} : { CLAUDE_CODE_ELEGANT_MEADOW: "0" }),
    },
    script: ({ work }) => ({
      main: source.main(work),
      ...(source.agents ? { agents: source.agents } : {}),
    }),
  });
  const log = join(s.root, "hook-sizes.log");
  try {
    await installSizeHook(s, log);
    source.prepare?.(s.work);
    const config = mcpConfig(s.root, source.mcp ?? LATE_TOOLS);
    for (const turn of source.turns) {
      const options = {
        ...turn.options,
        extraArgs: turn.options?.extraArgs?.map((a) => a === "MCP_CONFIG" ? config : a) ?? [],
      };
      const result = await s.turn(turn.prompt, options);
      if (result.code !== 0) throw new Error(`${source.name}: claude exited ${result.code}`);
    }
    const sizes = (await Deno.readTextFile(log).catch(() => "")).split("\n")
      .map((line) => line.split(" ")).filter(([id, size]) => id && size)
      .map(([id, size]) => [id!, Number(size)] as const);
    const dump = Deno.env.get("LESSONS_MEASURE_DUMP");
    if (dump) {
      await Deno.writeTextFile(
        join(dump, `${source.name}-${replay ? "replay" : "plain"}.json`),
        JSON.stringify(s.stub.requests),
      );
    }
    return analyseSession({
      source: source.name,
      replay,
      requests: s.stub.requests.filter((r) => r.route === "main"),
      transcript: await Deno.readFile(await s.transcriptPath()),
      hookSizes: new Map(sizes),
    });
  } finally {
    await s.close();
  }
}

const USAGE = `usage: deno task measure-growth [--write] [--table] [source names...]

  (no flags)  runs each source's scripted sessions with the real Claude Code and prints the pairs
  --write     also saves them to ${UNSEEN_GROWTH_FIXTURE} (what the unit test pins)
  --table     prints the committed pairs' table, as docs/maintainers/claude-code-facts.md shows it
sources: ${SOURCES.map((s) => s.name).join(", ")}`;

const print = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));

if (import.meta.main) {
  const { values, positionals } = scriptArgs("measure-growth", USAGE, {
    args: Deno.args,
    allowPositionals: true,
    options: {
      write: { type: "boolean", default: false },
      table: { type: "boolean", default: false },
    },
  });
  const what = new Map(SOURCES.map((s) => [s.name, s.what]));
  if (values.table) {
    // The committed pairs' table, as docs/maintainers/claude-code-facts.md shows it.
    const text = await Deno.readTextFile(join(ROOT, UNSEEN_GROWTH_FIXTURE));
    const recorded = text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
    print(growthTable(recorded, what));
    Deno.exit(0);
  }
  const cli = await locateClaude();
  if ("problem" in cli) throw new Error(cli.problem);
  const chosen = positionals.length ? SOURCES.filter((s) => positionals.includes(s.name)) : SOURCES;
  const pairs: GrowthPair[] = [];
  for (const source of chosen) {
    for (const replay of [true, false]) {
      const found = await measureSource(cli.bin, source, replay);
      pairs.push(...found);
      const worst = Math.max(0, ...found.map((p) => p.unseenBytes));
      print(`${source.name} replay=${replay}: ${found.length} pairs, unseen at most ${worst} B`);
    }
  }
  print(growthTable(pairs, what));
  if (values.write) {
    await Deno.mkdir(join(ROOT, UNSEEN_GROWTH_FIXTURE, ".."), { recursive: true });
    const lines = pairs.map((p) => JSON.stringify(p)).join("\n");
    await Deno.writeTextFile(join(ROOT, UNSEEN_GROWTH_FIXTURE), `${lines}\n`);
    print(`wrote ${UNSEEN_GROWTH_FIXTURE}`);
  } else {
    for (const p of pairs) print(JSON.stringify(p));
  }
}
