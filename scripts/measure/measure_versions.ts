/**
 * A measurement, not a test: what one Claude Code release does with hook answers, with no plugin
 * (hooks in the user's and the project's settings files, which every release with hooks reads).
 * Per release: does a PostToolUse `additionalContext` reach the model, what the transcript records of hook runs
 * (`hook_additional_context`, `hook_success`, `hook_cancelled`), and does a SessionStart answer
 * reach the model at startup, on `--resume`, on `--fork-session` and after `/compact`.
 *
 *     deno run -A scripts/measure/measure_versions.ts 2.1.332 2.1.328 ...   # one JSON line each
 *     deno run -A scripts/measure/measure_versions.ts --bisect 1.0.0 2.1.332 [--on receipts]
 *     deno run -A scripts/measure/measure_versions.ts --payloads <dir> 2.1.332  # keep the payloads
 *     deno run -A scripts/measure/measure_versions.ts --chars 10001 2.1.332  # answer of that size
 *
 * `--bisect LOW HIGH` looks for the oldest release between them (npm's list) on which a
 * PostToolUse `additionalContext` reaches the model, assuming it does on HIGH and never stops
 * once it does; `--on <name>` looks for another of the PREDICATES below instead (`receipts`: the
 * oldest whose transcript records a `hook_additional_context`).
 * Releases are installed as the e2e suite installs them (scripts/loopback/claude_cli.ts).
 */
import { join } from "node:path";
import { startApiStub, type Step } from "../loopback/api_stub.ts";
import { usage } from "../loopback/backed_steps.ts";
import { installedClaude } from "../loopback/claude_cli.ts";
import { baseEnv } from "../project.ts";
import { attachmentOf, type Json, readJsonl } from "../../tests/e2e/harness.ts";

const PTU = "PTU-CONTEXT-PROBE";
/** The PostToolUse answer: the marker, padded to `chars` characters (`--chars`). */
const ptuText = (chars: number) => PTU + "p".repeat(Math.max(0, chars - PTU.length - 4)) + "|END";
const LATE = "PTU-LATE-PROBE";
const SOURCES = ["startup", "resume", "fork", "compact"] as const;
const ssMark = (source: string) => `SS-${source.toUpperCase()}-PROBE`;

/** User-level hooks that save every payload and answer with known texts. */
function settings(payloads: string, chars: number): { user: Json; project: Json; local: Json } {
  const save = `f=$(mktemp "${payloads}/payload-$PROBE_TURN-XXXXXXXX") && cat > "$f"`;
  const answer = (event: string, text: string) =>
    `printf '%s' '${
      JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })
    }'`;
  // The second Bash call's hook outlives its timeout: what a cancelled hook leaves behind.
  const postToolUse = `${save}; if grep -q slow-probe "$f"; then sleep 6; printf '%s' '${
    JSON.stringify({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: LATE },
    })
  }'; else ${answer("PostToolUse", ptuText(chars))}; fi`;
  // One event per settings file: a release that does not know an event refuses the whole file
  // (2.1.72 has no PostCompact), and the other events must still run.
  return {
    user: {
      hooks: {
        PostToolUse: [{
          matcher: ".*",
          hooks: [{ type: "command", command: postToolUse, timeout: 2 }],
        }],
      },
    },
    project: {
      hooks: {
        SessionStart: SOURCES.map((source) => ({
          matcher: source,
          hooks: [{
            type: "command",
            command: `${save}; ${answer("SessionStart", ssMark(source))}`,
            timeout: 5,
          }],
        })),
      },
    },
    local: {
      hooks: {
        PostCompact: [{ hooks: [{ type: "command", command: save, timeout: 5 }] }],
      },
    },
  };
}

const SCRIPT: Step[] = [
  { usage: usage(20_000), tools: [{ name: "Bash", input: { command: "echo fast-probe" } }] },
  { usage: usage(21_000), tools: [{ name: "Bash", input: { command: "echo slow-probe" } }] },
  // The last response before --resume; its output is told apart from the input side.
  { usage: { ...usage(41_000), output_tokens: 77 }, text: "First turn done." },
  { usage: usage(42_000), tools: [{ name: "Bash", input: { command: "echo resumed-probe" } }] },
  { usage: usage(43_000), text: "Resumed turn done." },
];

interface Turn {
  args: string;
  code: number;
  sessionId?: string;
  /** Index of this turn's first recorded request. */
  from: number;
  error?: string;
}

/** One release's answers; `null` where a step could not run. */
export interface VersionReport {
  version: string;
  problem?: string;
  ptuReached?: boolean;
  ptuWhole?: boolean;
  ptuTooLarge?: boolean;
  lateReached?: boolean;
  transcript?: {
    hookAdditionalContext: number;
    hookSuccess: number;
    hookCancelled: number;
    /** `progress` lines of type `hook_progress` (a hook started; no outcome), every file. */
    hookProgress: number;
    otherHookAttachments: string[];
  };
  sessionStart?: Record<string, { ran: boolean; reached: boolean | null; as?: string }>;
  /** SessionStart's `context_tokens`, and the usage of the last response before its turn. */
  contextTokens?: {
    turn: number;
    source: string;
    reported: unknown;
    lastInput: number | null;
    lastOutput: number | null;
  }[];
  payloadKeys?: Record<string, string[]>;
  turns?: { args: string; code: number; error?: string }[];
}

export async function measure(
  version: string,
  keep?: string,
  chars = 200,
): Promise<VersionReport> {
  const cli = await installedClaude(version);
  if ("problem" in cli) return { version, problem: cli.problem };
  const root = await Deno.realPath(
    await Deno.makeTempDir({ prefix: `lessons-versions-${version}-` }),
  );
  const home = join(root, "home");
  const work = join(root, "work");
  const payloadDir = join(root, "payloads");
  for (const dir of [join(home, ".claude"), work, payloadDir, join(root, "tmp")]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  const files = settings(payloadDir, chars);
  await Deno.mkdir(join(work, ".claude"), { recursive: true });
  for (
    const [path, content] of [
      [join(home, ".claude", "settings.json"), files.user],
      [join(work, ".claude", "settings.json"), files.project],
      [join(work, ".claude", "settings.local.json"), files.local],
    ] as const
  ) await Deno.writeTextFile(path, JSON.stringify(content, null, 2));
  const stub = startApiStub({ main: [...SCRIPT] });
  const env = {
    HOME: home,
    TMPDIR: join(root, "tmp"),
    ANTHROPIC_BASE_URL: stub.url,
    ANTHROPIC_API_KEY: "sk-ant-test",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
  const turns: Turn[] = [];
  const run = async (prompt: string, more: string[]): Promise<Turn> => {
    const args = ["-p", prompt, "--output-format", "json", "--allowedTools", "Bash", ...more];
    const from = stub.requests.length;
    const out = await new Deno.Command(cli.bin, {
      args,
      cwd: work,
      env: baseEnv({ ...env, PROBE_TURN: String(turns.length) }),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const turn: Turn = { args: [prompt, ...more].join(" "), code: out.code, from };
    try {
      const result = JSON.parse(new TextDecoder().decode(out.stdout));
      if (typeof result.session_id === "string") turn.sessionId = result.session_id;
      if (result.is_error) turn.error = String(result.result ?? result.subtype).slice(0, 200);
    } catch {
      turn.error = (new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr))
        .trim().slice(0, 200);
    }
    turns.push(turn);
    return turn;
  };
  try {
    const first = await run("Run the probe.", []);
    const id = first.sessionId;
    if (id) {
      await run("Go on.", ["--resume", id]);
      await run("A fork.", ["--resume", id, "--fork-session"]);
      await run("/compact", ["--resume", id]);
      await run("After compaction.", ["--resume", id]);
    }
    const bodies = stub.requests.map((r) => JSON.stringify(r.body));
    const reachedIn = (mark: string, from = 0, to = bodies.length) =>
      bodies.slice(from, to).some((b) => b.includes(mark));
    const turnRange = (i: number) => [turns[i]?.from ?? 0, turns[i + 1]?.from ?? bodies.length];

    // Each payload with the turn whose hooks saved it (payload-<turn>-...).
    const payloads: { turn: number; p: Json }[] = [];
    for await (const entry of Deno.readDir(payloadDir)) {
      try {
        const p = JSON.parse(await Deno.readTextFile(join(payloadDir, entry.name)));
        payloads.push({ turn: Number(entry.name.split("-")[1]), p });
      } catch {
        // A payload cut short by a cancelled hook.
      }
    }
    const sessionStart: Record<
      string,
      { ran: boolean; reached: boolean | null; as?: string }
    > = {};
    SOURCES.forEach((source, i) => {
      // startup: turn 0, resume: turn 1, fork: turn 2, compact: fired in turn 3 (/compact), its
      // answer due in the first request after the compaction, turn 3's or turn 4's.
      const turn = source === "compact" ? 3 : i;
      const ran = payloads.some(({ turn: t, p }) =>
        t === turn && p.hook_event_name === "SessionStart" && p.source === source
      );
      const [from, to] = source === "compact"
        ? [
          stub.requests.findIndex((r) => r.route === "compact") + 1 || bodies.length,
          bodies.length,
        ]
        : turnRange(turn);
      const carrying = bodies.slice(from, to).find((b) => b.includes(ssMark(source)));
      const at = carrying?.indexOf(ssMark(source)) ?? -1;
      sessionStart[source] = {
        ran,
        reached: turns[turn] ? carrying !== undefined : null,
        // How it reached the model: the text just before it in the request.
        ...(carrying ? { as: carrying.slice(Math.max(0, at - 90), at) } : {}),
      };
    });

    // Attachments of every transcript, each counted once (a fork copies its parent's lines).
    const projects = join(home, ".claude", "projects");
    const seen = new Set<string>();
    let hookProgress = 0;
    const exists = await Deno.stat(projects).then(() => true, () => false);
    for await (const project of exists ? Deno.readDir(projects) : []) {
      for await (const file of Deno.readDir(join(projects, project.name))) {
        if (!file.isFile || !file.name.endsWith(".jsonl")) continue;
        for (const line of await readJsonl(join(projects, project.name, file.name))) {
          const a = attachmentOf(line);
          if (a) seen.add(JSON.stringify(a));
          const data = line.data as Json | undefined;
          if (line.type === "progress" && data?.type === "hook_progress") hookProgress++;
        }
      }
    }
    const kinds = [...seen].map((a) => String(JSON.parse(a).type ?? ""));
    const count = (kind: string) => kinds.filter((k) => k === kind).length;
    const known = ["hook_additional_context", "hook_success", "hook_cancelled"];
    // SessionStart resume/fork: context_tokens against the last response before that turn.
    const contextTokens = payloads.filter(({ p }) =>
      p.hook_event_name === "SessionStart" && "context_tokens" in p
    ).map(({ turn, p }) => {
      const before = stub.requests.slice(0, turns[turn]?.from ?? 0).filter((r) =>
        r.route === "main" && r.usage
      ).at(-1)?.usage;
      return {
        turn,
        source: String(p.source),
        reported: p.context_tokens,
        lastInput: before?.tokens ?? null,
        lastOutput: before?.outputTokens ?? null,
      };
    }).sort((x, y) => x.turn - y.turn);
    const payloadKeys: Record<string, string[]> = {};
    for (const { p } of payloads) {
      const name = `${p.hook_event_name}${p.source ? `.${p.source}` : ""}`;
      payloadKeys[name] = Object.keys(p).sort();
    }
    if (keep) {
      await Deno.mkdir(keep, { recursive: true });
      for (const { turn, p } of payloads) {
        const name = `${p.hook_event_name}${p.source ? `.${p.source}` : ""}`;
        const file = `${version}-turn${turn}-${name}-${crypto.randomUUID().slice(0, 4)}.json`;
        await Deno.writeTextFile(join(keep, file), JSON.stringify(p, null, 2) + "\n");
      }
      await Deno.writeTextFile(join(keep, `root-${version}.txt`), `${root}\n`);
    }
    return {
      version,
      ptuReached: reachedIn(PTU),
      // The answer arrived whole (inline), or was saved to a file with a preview.
      ptuWhole: reachedIn(ptuText(chars)),
      ptuTooLarge: reachedIn("Output too large"),
      lateReached: reachedIn(LATE),
      transcript: {
        hookAdditionalContext: count("hook_additional_context"),
        hookSuccess: count("hook_success"),
        hookCancelled: count("hook_cancelled"),
        hookProgress,
        otherHookAttachments: [
          ...new Set(kinds.filter((k) => k.startsWith("hook") && !known.includes(k))),
        ],
      },
      sessionStart,
      contextTokens,
      payloadKeys,
      turns: turns.map((t) => ({
        args: t.args,
        code: t.code,
        ...(t.error ? { error: t.error } : {}),
      })),
    };
  } finally {
    await stub.close();
    if (!keep) await Deno.remove(root, { recursive: true });
  }
}

/** npm's published releases from `low` to `high`, oldest first. */
async function releases(low: string, high: string): Promise<string[]> {
  const out = await new Deno.Command("npm", {
    args: ["view", "@anthropic-ai/claude-code", "versions", "--json"],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const all: string[] = JSON.parse(new TextDecoder().decode(out.stdout));
  const from = all.indexOf(low);
  const to = all.indexOf(high);
  if (from < 0 || to < 0) throw new Error(`${low} or ${high} is not a published release`);
  return all.slice(from, to + 1);
}

/** What `--bisect` can look for (`--on <name>`), each assumed to hold from some release on. */
const PREDICATES: Record<string, { what: string; holds: (r: VersionReport) => boolean }> = {
  delivery: {
    what: "delivering a PostToolUse additionalContext",
    holds: (r) => r.ptuReached === true,
  },
  receipts: {
    what: "recording hook_additional_context in the transcript",
    holds: (r) => (r.transcript?.hookAdditionalContext ?? 0) > 0,
  },
  tool_use_id: {
    what: "giving PostToolUse a tool_use_id",
    holds: (r) => r.payloadKeys?.PostToolUse?.includes("tool_use_id") === true,
  },
  compact: {
    what: "delivering SessionStart(compact)'s answer to the turn after `-p /compact`",
    holds: (r) => r.sessionStart?.compact?.reached === true,
  },
  postcompact: {
    what: "firing PostCompact (a release without it refuses a settings file naming it)",
    holds: (r) => r.payloadKeys?.PostCompact !== undefined,
  },
  context_tokens: {
    what: "giving SessionStart(resume) context_tokens",
    holds: (r) => r.payloadKeys?.["SessionStart.resume"]?.includes("context_tokens") === true,
  },
  fork: {
    what: "firing SessionStart with source fork on --fork-session",
    holds: (r) => r.sessionStart?.fork?.ran === true,
  },
};

const print = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));

if (import.meta.main) {
  const args = [...Deno.args];
  const at = args.indexOf("--payloads");
  const keep = at >= 0 ? args.splice(at, 2)[1] : undefined;
  const sized = args.indexOf("--chars");
  const chars = sized >= 0 ? Number(args.splice(sized, 2)[1]) : 200;
  const on = args.indexOf("--on");
  const predicate = on >= 0 ? args.splice(on, 2)[1] ?? "" : "delivery";
  const test = PREDICATES[predicate];
  if (!test) throw new Error(`--on takes one of ${Object.keys(PREDICATES).join(", ")}`);
  if (args[0] === "--bisect") {
    const list = await releases(args[1] ?? "", args[2] ?? "");
    let bad = -1; // the newest index known not to deliver
    let good = list.length - 1; // the oldest index known to deliver
    while (good - bad > 1) {
      const mid = Math.floor((bad + good) / 2);
      const report = await measure(list[mid]!, keep, chars);
      print(JSON.stringify(report));
      if (test.holds(report)) good = mid;
      else bad = mid;
    }
    print(
      `oldest release ${test.what}: ${list[good]}` +
        (bad >= 0 ? ` (the release before it, ${list[bad]}, does not)` : ""),
    );
  } else {
    for (const version of args) print(JSON.stringify(await measure(version, keep, chars)));
  }
}
