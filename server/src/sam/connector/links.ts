/**
 * What a connector's translation touched of the rest of the template: the resources its `Source`
 * and `Destination` name, those that waited for it, and those it made wait for its policy. An
 * expansion that starts from the last one (reexpand.ts) reads these to know which connectors an
 * edited function's translation must run again with it, and whether they can run without the rest.
 */
import { isList, isMap, type PlainMap } from '../values';

/** One connector's links to the rest of the template. */
export interface ConnectorLink {
  /** The resource the connector is embedded in, when it is. */
  embeddedIn?: string;
  /** The logical ids its `Source` and `Destination` name by `Id`. */
  names: readonly string[];
  /** The resources whose `DependsOn` named the connector, which now wait for what it generated. */
  dependents: readonly string[];
  /** The resources it made wait for its policy. */
  edits: readonly string[];
}

/**
 * The ids a connector's `Source` and `Destination` name by `Id`, or undefined when one is not a
 * string (the translation then failed, or names something no id stands for).
 */
export function namedIds(properties: PlainMap): string[] | undefined {
  const sides = [properties.Source, ...(isList(properties.Destination) ? properties.Destination : [properties.Destination])];
  const names: string[] = [];
  for (const side of sides) {
    if (!isMap(side) || !('Id' in side)) continue;
    if (typeof side.Id !== 'string') return undefined;
    if (!names.includes(side.Id)) names.push(side.Id);
  }
  return names;
}
