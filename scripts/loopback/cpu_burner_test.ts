import { deepStrictEqual, ok } from "node:assert/strict";
import { startBurner } from "./cpu_burner.ts";

/** The child processes of `pid`, from Linux's /proc. */
function childrenOf(pid: number): number[] {
  const text = Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`).trim();
  return text === "" ? [] : text.split(" ").map(Number);
}

/** CPU time (user + system, in clock ticks) process `pid` has used, or undefined once it is gone. */
function cpuTicks(pid: number): number | undefined {
  try {
    // Fields after the command's closing parenthesis: state is the first, utime the 12th.
    const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

Deno.test({
  name: "startBurner() runs a busy loop until stop(), which ends it long before its timeout",
  // /proc is Linux's; the burner itself needs `timeout` and `sh`.
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const started = performance.now();
    const burner = startBurner(60, 2);
    // Until each timeout has started its loop and the loop has used CPU (10 s at most).
    let loops: number[] = [];
    const busy = () => loops.length === 2 && loops.every((pid) => (cpuTicks(pid) ?? 0) > 0);
    while (!busy() && performance.now() - started < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      loops = burner.pids.flatMap(childrenOf);
    }
    deepStrictEqual(loops.length, 2, "one busy loop under each timeout");
    for (const pid of loops) ok((cpuTicks(pid) ?? 0) > 0, `loop ${pid} used no CPU`);
    await burner.stop();
    const ms = performance.now() - started;
    ok(ms < 20_000, `stop() returned after ${Math.round(ms)} ms`);
    deepStrictEqual(loops.filter((pid) => cpuTicks(pid) !== undefined), [], "loops left running");
  },
});
