/**
 * SAM's `profile_replace`: a connector profile's text with its variables (`%{Source.Arn}` and the
 * like) replaced by what they are for the connector's two sides. A string that is one variable
 * becomes the variable's value; variables inside a longer string become `Fn::Sub` variables
 * (`${SourceArn}`), and any `${...}` left makes the string an `Fn::Sub`.
 */
import type { PlainMap } from '../../model/values';
import { isMap } from '../../model/values';
import { setEntry } from '../../../template/tree';
import type { ProfileVariable } from './profiles';
import type { ResourceReference } from '../../model/connectable';

/** The values of a profile's variables for a pair of references. */
export function profileVariables(source: ResourceReference, destination: ResourceReference): Record<ProfileVariable, unknown> {
  return {
    'Source.Arn': source.arn,
    'Destination.Arn': destination.arn,
    'Source.ResourceId': source.resourceId,
    'Destination.ResourceId': destination.resourceId,
    'Source.Name': source.name,
    'Destination.Name': destination.name,
    'Source.Qualifier': source.qualifier,
    'Destination.Qualifier': destination.qualifier,
  };
}

/** One string of a profile with its variables replaced. */
export function replaceVariables(text: string, values: Record<ProfileVariable, unknown>): unknown {
  const whole = /^%\{([A-Za-z]+\.[A-Za-z]+)\}$/.exec(text);
  if (whole) return values[whole[1] as ProfileVariable];
  const substitutions: PlainMap = {};
  const replaced = text.replace(/%\{([A-Za-z]+)\.([A-Za-z]+)\}/g, (_match, side: string, name: string) => {
    substitutions[`${side}${name}`] = values[`${side}.${name}` as ProfileVariable];
    return `\${${side}${name}}`;
  });
  if (!/\$\{.+\}/.test(replaced)) return replaced;
  return Object.keys(substitutions).length === 0 ? { 'Fn::Sub': replaced } : { 'Fn::Sub': [replaced, substitutions] };
}

/** A profile's value (statements, a source ARN) with the variables of every string in it replaced. */
export function profileReplace(value: unknown, values: Record<ProfileVariable, unknown>): unknown {
  if (typeof value === 'string') return replaceVariables(value, values);
  if (Array.isArray(value)) return value.map((item) => profileReplace(item, values));
  if (!isMap(value)) return value;
  const out: PlainMap = {};
  for (const [key, item] of Object.entries(value)) setEntry(out, key, profileReplace(item, values));
  return out;
}
