/**
 * What SAM's two API document editors share (samtranslator/open_api/base_editor.py): the paths of
 * a swagger or OpenAPI document, their `Fn::If` branches, methods and integrations. The swagger
 * editor of REST APIs (swaggerEditor.ts) and the OpenAPI editor of HTTP APIs (openApiEditor.ts)
 * build on it.
 */
import { invalidDocument, SamError } from '../../model/errors';
import { PyDict, PyUnicode, textOf, type PlainPyDict, type PyStr, type PyValue } from '../../python/py27Dict';
import { isPyMap, pyGet, pyHas, pySize, pyText, pyTruthy } from '../../model/pyValues';

export const X_INTEGRATION = 'x-amazon-apigateway-integration';
export const X_ANY_METHOD = 'x-amazon-apigateway-any-method';
export const CONDITIONAL_IF = 'Fn::If';
export const OPENAPI_VERSION_3 = /^3(\.\d)(\.\d)?$/;

export type PyMap = PyDict | PlainPyDict;

/** Whether a value is SAM's `Fn::If`: a dict with that key. */
export function isConditional(value: PyValue | undefined): value is PyMap {
  return isPyMap(value) && pyHas(value, CONDITIONAL_IF);
}

function isNoValue(value: PyValue | undefined): boolean {
  return isPyMap(value) && pySize(value) === 1 && pyText(pyGet(value, 'Ref')) === 'AWS::NoValue';
}

/** `get_conditional_contents`: the branches of an `Fn::If` (without `AWS::NoValue`), or the value itself. */
export function conditionalContents(item: PyValue | undefined): PyValue[] {
  if (isConditional(item)) {
    const branches = pyGet(item, CONDITIONAL_IF);
    if (!Array.isArray(branches)) throw invalidDocument('Value of Fn::If must be a list.');
    return branches.slice(1).filter((b) => !isNoValue(b));
  }
  return [item ?? null];
}

/** `make_conditional`: `{"Fn::If": [condition, data, {"Ref": "AWS::NoValue"}]}` (a plain dict). */
export function makePyConditional(condition: PyValue, data: PyValue): PlainPyDict {
  return { [CONDITIONAL_IF]: [condition, data, { Ref: 'AWS::NoValue' }] };
}

/** `_normalize_method_name`: lower case, and `any` as API Gateway's any-method extension. */
export function normalizeMethod(method: PyStr): PyStr {
  const lower = textOf(method).toLowerCase();
  if (lower === 'any') return X_ANY_METHOD;
  return method instanceof PyUnicode ? new PyUnicode(lower) : lower;
}

export function pathItemError(path: PyStr): SamError {
  return invalidDocument(`Value of '${textOf(path)}' path must be a dictionary according to Swagger spec.`);
}


/** The document and its paths, with the reads and edits both editors make of them. */
export class BaseEditor {
  constructor(
    protected readonly doc: PyDict,
    readonly paths: PyDict,
  ) {}

  /** The paths in the document's order. */
  *iterOnPath(): Generator<PyStr, void, undefined> {
    for (const [key] of this.paths.items()) yield key;
  }

  hasPath(path: PyStr, method?: PyStr): boolean {
    const item = this.paths.get(textOf(path));
    if (item === undefined) return false;
    if (method === undefined) return true;
    const normalized = textOf(normalizeMethod(method));
    return conditionalContents(item).some((content) => isPyMap(content) && pyHas(content, normalized));
  }

  /** Whether the path already has an integration for the method. */
  hasIntegration(path: PyStr, method: PyStr): boolean {
    const normalized = textOf(normalizeMethod(method));
    const item = this.paths.get(textOf(path));
    if (item === undefined) return false;
    for (const content of conditionalContents(item)) {
      if (!isPyMap(content)) throw pathItemError(path);
      const definition = pyGet(content, normalized);
      if (!isPyMap(definition) || !this.methodHasIntegration(definition)) return false;
    }
    return true;
  }

  protected methodHasIntegration(method: PyMap): boolean {
    return conditionalContents(method).some((definition) => isPyMap(definition) && pyTruthy(pyGet(definition, X_INTEGRATION)));
  }

  /** `add_path`: the path and method, as empty dicts where missing. */
  addPath(path: PyStr, method: PyStr): void {
    const normalized = normalizeMethod(method);
    const item = this.paths.setdefault(path, new PyDict());
    if (!isPyMap(item)) throw pathItemError(path);
    for (const content of conditionalContents(item)) {
      if (!(content instanceof PyDict)) throw pathItemError(path);
      content.setdefault(normalized, new PyDict());
    }
  }

  /** The path items of a path (the branches of its `Fn::If`), each checked to be a dict. */
  protected pathItems(path: PyStr): PyDict[] {
    return conditionalContents(this.paths.get(textOf(path))).map((item) => {
      if (!(item instanceof PyDict)) throw pathItemError(path);
      return item;
    });
  }

  makePathConditional(path: PyStr, condition: PyValue): void {
    this.paths.set(path, makePyConditional(condition, this.paths.get(textOf(path)) ?? null));
  }

  /** `iter_on_method_definitions_for_path_at_method`. */
  protected definitionsAt(path: PyStr, method: PyStr, skipWithoutIntegration = true): PyDict[] {
    const normalized = textOf(normalizeMethod(method));
    const out: PyDict[] = [];
    for (const item of this.pathItems(path)) {
      if (!item.has(normalized)) continue;
      for (const definition of conditionalContents(item.get(normalized))) {
        if (!isPyMap(definition)) throw invalidDocument(`Definition of method '${normalized}' for path '${textOf(path)}' should be a map.`);
        if (skipWithoutIntegration && !pyTruthy(pyGet(definition, X_INTEGRATION))) continue;
        out.push(definition as PyDict);
      }
    }
    return out;
  }

  protected existingSecurity(definition: PyDict, path: PyStr, method: string): PyValue[] {
    // Python's `get('security', [])`: a key written with no value is None, which is not a list.
    const security = definition.has('security') ? definition.get('security') : [];
    if (!Array.isArray(security)) throw invalidDocument(`Type of security for path ${textOf(path)} method ${method} must be a list`);
    return security;
  }
}
