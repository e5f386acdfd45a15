/** The timeline's SVG read back: parsed strictly as XML, its marks as the `--json` events. */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { DOMParser, type Element } from "@xmldom/xmldom";

/** The SVG's elements, parsed strictly: any parser warning or error fails the test. */
export function parse(svg: string): Element[] {
  // The parser lets a bare `&` through; the XML rule does not.
  ok(!/&(?!#\d+;|amp;|lt;|gt;|quot;|apos;)/.test(svg), "every & starts an entity");
  const doc = new DOMParser({
    onError: (level, message) => {
      throw new Error(`${level}: ${message}`);
    },
  }).parseFromString(svg, "image/svg+xml");
  const root = doc.documentElement;
  ok(root !== null && root.tagName === "svg");
  assertEquals(root.getAttribute("xmlns"), "http://www.w3.org/2000/svg");
  return [root, ...Array.from(root.getElementsByTagName("*"))];
}

/** A mark's `data-*` attributes read back as the `--json` event they carry. */
export function eventOf(element: Element): Record<string, unknown> {
  const event: Record<string, unknown> = {};
  for (const { name, value } of Array.from(element.attributes)) {
    if (!name.startsWith("data-")) continue;
    const key = name.slice(5).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const number = (text: string) => /^\d+$/.test(text) ? Number(text) : text;
    event[key] = value === ""
      ? null
      : key === "thresholds"
      ? value.split(",").map(Number)
      : key === "refreshes"
      ? value.split(",")
      : value === "true" || value === "false"
      ? value === "true"
      : number(value);
  }
  return event;
}
