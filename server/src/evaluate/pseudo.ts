/**
 * Pseudo parameters (`AWS::Region`, `AWS::Partition`, ...) from what the caller knows.
 */
import type { EvaluationContext } from './types';
import { UnknownValue, type Value } from './value';

/** The partition a region belongs to (`aws`, `aws-cn`, `aws-us-gov`, the isolated ones). */
export function partitionOfRegion(region: string): string {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  if (region.startsWith('us-isob-')) return 'aws-iso-b';
  if (region.startsWith('us-iso-')) return 'aws-iso';
  if (region.startsWith('eu-isoe-')) return 'aws-iso-e';
  if (region.startsWith('us-isof-')) return 'aws-iso-f';
  return 'aws';
}

/** The domain suffix of a partition's endpoints, as `AWS::URLSuffix` returns it. */
export function urlSuffixOfPartition(partition: string): string {
  switch (partition) {
    case 'aws-cn':
      return 'amazonaws.com.cn';
    case 'aws-iso':
      return 'c2s.ic.gov';
    case 'aws-iso-b':
      return 'sc2s.sgov.gov';
    case 'aws-iso-e':
      return 'cloud.adc-e.uk';
    case 'aws-iso-f':
      return 'csp.hci.ic.gov';
    default:
      return 'amazonaws.com';
  }
}

/** Names of every pseudo parameter, `AWS::NoValue` included. */
export const PSEUDO_PARAMETER_NAMES: ReadonlySet<string> = new Set([
  'AWS::AccountId',
  'AWS::NotificationARNs',
  'AWS::NoValue',
  'AWS::Partition',
  'AWS::Region',
  'AWS::StackId',
  'AWS::StackName',
  'AWS::URLSuffix',
]);

/**
 * The values of the pseudo parameters for a deployment (`AWS::NoValue` excluded: it is not a
 * value). What the caller does not know is a deploy-time value, the same before and after: the
 * account, the stack's name and id, and the Region with the partition and URL suffix it decides.
 */
export function pseudoParameterValues(ctx: EvaluationContext): Map<string, Value> {
  const partition = ctx.partition ?? (ctx.region === undefined ? undefined : partitionOfRegion(ctx.region));
  return new Map<string, Value>([
    ['AWS::AccountId', ctx.accountId ?? new UnknownValue('pseudo:AWS::AccountId', "the account's id, known where the stack is deployed")],
    ['AWS::NotificationARNs', [...(ctx.notificationArns ?? [])]],
    ['AWS::Partition', partition ?? new UnknownValue('pseudo:AWS::Partition', "the partition of the stack's Region, known where the stack is deployed")],
    ['AWS::Region', ctx.region ?? new UnknownValue('pseudo:AWS::Region', "the stack's Region, known where the stack is deployed")],
    ['AWS::StackId', ctx.stackId ?? new UnknownValue('pseudo:AWS::StackId', 'the stack id, known once the stack exists')],
    ['AWS::StackName', ctx.stackName ?? new UnknownValue('pseudo:AWS::StackName', "the stack's name, known where the stack is deployed")],
    ['AWS::URLSuffix', ctx.urlSuffix ?? (partition === undefined ? new UnknownValue('pseudo:AWS::URLSuffix', "the URL suffix of the stack's partition, known where the stack is deployed") : urlSuffixOfPartition(partition))],
  ]);
}

const PSEUDO_PARAMETER_WORDS: Readonly<Record<string, string>> = {
  'AWS::AccountId': 'the account',
  'AWS::Partition': 'the partition',
  'AWS::Region': 'the Region',
  'AWS::StackName': "the stack's name",
  'AWS::URLSuffix': 'the URL suffix',
};

/** A value only the deployment knows, by its name, in words: `the Region` for `AWS::Region`, a parameter's own name (`Size`). */
export function deployTimeValueWords(name: string): string {
  return PSEUDO_PARAMETER_WORDS[name] ?? name;
}
