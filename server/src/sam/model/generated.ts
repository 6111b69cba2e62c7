/**
 * A CloudFormation resource the transform generates, with where it came from: the SAM resource
 * and the SAM property that produced it, and for each of its properties the SAM property it was
 * read from (the source map, sourceMap.ts).
 */
import { sameInOrder, type PlainMap } from './values';

/** Resource attributes a generated resource may carry. */
export const RESOURCE_ATTRIBUTES = ['DependsOn', 'Condition', 'DeletionPolicy', 'UpdateReplacePolicy', 'UpdatePolicy', 'Metadata'] as const;

/** Where a generated resource or property comes from in the SAM template. */
export interface Origin {
  /** The SAM resource's logical id. */
  logicalId: string;
  /** The SAM property path (`Events.GetHtml`, `AutoPublishAlias`), when one property produced it. */
  property?: string;
}

/** One generated CloudFormation resource. */
export class GeneratedResource {
  /** Properties in the order they were set; `undefined` and `null` are never stored (SAM drops `None`). */
  readonly properties: PlainMap = {};
  readonly attributes: PlainMap = {};
  /** For each property name, the SAM property it was read from, when not the resource's own origin property. */
  readonly propertyOrigins = new Map<string, string>();

  constructor(
    public logicalId: string,
    readonly type: string,
    readonly origin: Origin,
    attributes?: PlainMap,
  ) {
    if (attributes) for (const [name, value] of Object.entries(attributes)) this.setAttribute(name, value);
  }

  /** Sets a property, noting the SAM property it came from; absent values leave it unset. */
  set(name: string, value: unknown, fromProperty?: string): this {
    if (value === undefined || value === null) {
      delete this.properties[name];
      return this;
    }
    this.properties[name] = value;
    if (fromProperty !== undefined) this.propertyOrigins.set(name, fromProperty);
    return this;
  }

  get(name: string): unknown {
    return this.properties[name];
  }

  setAttribute(name: string, value: unknown): this {
    if (value === undefined || value === null) delete this.attributes[name];
    else this.attributes[name] = value;
    return this;
  }

  /** `{"Ref": logicalId}`. */
  ref(): PlainMap {
    return { Ref: this.logicalId };
  }

  /** `{"Fn::GetAtt": [logicalId, attribute]}`. */
  getAtt(attribute: string): PlainMap {
    return { 'Fn::GetAtt': [this.logicalId, attribute] };
  }

  /** Whether another generated resource is this one in all a processed template shows and places of it: id, type, origin, attributes and properties (in order), and where each property was read. */
  isLike(other: GeneratedResource): boolean {
    if (other === this) return true;
    if (other.logicalId !== this.logicalId || other.type !== this.type || other.origin.logicalId !== this.origin.logicalId || other.origin.property !== this.origin.property) return false;
    if (other.propertyOrigins.size !== this.propertyOrigins.size) return false;
    for (const [name, from] of this.propertyOrigins) if (other.propertyOrigins.get(name) !== from) return false;
    return sameInOrder(this.attributes, other.attributes) && sameInOrder(this.properties, other.properties);
  }

  /** A copy with one property's value replaced where it stands (it must be set), read from the same SAM property. */
  withValue(name: string, value: unknown): GeneratedResource {
    const copy = new GeneratedResource(this.logicalId, this.type, this.origin, this.attributes);
    Object.assign(copy.properties, this.properties);
    copy.properties[name] = value;
    for (const [property, from] of this.propertyOrigins) copy.propertyOrigins.set(property, from);
    return copy;
  }

  /** A copy with one attribute set (or unset, for an absent value), as `setAttribute` would leave this one. */
  withAttribute(name: string, value: unknown): GeneratedResource {
    const copy = new GeneratedResource(this.logicalId, this.type, this.origin, this.attributes);
    copy.setAttribute(name, value);
    Object.assign(copy.properties, this.properties);
    for (const [property, from] of this.propertyOrigins) copy.propertyOrigins.set(property, from);
    return copy;
  }

  /** The resource's entry as the Resources section holds it. */
  toEntry(): PlainMap {
    const entry: PlainMap = { Type: this.type };
    for (const name of RESOURCE_ATTRIBUTES) if (name in this.attributes) entry[name] = this.attributes[name];
    for (const [name, value] of Object.entries(this.attributes)) if (!(name in entry)) entry[name] = value;
    entry.Properties = this.properties;
    return entry;
  }
}
