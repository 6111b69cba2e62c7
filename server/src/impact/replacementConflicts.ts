/**
 * Replacements whose new resource cannot exist beside the old one (docs/update-rules.md#coexistence):
 * CloudFormation creates the replacement before it deletes the old resource (3.4), so where the
 * service refuses two at once the creation fails and the update with it. A subnet replaced in the
 * same VPC with a CIDR block that overlaps its old one is such a case (EC2: "The CIDR ... conflicts
 * with another subnet"), as a replacement in another Availability Zone with the same block is.
 */
import type { EvaluatedResource } from '../evaluate/types';
import type { ChangeDetail, UpdateFailure } from './types';
import { propertyOf } from './writtenValues';

/** An IPv4 CIDR block as its first address and its size; undefined for anything else. */
function ipv4Block(value: unknown): { start: number; size: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(value);
  if (!match) return undefined;
  const octets = match.slice(1, 5).map(Number);
  const prefix = Number(match[5]);
  if (octets.some((octet) => octet > 255) || prefix > 32) return undefined;
  const address = octets.reduce((sum, octet) => sum * 256 + octet, 0);
  const size = 2 ** (32 - prefix);
  return { start: address - (address % size), size };
}

function overlaps(a: { start: number; size: number }, b: { start: number; size: number }): boolean {
  return a.start < b.start + b.size && b.start < a.start + a.size;
}

/**
 * Why the replacement of this resource cannot be created while the old one exists, when it
 * cannot: a subnet whose new CIDR block overlaps the old one's in the same VPC (its `VpcId`
 * unchanged, the VPC not replaced).
 */
export function replacementConflict(type: string, before: EvaluatedResource, after: EvaluatedResource, details: readonly ChangeDetail[]): UpdateFailure | undefined {
  if (type !== 'AWS::EC2::Subnet') return undefined;
  if (details.some((d) => d.target.name === 'VpcId' && !d.keepsValue)) return undefined;
  const written = propertyOf(after.properties, 'CidrBlock');
  const old = ipv4Block(propertyOf(before.properties, 'CidrBlock'));
  const next = ipv4Block(written);
  if (!old || !next || !overlaps(old, next) || typeof written !== 'string') return undefined;
  return { kind: 'replacement-conflict', conflict: 'subnet-cidr', value: written };
}
