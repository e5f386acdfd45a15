/**
 * src/ has no import cycle, type-only and dynamic imports included: a module can be read, tested
 * and moved with only what is below it. The graph is Deno's own (`deno info --json`), from every
 * module of src/ as a root; a cycle is a strongly connected component of more than one module (or
 * a module importing itself).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join, relative } from "node:path";
import { filesUnder, ROOT } from "../_helpers.ts";

interface Info {
  modules: { specifier: string; dependencies?: { code?: Dep; type?: Dep }[] }[];
}
interface Dep {
  specifier: string;
}

const srcModules = () => filesUnder(join(ROOT, "src")).filter((path) => /\.(ts|js)$/.test(path));

/** Every import between modules of src/, as repository-relative paths. */
async function importGraph(): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  const name = (url: string) =>
    url.startsWith("file://") ? relative(ROOT, decodeURIComponent(new URL(url).pathname)) : url;
  for (const file of srcModules()) {
    if (graph.has(relative(ROOT, file))) continue; // reached from an earlier root
    const { stdout, success, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", file],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!success) throw new Error(`deno info ${file}: ${new TextDecoder().decode(stderr)}`);
    const info: Info = JSON.parse(new TextDecoder().decode(stdout));
    for (const module of info.modules) {
      const from = name(module.specifier);
      if (!from.startsWith("src/")) continue;
      const to = graph.get(from) ?? new Set<string>();
      for (const dep of module.dependencies ?? []) {
        for (const target of [dep.code, dep.type]) {
          if (target && name(target.specifier).startsWith("src/")) to.add(name(target.specifier));
        }
      }
      graph.set(from, to);
    }
  }
  return graph;
}

/** The graph's cycles: Tarjan's strongly connected components of more than one module. */
export function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.has(node)) cycles.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

Deno.test("cyclesOf() finds each cycle once, with its modules, and no cycle in a tree", () => {
  const graph = (edges: Record<string, string[]>) =>
    new Map(Object.entries(edges).map(([k, v]) => [k, new Set(v)]));
  assertEquals(cyclesOf(graph({ a: ["b"], b: ["c"], c: [] })), []);
  assertEquals(cyclesOf(graph({ a: ["b"], b: ["c"], c: ["a"], d: ["a"], e: ["e"] })), [
    ["a", "b", "c"],
    ["e"],
  ]);
});

Deno.test("src/ has no import cycle", async () => {
  const graph = await importGraph();
  // Every module of src/ is in the graph: none was missed by the roots.
  assertEquals(srcModules().map((f) => relative(ROOT, f)).filter((m) => !graph.has(m)), []);
  assertEquals(cyclesOf(graph), []);
});
