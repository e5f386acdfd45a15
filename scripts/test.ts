/**
 * `deno task test`: `deno test` with output a person can read. One dot per test or step, on lines
 * of at most 100 (Deno's dot reporter puts each on a line of its own when not on a terminal), no
 * colour unless on a terminal, failures in full, and Deno's summary line last. For every test's
 * name, run `deno test --allow-all <files>` itself.
 */
import { baseEnv } from "./project.ts";

/** Width of a line of dots. */
export const DOTS_PER_LINE = 100;

/** A line of Deno's dot reporter: `.` passed, `,` ignored, `!` failed. */
const DOTS = /^[.,!]+$/;

/**
 * Condenses a reporter's output, line by line: runs of dot lines joined into lines of at most
 * {@link DOTS_PER_LINE}, runs of blank lines into one, trailing blank lines dropped, every other
 * line as it was. `write` gets whole lines, newline included.
 */
export class DotCondenser {
  #row = "";
  #partial = "";
  /** Blank lines seen since the last line written: kept between lines, dropped at the end. */
  #blank = false;
  readonly #write: (text: string) => void;

  constructor(write: (text: string) => void) {
    this.#write = write;
  }

  /** Feeds more output; lines are handled once their newline arrives. */
  push(text: string): void {
    const lines = (this.#partial + text).split("\n");
    this.#partial = lines.pop() ?? "";
    for (const line of lines) this.#line(line);
  }

  /** Handles what is left: a last line without a newline, a row of dots. */
  end(): void {
    if (this.#partial !== "") this.#line(this.#partial);
    this.#partial = "";
    this.#flush();
  }

  #line(line: string): void {
    if (line.trim() === "") {
      this.#flush();
      this.#blank = true;
      return;
    }
    if (DOTS.test(line)) {
      for (const dot of line) {
        this.#row += dot;
        if (this.#row.length >= DOTS_PER_LINE) this.#flush();
      }
      return;
    }
    this.#flush();
    if (this.#blank) this.#write("\n");
    this.#blank = false;
    this.#write(`${line}\n`);
  }

  #flush(): void {
    if (this.#row === "") return;
    if (this.#blank) this.#write("\n");
    this.#blank = false;
    this.#write(`${this.#row}\n`);
    this.#row = "";
  }
}

if (import.meta.main) {
  const encoder = new TextEncoder();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "--quiet", "--allow-all", "--reporter=dot", ...Deno.args],
    // Deno colours its output even into a pipe or a file; NO_COLOR stops it.
    env: baseEnv(Deno.stdout.isTerminal() ? {} : { NO_COLOR: "1" }),
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const condenser = new DotCondenser((text) => Deno.stdout.writeSync(encoder.encode(text)));
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    condenser.push(chunk);
  }
  condenser.end();
  Deno.exit((await child.status).code);
}
