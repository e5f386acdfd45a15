/** Subcommands of the executable; the hook itself is the no-argument case in main.ts. */
export function runCli(args: string[]): Promise<number> {
  void args;
  return Promise.resolve(0);
}
