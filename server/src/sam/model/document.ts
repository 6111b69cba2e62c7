/**
 * The checks SAM makes on the template as a whole before it translates anything (its parser's
 * validation): a template that fails one is not translated at all, and its error is the only one
 * SAM gives.
 */
import { invalidDocument, invalidResource, type SamError, type SamPath } from './errors';
import { ParameterWithoutValue } from './intrinsics';
import { pyStr } from '../python/pyRepr';
import type { PyValue } from '../python/py27Dict';
import { isList, isMap, type PlainMap } from './values';
import { SERVERLESS_TYPE_PREFIX } from '../../template/readModel';

/** The reason SAM rejects the template as a whole, or nothing when it can be translated. */
export function validateDocument(template: PlainMap): SamError | undefined {
  const resources = template.Resources;
  if (!isMap(resources) || Object.keys(resources).length === 0) return invalidDocument("'Resources' section is required", ['Resources']);
  if (!Object.values(resources).every(isMap)) {
    const [id] = Object.entries(resources).find(([, resource]) => !isMap(resource))!;
    return invalidDocument("All 'Resources' must be Objects. If you're using YAML, this may be an indentation issue.", ['Resources', id]);
  }
  // The transform resolves references to parameters and mappings, so each section it reads must be a map.
  for (const section of ['Mappings', 'Parameters']) {
    if (section in template && !isMap(template[section])) return invalidDocument("'Mappings' or 'Parameters' is either null or not a valid dictionary.", [section]);
  }
  for (const [id, resource] of Object.entries(resources as Record<string, PlainMap>)) {
    const condition = conditionError(id, resource);
    if (condition) return condition;
  }
  return undefined;
}

/** Why SAM rejects the template for one resource's `Condition` (it must be a string), if it does. */
export function conditionError(id: string, resource: PlainMap): SamError | undefined {
  return 'Condition' in resource && typeof resource.Condition !== 'string' ? invalidDocument('Every Condition member must be a string.', ['Resources', id, 'Condition']) : undefined;
}

/** SAM resources whose logical id CloudFormation would not take: ids are alphanumeric. */
export function invalidLogicalIds(template: PlainMap): SamError[] {
  const resources = isMap(template.Resources) ? template.Resources : {};
  const errors: SamError[] = [];
  for (const [id, resource] of Object.entries(resources)) {
    if (!isMap(resource) || typeof resource.Type !== 'string' || !resource.Type.startsWith(SERVERLESS_TYPE_PREFIX)) continue;
    if (!/^[A-Za-z0-9]+$/.test(id)) errors.push(invalidResource(id, 'Logical ids must be alphanumeric.'));
  }
  return errors;
}

/** `${Name}` in an `Fn::Sub` string (not `${!Name}`, which is written out as it is). */
const SUB_VARIABLE = /\$\{([A-Za-z0-9.:]+)\}/g;

/**
 * An `Fn::Sub` in a SAM resource that names a parameter whose value is a list or a map: the
 * transform substitutes known parameter values, and `Fn::Sub` substitutes strings only.
 */
export function nonStringSubVariable(template: PlainMap, parameters: ReadonlyMap<string, unknown>): SamError | undefined {
  const resources = isMap(template.Resources) ? template.Resources : {};
  for (const [id, resource] of Object.entries(resources)) {
    if (!isMap(resource) || typeof resource.Type !== 'string' || !resource.Type.startsWith(SERVERLESS_TYPE_PREFIX)) continue;
    const found = findNonStringSub(resource.Properties, parameters, ['Resources', id, 'Properties']);
    if (found) return found;
  }
  return undefined;
}

function findNonStringSub(value: unknown, parameters: ReadonlyMap<string, unknown>, path: SamPath): SamError | undefined {
  if (isList(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNonStringSub(value[i], parameters, [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (!isMap(value)) return undefined;
  const sub = value['Fn::Sub'];
  const text = typeof sub === 'string' ? sub : isList(sub) && typeof sub[0] === 'string' ? sub[0] : undefined;
  if (text !== undefined) {
    const own = isList(sub) && isMap(sub[1]) ? sub[1] : {};
    for (const [, name] of text.matchAll(SUB_VARIABLE)) {
      const resolved = name! in own ? undefined : parameters.get(name!);
      if (isList(resolved) || (isMap(resolved) && !(resolved instanceof ParameterWithoutValue))) {
        return invalidDocument(`Invalid Fn::Sub variable value ${pyStr(resolved as PyValue)}. Fn::Sub expects all variables to be strings.`, [...path, 'Fn::Sub']);
      }
    }
  }
  for (const [key, item] of Object.entries(value)) {
    const found = findNonStringSub(item, parameters, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
