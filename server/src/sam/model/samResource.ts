/**
 * A SAM resource as each translation reads it: its entry, its node in the text as written for
 * ranges, the attributes SAM copies, and the resources it generates.
 */
import type { MapNode, Range, TemplateNode } from '../../template/ast';
import { GeneratedResource, type Origin } from './generated';
import { isMap, type PlainMap } from './values';

/** The resource attributes SAM copies to the resources it generates from a resource. */
export const PASS_THROUGH_ATTRIBUTES = ['Condition', 'DeletionPolicy', 'UpdateReplacePolicy'] as const;
/** The resource attributes SAM keeps on the main resource it generates. */
export const SUPPORTED_ATTRIBUTES = ['DeletionPolicy', 'UpdatePolicy', 'Condition', 'UpdateReplacePolicy', 'Metadata'] as const;

/** A SAM resource as the translation reads it. */
export class SamResource {
  constructor(
    readonly logicalId: string,
    readonly type: string,
    /** The resource's entry (Type, Properties, attributes), as read or as plugins left it. */
    readonly entry: PlainMap,
    /** The resource's entry node in the template as written, for ranges. */
    readonly node: MapNode | undefined,
  ) {}

  get properties(): PlainMap {
    const properties = this.entry.Properties;
    return isMap(properties) ? properties : {};
  }

  /** The range of a property's value (`Location.ApplicationId` for one inside a map) where this resource writes it; undefined when it does not (Globals sets it, or there is no node). */
  propertyRange(property: string): Range | undefined {
    let value: TemplateNode | undefined = this.node?.entries.find((e) => e.key === 'Properties')?.value;
    for (const key of property.split('.')) value = value?.kind === 'map' ? value.entries.find((e) => e.key === key)?.value : undefined;
    return value?.range;
  }

  get condition(): unknown {
    return this.entry.Condition;
  }

  get dependsOn(): unknown {
    return this.entry.DependsOn;
  }

  /** `resource_attributes`: the supported attributes the resource sets. */
  attributes(): PlainMap {
    const out: PlainMap = {};
    for (const name of SUPPORTED_ATTRIBUTES) if (this.entry[name] !== undefined) out[name] = this.entry[name];
    return out;
  }

  /** `get_passthrough_resource_attributes()`: Condition, DeletionPolicy and UpdateReplacePolicy, where set. */
  passThroughAttributes(): PlainMap {
    const out: PlainMap = {};
    for (const name of PASS_THROUGH_ATTRIBUTES) if (this.entry[name] !== undefined) out[name] = this.entry[name];
    return out;
  }

  /** A generated resource of this SAM resource; `property` is the SAM property that produced it. */
  generate(logicalId: string, type: string, property?: string, attributes: PlainMap = this.passThroughAttributes()): GeneratedResource {
    const origin: Origin = property === undefined ? { logicalId: this.logicalId } : { logicalId: this.logicalId, property };
    return new GeneratedResource(logicalId, type, origin, attributes);
  }
}
