/**
 * Evaluated values: what a template expression means once parameters, mappings,
 * conditions and intrinsic functions are resolved.
 *
 * Plain JSON data stands for itself. What only AWS knows at deploy time stays
 * symbolic: a resource's physical id, its attributes, an SSM parameter's value,
 * an import, the availability zones of a region. Symbolic values are instances of
 * `Symbolic` so they can never be confused with user data that happens to look alike.
 */

export type Value = null | boolean | number | string | Value[] | ValueObject | Symbolic;
export interface ValueObject {
  [key: string]: Value;
}

export type Symbolic = ResourceRef | ResourceAttribute | UnknownValue | Concatenation;

abstract class SymbolicBase {
  abstract readonly kind: string;
}

/** `Ref` to a resource: its physical id, known only once it exists. */
export class ResourceRef extends SymbolicBase {
  readonly kind = 'ref';
  constructor(readonly logicalId: string) {
    super();
  }
}

/** `Fn::GetAtt` of a resource attribute (`attribute` may be dotted, e.g. `Endpoint.Address`). */
export class ResourceAttribute extends SymbolicBase {
  readonly kind = 'getatt';
  constructor(
    readonly logicalId: string,
    readonly attribute: string,
  ) {
    super();
  }
}

/**
 * A value resolved only at deploy time by something other than a stack resource:
 * SSM-typed parameters, `{{resolve:...}}` dynamic references, `Fn::GetAZs`,
 * `Fn::ImportValue`, or a function applied to such a value.
 *
 * `key` identifies the expression: two unknowns with the same key are assumed to be
 * equal (CloudFormation resolves them again, to the same value unless the world changed).
 */
export class UnknownValue extends SymbolicBase {
  readonly kind = 'unknown';
  constructor(
    readonly key: string,
    /** Why the value is unknown, in words for a person: "SSM parameter /app/ami", "Fn::GetAZs". */
    readonly reason: string,
    /** The resources whose physical ids or attributes the value depends on. */
    readonly resourceDeps: readonly (ResourceRef | ResourceAttribute)[] = [],
    /** For a `Fn::FindInMap` keyed by values only the deployment knows: what it may select. */
    readonly lookup?: LookupChoices,
    /** The value as the template writes it, in CloudFormation's short form: `!ImportValue "${Env}-vpc"`, `{{resolve:ssm:/app/version}}`. */
    readonly notation?: string,
  ) {
    super();
  }
}

/**
 * What a lookup keyed by values only the deployment knows may select: which of its keys the
 * deployment decides, and each entry it may select with the keys that select it. An edit to one
 * entry changes the lookup only where the stack's keys select that entry.
 */
export interface LookupChoices {
  /** What identifies the lookup apart from its entries: its keys (and default value). */
  readonly keysKey: string;
  /** The keys only the deployment knows, by their place in `[map, top-level key, second-level key]`, named (`Size`, `AWS::Region`). */
  readonly decidedBy: readonly { readonly position: number; readonly name: string }[];
  /** Each entry it may select, at its place in Mappings. */
  readonly choices: readonly { readonly path: readonly [string, string, string]; readonly value: Value }[];
}

/** A string built from literal parts and symbolic ones (`Fn::Sub`, `Fn::Join` over symbols). */
export class Concatenation extends SymbolicBase {
  readonly kind = 'concat';
  constructor(readonly parts: readonly (string | Symbolic)[]) {
    super();
  }
}

/** Whether a value is symbolic (known only at deploy time). */
export function isSymbolic(v: unknown): v is Symbolic {
  return v instanceof SymbolicBase;
}

/** Whether a value is a plain object (a JSON map), not an array or a symbol. */
export function isValueObject(v: Value | undefined): v is ValueObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isSymbolic(v);
}
