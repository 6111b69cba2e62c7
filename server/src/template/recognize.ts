/**
 * Whether a text is a CloudFormation template, judged by its content as the language server
 * judges an open file: it must mention one of the template's keys (markers.ts), and then parse to
 * a map that declares the format version or a resource of a CloudFormation type.
 */
import { mayBeTemplate } from './markers';
import { parseTemplate } from './parse';
import { readTemplateModel } from './readModel';

/** Whether a text is a CloudFormation template (JSON or YAML). */
export function isTemplateText(text: string): boolean {
  return mayBeTemplate(text) && readTemplateModel(parseTemplate(text)).isCloudFormation;
}
