/**
 * XML rendering for the AWS Query protocol as CloudFormation speaks it: `<ActionResponse>` with
 * an `<ActionResult>` and `<ResponseMetadata>`, lists as `<member>` elements, errors as
 * `<ErrorResponse>`.
 */

const NS = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';

/** An XML node: text, a nested element list, or absent (skipped). */
export type XmlValue = string | number | boolean | undefined | XmlNode[];
export interface XmlNode {
  name: string;
  value: XmlValue;
}

/** Builds an element; undefined values are skipped when rendering. */
export function el(name: string, value: XmlValue): XmlNode {
  return { name, value };
}

/** A Query-protocol list: each item wrapped in `<member>`. */
export function members(name: string, items: XmlNode[][]): XmlNode {
  return el(
    name,
    items.map((children) => el('member', children)),
  );
}

/** Escapes text for XML content. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function render(node: XmlNode): string {
  if (node.value === undefined) return '';
  if (Array.isArray(node.value)) return `<${node.name}>${node.value.map(render).join('')}</${node.name}>`;
  return `<${node.name}>${escapeXml(String(node.value))}</${node.name}>`;
}

/** A successful response body for `action`. */
export function responseXml(action: string, result: XmlNode[], requestId: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<${action}Response xmlns="${NS}">` +
    render(el(`${action}Result`, result)) +
    render(el('ResponseMetadata', [el('RequestId', requestId)])) +
    `</${action}Response>`
  );
}

/** An error response body, as CloudFormation returns for `ValidationError`, `Throttling` and the like. */
export function errorXml(code: string, message: string, requestId: string, type: 'Sender' | 'Receiver' = 'Sender'): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<ErrorResponse xmlns="${NS}">` +
    render(el('Error', [el('Type', type), el('Code', code), el('Message', message)])) +
    render(el('RequestId', requestId)) +
    `</ErrorResponse>`
  );
}

/** Epoch milliseconds as the ISO 8601 timestamp CloudFormation sends. */
export function iso(ms: number | undefined): string | undefined {
  return ms === undefined ? undefined : new Date(ms).toISOString();
}
