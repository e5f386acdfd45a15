/**
 * Runs one process the way Claude Code runs a hook (payload on stdin, answer read from stdout)
 * and measures it: wall time around the whole spawn, CPU time (user + sys) from the kernel's
 * accounting of waited children, and peak RSS from GNU time.
 */
import { baseEnv } from "../scripts/project.ts";

/** One measured run. */
export interface Sample {
  /** Spawn to exit, with the pipes drained, in ms. */
  wallMs: number;
  /** User + system CPU of the process, in ms (the kernel's figure for waited children). */
  cpuMs: number;
  /** Peak resident set size in KiB (`ru_maxrss`), or undefined when GNU time is missing. */
  rssKiB: number | undefined;
  /**
   * Bytes the process read through read syscalls (Linux `rchar`: files, pipes, Deno's own
   * caches), or undefined off Linux. A reaped child's counters are added to its parent's.
   */
  readBytes: number | undefined;
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunSpec {
  cmd: string[];
  stdin: Uint8Array;
  env: Record<string, string>;
  cwd?: string;
}

const GNU_TIME = "/usr/bin/time";
const MARK = "@@bench-rusage";

/**
 * `getrusage(RUSAGE_CHILDREN)` through libc: user + sys CPU of every child waited so far, with
 * microsecond resolution (GNU time prints only hundredths). Undefined when FFI is unavailable.
 */
function childCpuReader(): (() => number) | undefined {
  if (Deno.build.os !== "linux") return undefined;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      getrusage: { parameters: ["i32", "buffer"], result: "i32" },
    });
    // struct rusage: ru_utime {sec, usec}, ru_stime {sec, usec}, then longs (64-bit Linux).
    const buffer = new BigInt64Array(18);
    const RUSAGE_CHILDREN = -1;
    return () => {
      if (libc.symbols.getrusage(RUSAGE_CHILDREN, buffer) !== 0) return NaN;
      const [us = 0n, uu = 0n, ss = 0n, su = 0n] = buffer;
      return Number(us) * 1000 + Number(uu) / 1000 + Number(ss) * 1000 + Number(su) / 1000;
    };
  } catch {
    return undefined;
  }
}

let cpuReader: (() => number) | undefined | null = null;

/** This process's `rchar`, reaped children included; undefined where /proc is missing. */
function readChars(): number | undefined {
  try {
    const match = /rchar: (\d+)/.exec(Deno.readTextFileSync("/proc/self/io"));
    return match?.[1] ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
let hasGnuTime: boolean | undefined;

/** How CPU and RSS are measured on this machine, for the report. */
export function measurementNote(): string {
  cpuReader ??= childCpuReader();
  hasGnuTime ??= isExecutable(GNU_TIME);
  const cpu = cpuReader
    ? "CPU = user + sys from getrusage(RUSAGE_CHILDREN) deltas around each run (µs resolution)"
    : hasGnuTime
    ? "CPU = user + sys from GNU time (10 ms resolution)"
    : "CPU not measured";
  const rss = hasGnuTime ? "peak RSS = GNU time's %M (ru_maxrss of the process)" : "RSS unknown";
  const read = readChars() !== undefined
    ? "bytes read = the process's rchar (read syscalls: the transcript, stdin, Deno's caches), from /proc/self/io deltas"
    : "bytes read unknown";
  return `${cpu}; ${rss}; ${read}`;
}

function isExecutable(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Runs `spec` once and measures it. */
export async function measure(spec: RunSpec): Promise<Sample> {
  cpuReader ??= childCpuReader();
  hasGnuTime ??= isExecutable(GNU_TIME);
  const [program, ...args] = hasGnuTime
    ? [GNU_TIME, "-f", `${MARK} %M %U %S`, ...spec.cmd]
    : spec.cmd;
  if (program === undefined) throw new TypeError("Cannot run an empty command");
  const readBefore = readChars();
  const cpuBefore = cpuReader?.() ?? 0;
  const started = performance.now();
  const child = new Deno.Command(program, {
    args,
    env: baseEnv(spec.env),
    clearEnv: true,
    ...(spec.cwd ? { cwd: spec.cwd } : {}),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(spec.stdin).catch(() => {});
  await writer.close().catch(() => {});
  const out = await child.output();
  const wallMs = performance.now() - started;
  const cpuAfter = cpuReader?.() ?? 0;
  const readAfter = readChars();
  let stderr = new TextDecoder().decode(out.stderr);
  let rssKiB: number | undefined;
  let timeCpu: number | undefined;
  const at = stderr.lastIndexOf(MARK);
  if (at >= 0) {
    const [rss, user, sys] = stderr.slice(at + MARK.length).trim().split(/\s+/).map(Number);
    rssKiB = rss;
    timeCpu = ((user ?? NaN) + (sys ?? NaN)) * 1000;
    stderr = stderr.slice(0, at);
  }
  return {
    wallMs,
    cpuMs: cpuReader ? cpuAfter - cpuBefore : timeCpu ?? NaN,
    rssKiB,
    readBytes: readBefore !== undefined && readAfter !== undefined
      ? readAfter - readBefore
      : undefined,
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr,
  };
}
