/**
 * The on-disk format of the compiled specification index (server/data/generated/spec-index.json),
 * written by server/scripts/build-spec.ts and read by createResourceSpec.
 *
 * The file is valid JSON, `{"headerLength":"…","header":{…},"body":[…]}`, laid out so that a
 * reader never parses all of it: the fixed-width `headerLength` tells where the small header
 * ends, the header gives the byte span of every resource type and type definition in the body,
 * and each of those is decoded and parsed only when a lookup first needs it. Loading therefore
 * costs one file read and a ~100 KB parse, whatever the size of the specification.
 */
import type { UpdateBehavior } from './types';

/** Bumped whenever the layout or the shapes below change, so that a stale file is rebuilt rather than misread. */
export const SPEC_INDEX_FORMAT_VERSION = 3;

/** Update behaviour a source stated for a property. */
export type StatedBehavior = Exclude<UpdateBehavior, 'unknown'>;

export interface CompiledProperty {
  /**
   * Stated update behaviour, after the documentation overlay was merged. Absent means the
   * sources said nothing: at the top level that is "updatable without interruption" (the spec's
   * default); at a nested level it means "as the enclosing property".
   */
  b?: StatedBehavior;
  /** 1 when `b` comes from the documentation overlay rather than the CDK spec. */
  o?: 1;
  /**
   * The CDK spec's own statement, kept when the overlay replaced it in `b`. Change sets' RequiresRecreation
   * follows the specification (an instance's InstanceType: the spec says "maybe", the documentation
   * "some interruptions"), so both are needed.
   */
  s?: StatedBehavior;
  /** Positions of the property's object type(s) among the type definitions (element type for lists and maps). */
  t?: number[];
  /** First paragraph of the property's documentation. */
  d?: string;
}

export interface CompiledTypeDefinition {
  /** The spec's name of the property type (e.g. `BlockDeviceMapping`), used for documentation links. */
  n: string;
  p: Record<string, CompiledProperty>;
}

export interface CompiledResourceType {
  /** First paragraph of the type's documentation. */
  d?: string;
  /** Names of `Fn::GetAtt` attributes. */
  a: string[];
  /**
   * Attributes that echo the same-named property: same scalar shape, and the property requires
   * replacement to change, so an update in place cannot change the attribute (see build-spec.ts).
   */
  e?: string[];
  p: Record<string, CompiledProperty>;
  /** 1 when the type cannot be updated at all. */
  u?: 1;
  /** CloudFormation transform the type needs (e.g. `AWS::Serverless-2016-10-31`). */
  x?: string;
  /**
   * Extra property paths (list wildcards removed, joined with `/`) that require replacement
   * although no single property definition says so (e.g. keys of tags on some types).
   */
  r?: string[];
}

/** The header of the file: provenance and where each entry's JSON text lies in the body. */
export interface SpecIndexHeader {
  formatVersion: number;
  /** Version of @aws-cdk/aws-service-spec the index was built from. */
  specVersion: string;
  /** The `source` note of the documentation overlay that was merged in. */
  overlaySource: string;
  /** Resource type name (e.g. `AWS::EC2::VPC`) to the [start, end) byte span of its CompiledResourceType in the body. */
  types: Record<string, [number, number]>;
  /** Byte spans of the CompiledTypeDefinition texts in the body, two numbers (start, end) per definition. */
  typeDefinitions: number[];
}

/** A loaded index: its header and the body bytes the header's spans point into. */
export interface CompiledSpecIndex {
  header: SpecIndexHeader;
  body: Uint8Array;
}

const HEADER_LENGTH_DIGITS = 10;
const PREFIX = '{"headerLength":"';
const HEADER_KEY = '","header":';
const BODY_KEY = ',"body":[';
const LEAD_LENGTH = PREFIX.length + HEADER_LENGTH_DIGITS + HEADER_KEY.length;

/** Serialises compiled entries into the file layout described above. */
export function encodeSpecIndex(
  provenance: Pick<SpecIndexHeader, 'specVersion' | 'overlaySource'>,
  types: ReadonlyMap<string, CompiledResourceType>,
  typeDefinitions: readonly CompiledTypeDefinition[],
): Uint8Array {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let offset = 0;
  const append = (value: unknown): [number, number] => {
    if (parts.length > 0) {
      parts.push(encoder.encode(','));
      offset += 1;
    }
    const bytes = encoder.encode(JSON.stringify(value));
    parts.push(bytes);
    offset += bytes.length;
    return [offset - bytes.length, offset];
  };
  const typeSpans: Record<string, [number, number]> = {};
  for (const [name, type] of types) typeSpans[name] = append(type);
  const definitionSpans = typeDefinitions.flatMap((definition) => append(definition));
  const header: SpecIndexHeader = {
    formatVersion: SPEC_INDEX_FORMAT_VERSION,
    ...provenance,
    types: typeSpans,
    typeDefinitions: definitionSpans,
  };
  const headerBytes = encoder.encode(JSON.stringify(header));
  const lead = encoder.encode(`${PREFIX}${String(headerBytes.length).padStart(HEADER_LENGTH_DIGITS, '0')}${HEADER_KEY}`);
  return concatenate([lead, headerBytes, encoder.encode(BODY_KEY), ...parts, encoder.encode(']}')]);
}

function concatenate(chunks: readonly Uint8Array[]): Uint8Array {
  const result = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    result.set(chunk, at);
    at += chunk.length;
  }
  return result;
}

/** Reads the header of an index file; an error message when the bytes are not an index of this format. */
export function decodeSpecIndex(data: Uint8Array): CompiledSpecIndex | string {
  const decoder = new TextDecoder();
  const lead = decoder.decode(data.subarray(0, LEAD_LENGTH));
  if (!lead.startsWith(PREFIX) || !lead.endsWith(HEADER_KEY)) return 'it does not start with a spec index header';
  const headerLength = Number(lead.slice(PREFIX.length, PREFIX.length + HEADER_LENGTH_DIGITS));
  const bodyStart = LEAD_LENGTH + headerLength + BODY_KEY.length;
  if (!Number.isInteger(headerLength) || bodyStart > data.length) return 'its header length is invalid';
  let header: SpecIndexHeader;
  try {
    header = JSON.parse(decoder.decode(data.subarray(LEAD_LENGTH, LEAD_LENGTH + headerLength))) as SpecIndexHeader;
  } catch (error) {
    return `its header is not valid JSON (${(error as Error).message})`;
  }
  if (header.formatVersion !== SPEC_INDEX_FORMAT_VERSION) {
    return `it has format ${String(header.formatVersion)} and this build reads format ${SPEC_INDEX_FORMAT_VERSION}`;
  }
  return { header, body: data.subarray(bodyStart) };
}
