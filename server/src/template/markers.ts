/**
 * The cheap first test of whether a text can be a CloudFormation template, with no parsing: the
 * language server's main thread runs it on every open document.
 */

/** Only texts that mention one of these keys can be templates; the rest is rejected without parsing. */
const TEMPLATE_MARKERS = ['AWSTemplateFormatVersion', 'Resources'];

/** Whether a text mentions a key every template has. */
export function mayBeTemplate(text: string): boolean {
  return TEMPLATE_MARKERS.some((marker) => text.includes(marker));
}
