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

export interface PropertyBehavior {
  behavior: UpdateBehavior;
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
