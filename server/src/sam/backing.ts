/**
 * Where the maps and lists of a generated resource stand in the text. The processed template
 * places a value the translation took from the text (its own node, found through the
 * SourceIndex) at that text, and one it made at the SAM property it came from (output.ts). Two
 * translations of a resource can agree on every value and still place them otherwise: a map
 * Globals merged with the resource's own was made, the resource's own alone is text; two events
 * with the same route settings are two texts. An expansion in full takes the last one's record of
 * a resource translated again (reexpand.ts's `RecordCarrier`) only when both place its values
 * alike, which this compares.
 */
import type { Range } from '../template/ast';
import type { GeneratedResource } from './generated';
import type { SourceIndex } from './sourceIndex';

/** Maps and lists deeper than this are not followed: the resource is then not compared. */
const MAX_DEPTH = 64;

/**
 * The text each map and list of the resource's attributes and properties stands for, in order:
 * its place relative to the start of `producer` (the entry of the resource that generated it), or
 * none when the translation made it. Undefined when one stands for text outside that entry (a
 * section such as Globals or Parameters, another resource), whose moves the entry does not tell.
 */
export function backingOf(resource: GeneratedResource, index: SourceIndex, producer: Range | undefined): string | undefined {
  const parts: string[] = [];
  const walk = (value: unknown, depth: number): boolean => {
    if (typeof value !== 'object' || value === null) return true;
    if (depth > MAX_DEPTH) return false;
    const node = index.nodeOf(value);
    if (node === undefined) parts.push('-');
    else if (producer === undefined || node.range.start < producer.start || node.range.end > producer.end) return false;
    else parts.push(`${node.range.start - producer.start}:${node.range.end - producer.start}`);
    const items = Array.isArray(value) ? value : Object.values(value);
    for (const item of items) if (!walk(item, depth + 1)) return false;
    return true;
  };
  return walk(resource.attributes, 0) && walk(resource.properties, 0) ? parts.join(' ') : undefined;
}
