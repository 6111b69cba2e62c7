/**
 * The value-level halves of the intrinsic functions: given already evaluated
 * arguments, compute the result, an unknown derived from symbolic inputs, or a
 * message saying why the arguments are invalid. The evaluator reports the messages
 * at the function's range.
 */
import { computeCidr } from './cidr';
import { containsSymbol, derivedUnknown, notationOf, pseudoParameterOf, renderValue, valueKey } from './render';
import { concatenate, scalarText } from './strings';
import { Concatenation, UnknownValue, isSymbolic, isValueObject, type Symbolic, type Value } from './value';

export type FunctionResult = { value: Value } | { error: string };

const ok = (value: Value): FunctionResult => ({ value });
const fail = (error: string): FunctionResult => ({ error });

/** How a value reads in an unknown's reason: an unknown by its own reason, anything else rendered. */
export function describeValue(v: Value): string {
  // A pseudo parameter only the deployment knows is described as the template writes it.
  return v instanceof UnknownValue && pseudoParameterOf(v) === undefined ? (v.notation ?? v.reason) : renderValue(v, 80);
}

/** A name for an unknown's reason: a string as it is, anything else described. */
function nameText(v: Value): string {
  return typeof v === 'string' ? v : describeValue(v);
}

/** Whether a symbolic value stands for a whole value (a list, a string) rather than a piece of text. */
function isOpaqueSymbol(v: Value): v is Symbolic {
  return isSymbolic(v) && !(v instanceof Concatenation);
}

/** CloudFormation's message for a malformed `Fn::Join`. */
export const JOIN_SHAPE =
  'Template error: every Fn::Join object requires two parameters, (1) a string delimiter and (2) a list of strings to be joined or a function that returns a list of strings (such as Fn::GetAZs) to be joined.';

/** `Fn::Join`: a string when every item is known, a concatenation when some are symbols. */
export function join(delimiter: Value, list: Value): FunctionResult {
  if (typeof delimiter !== 'string') return fail(JOIN_SHAPE);
  if (isOpaqueSymbol(list)) return ok(derivedUnknown('join', JSON.stringify(delimiter) + ':' + valueKey(list), `Fn::Join of ${describeValue(list)}`, list, { notation: `!Join [${notationOf(delimiter)}, ${notationOf(list)}]` }));
  if (!Array.isArray(list)) return fail(JOIN_SHAPE);
  // A list of plain strings (the result of Fn::Split, say) joins natively: a hostile list of
  // millions of items must not first become twice as many parts.
  if (list.every((item) => typeof item === 'string')) return ok(concatenate([(list as string[]).join(delimiter)]));
  const parts: (string | Symbolic)[] = [];
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (i > 0 && delimiter !== '') parts.push(delimiter);
    const text = scalarText(item);
    if (text !== undefined) parts.push(text);
    else if (isSymbolic(item)) parts.push(item);
    else return fail(JOIN_SHAPE);
  }
  return ok(concatenate(parts));
}

/** CloudFormation accepts the index of `Fn::Select` as a number or as a string of digits. */
function selectIndex(index: Value): number | undefined {
  if (typeof index === 'number' && Number.isInteger(index) && index >= 0) return index;
  if (typeof index === 'string' && /^\s*\d+\s*$/.test(index)) return Number(index);
  return undefined;
}

/** The message for a malformed `Fn::Select`. */
export const SELECT_SHAPE = 'Template error: Fn::Select requires a list argument with two elements: an integer index and a list';

/** `Fn::Select`: the item at an index; an unknown when the list or the index is known only at deploy time. */
export function select(index: Value, list: Value): FunctionResult {
  if (isSymbolic(index)) return ok(derivedUnknown('select', valueKey(index) + ':' + valueKey(list), `an item of ${describeValue(list)}`, [index, list], { notation: `!Select [${notationOf(index)}, ${notationOf(list)}]` }));
  const i = selectIndex(index);
  if (i === undefined) return fail(SELECT_SHAPE);
  if (isOpaqueSymbol(list)) return ok(derivedUnknown('select', i + ':' + valueKey(list), `item ${i} of ${describeValue(list)}`, list, { notation: `!Select [${i}, ${notationOf(list)}]` }));
  if (!Array.isArray(list)) return fail(SELECT_SHAPE);
  if (i >= list.length) return fail(`Template error: Fn::Select cannot select nonexistent value at index ${i}`);
  return ok(list[i]);
}

/** The message for a malformed `Fn::Split`. */
export const SPLIT_SHAPE = 'Template error: every Fn::Split object requires two parameters, (1) a string delimiter and (2) a string to be split or a function that returns a string to be split.';

/** `Fn::Split`: the pieces of a known string; an unknown for a symbolic one, since a symbol's text may hold the delimiter. */
export function split(delimiter: Value, source: Value): FunctionResult {
  if (typeof delimiter !== 'string' || delimiter === '') return fail(SPLIT_SHAPE);
  if (isSymbolic(source)) return ok(derivedUnknown('split', JSON.stringify(delimiter) + ':' + valueKey(source), `Fn::Split of ${describeValue(source)}`, source, { notation: `!Split [${notationOf(delimiter)}, ${notationOf(source)}]` }));
  const text = scalarText(source);
  if (text === undefined) return fail(SPLIT_SHAPE);
  return ok(text.split(delimiter));
}

/** `Fn::Base64`: the base64 text of a known string; an unknown keyed by its input otherwise. */
export function base64(input: Value): FunctionResult {
  if (isSymbolic(input)) return ok(derivedUnknown('base64', valueKey(input), `Fn::Base64 of ${describeValue(input)}`, input, { notation: `!Base64 ${notationOf(input)}` }));
  const text = scalarText(input);
  if (text === undefined) return fail('Template error: Fn::Base64 requires a string argument');
  return ok(Buffer.from(text, 'utf8').toString('base64'));
}

function integerArgument(v: Value): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number(v);
  return undefined;
}

/** The message for a malformed `Fn::Cidr`. */
export const CIDR_SHAPE = 'Template error: Fn::Cidr requires three parameters: an address block, a count of subnets and the number of subnet bits';

/** `Fn::Cidr`: the subnets of a known block; an unknown when any argument is symbolic. */
export function cidr(ipBlock: Value, count: Value, cidrBits: Value): FunctionResult {
  if (isSymbolic(ipBlock) || isSymbolic(count) || isSymbolic(cidrBits)) {
    const args: Value = [ipBlock, count, cidrBits];
    return ok(derivedUnknown('cidr', valueKey(args), `Fn::Cidr of ${describeValue(ipBlock)}`, args));
  }
  const n = integerArgument(count);
  const bits = integerArgument(cidrBits);
  if (typeof ipBlock !== 'string' || n === undefined || bits === undefined) return fail(CIDR_SHAPE);
  const result = computeCidr(ipBlock.trim(), n, bits);
  return 'error' in result ? fail('Template error: ' + result.error) : ok(result.subnets);
}

/** `Fn::Length` (AWS::LanguageExtensions): the number of items of a list. */
export function length(list: Value): FunctionResult {
  if (isOpaqueSymbol(list)) return ok(derivedUnknown('length', valueKey(list), `the length of ${describeValue(list)}`, list));
  if (!Array.isArray(list)) return fail('Template error: Fn::Length requires a list argument');
  return ok(list.length);
}

/** `Fn::ToJsonString` (AWS::LanguageExtensions): compact JSON text of an object or a list. */
export function toJsonString(input: Value): FunctionResult {
  if (!Array.isArray(input) && !isValueObject(input)) {
    if (isSymbolic(input)) return ok(derivedUnknown('tojson', valueKey(input), `Fn::ToJsonString of ${describeValue(input)}`, input));
    return fail('Template error: Fn::ToJsonString requires an object or a list argument');
  }
  // A symbol's text could need JSON escaping or stand for a list, so any symbol makes the whole text unknown.
  if (containsSymbol(input)) return ok(derivedUnknown('tojson', valueKey(input), `Fn::ToJsonString of ${describeValue(input)}`, input));
  return ok(JSON.stringify(input));
}

export type Tri = true | false | 'unknown';

/** `Fn::Equals` as CloudFormation compares: scalars by their text, lists and maps item by item; symbols decide only when identical. */
export function equalsTri(a: Value, b: Value): Tri {
  if (!containsSymbol(a) && !containsSymbol(b)) return looseEqual(a, b);
  return valueKey(a) === valueKey(b) ? true : 'unknown';
}

function looseEqual(a: Value, b: Value): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => looseEqual(x, b[i]));
  }
  if (isValueObject(a) || isValueObject(b)) {
    if (!isValueObject(a) || !isValueObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && looseEqual(a[k], b[k]));
  }
  return (scalarText(a) ?? '') === (scalarText(b) ?? '');
}

/** Kleene conjunction: false wins, then unknown. */
export function andTri(values: Tri[]): Tri {
  if (values.includes(false)) return false;
  return values.includes('unknown') ? 'unknown' : true;
}

/** Kleene disjunction: true wins, then unknown. */
export function orTri(values: Tri[]): Tri {
  if (values.includes(true)) return true;
  return values.includes('unknown') ? 'unknown' : false;
}

/** The parameters `Fn::GetStackOutput` takes (its argument is a map of these). */
export const STACK_OUTPUT_PARAMETERS = ['StackName', 'OutputName', 'Region', 'RoleArn'] as const;
export type StackOutputParameter = (typeof STACK_OUTPUT_PARAMETERS)[number];
/** The parameters `Fn::GetStackOutput` cannot do without. */
export const REQUIRED_STACK_OUTPUT_PARAMETERS: readonly StackOutputParameter[] = ['StackName', 'OutputName'];

/** The message for an `Fn::GetStackOutput` whose argument is not a map of its parameters. */
export const GET_STACK_OUTPUT_SHAPE = 'Template error: Fn::GetStackOutput requires a map with StackName and OutputName, and optionally Region and RoleArn';

/**
 * `Fn::GetStackOutput`: the value of another stack's output, read by CloudFormation when this
 * stack is created or updated (a weak reference, possibly in another account or Region).
 *
 * The value is unknown here; it is keyed by the evaluated parameters, so the same reference on
 * both sides of a comparison is equal and any changed parameter changes the value. An omitted
 * Region means the stack's own Region, so writing that Region out changes nothing.
 */
export function getStackOutput(args: Partial<Record<StackOutputParameter, Value>>, ownRegion: Value): FunctionResult {
  const texts: Partial<Record<StackOutputParameter, string | Symbolic>> = {};
  for (const name of STACK_OUTPUT_PARAMETERS) {
    const v = args[name];
    if (v === undefined) continue;
    const text = isSymbolic(v) ? v : scalarText(v);
    if (text === undefined || text === '') return fail(`Template error: the ${name} of Fn::GetStackOutput must be a non-empty string`);
    texts[name] = text;
  }
  const { StackName: stack, OutputName: output, RoleArn: role } = texts;
  if (stack === undefined || output === undefined) return fail(GET_STACK_OUTPUT_SHAPE);
  const region: Value = texts.Region ?? ownRegion;
  const identity: Value = role === undefined ? [stack, output, region] : [stack, output, region, role];
  const where = texts.Region === undefined || region === ownRegion ? '' : ` in ${nameText(region)}`;
  const reason = `output ${nameText(output)} of stack ${nameText(stack)}${where}`;
  const written = Object.entries(texts).map(([name, text]) => `${name}: ${notationOf(text)}`).join(', ');
  return ok(derivedUnknown('stackoutput', valueKey(identity), reason, identity, { notation: `!GetStackOutput {${written}}` }));
}

/** Whether a name is one of the parameters of `Fn::GetStackOutput`. */
export function isStackOutputParameter(name: string): name is StackOutputParameter {
  return (STACK_OUTPUT_PARAMETERS as readonly string[]).includes(name);
}

/** Whether a value is or holds the value of an `Fn::GetStackOutput`. */
export function readsStackOutput(v: Value): boolean {
  return containsSymbol(v) && valueKey(v).includes('{?stackoutput:');
}

/**
 * The error for an `Fn::GetStackOutput` written where CloudFormation cannot resolve it yet. The
 * Template Reference Guide lists these places under "Known limitations" (inside Fn::Base64, inside
 * Fn::ImportValue, inside an Fn::Sub variable map, as an output's Value, inside Fn::Equals in
 * Conditions) and says each fails with InternalFailure until a future update supports it.
 */
export function stackOutputPlacementError(where: string): string {
  return `Fn::GetStackOutput ${where} is not supported yet: CloudFormation fails the stack operation with an InternalFailure error`;
}
