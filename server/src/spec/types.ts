/**
 * What the resource specification says about a resource type and its properties.
 */

/**
 * How CloudFormation updates a resource when one property changes, worst last.
 * `unknown` is used for types or properties the specification does not know:
 * it is never to be read as safe.
 */
export type UpdateBehavior =
  | 'no-interruption'
  | 'some-interruption'
  | 'conditional-replacement'
  | 'replacement'
  | 'not-updatable'
  | 'unknown';

/** Whether changing a property recreates the resource, in the words of a change set's `RequiresRecreation`. */
export type RequiresRecreation = 'Never' | 'Conditionally' | 'Always';

export interface PropertyBehavior {
  behavior: UpdateBehavior;
  /**
   * What a change set says for this path: the specification's own replacement statement at the
   * deepest level that states one ("maybe" is `Conditionally`), before the documentation overlay
   * refines `behavior`. An instance's InstanceType is `Conditionally` here and `some-interruption` there.
   */
  requiresRecreation: RequiresRecreation;
  /** Where the answer came from: the CDK service spec, the documentation overlay, or a rule for an unknown type/property. */
  source: 'spec' | 'docs' | 'custom-resource' | 'unknown-type' | 'unknown-property';
  /** The property path that decided the behaviour (may be a prefix of the one asked about). */
  decidedAt: string[];
  /** Documentation link for the property, when the spec has one. */
  documentationUrl?: string;
}

export interface ResourceTypeInfo {
  type: string;
  /** False for third-party, private or brand-new types the spec does not list. */
  known: boolean;
  /** The whole type cannot be updated (e.g. AWS::CloudFormation::WaitCondition). */
  notUpdatable: boolean;
  documentationUrl?: string;
  /** One-paragraph description from the spec, when present. */
  description?: string;
  /** Names of `Fn::GetAtt` attributes. */
  attributes: string[];
  /**
   * Attributes that return the same-named property's value and that an update in place cannot
   * change (same name and scalar shape, and the property requires replacement to change); absent
   * when the type has none. See server/scripts/build-spec.ts for the rule.
   */
  propertyEchoes?: readonly string[];
  /** Names of top-level properties. */
  properties: string[];
  /** Whether this is a custom resource (`Custom::*`, `AWS::CloudFormation::CustomResource`). */
  custom: boolean;
  /** The template transform this type needs (`AWS::Serverless-2016-10-31` for SAM types), when any. */
  transform?: string;
}

/** The specification index, loaded once and queried per resource type and property path. */
export interface ResourceSpec {
  /** What the spec knows about a resource type. */
  typeInfo(type: string): ResourceTypeInfo;
  /**
   * Update behaviour of the property at `path` (top-level property name first, then
   * nested property names; list indexes and map keys are skipped by the caller).
   */
  propertyBehavior(type: string, path: readonly string[]): PropertyBehavior;
  /** Property documentation text and link, for hovers. */
  propertyDocs(type: string, path: readonly string[]): { description?: string; documentationUrl?: string } | undefined;
}
