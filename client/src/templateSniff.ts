/**
 * Whether an open document may be a CloudFormation template, judged from its text alone, so that
 * the language server starts only for people who edit templates. It errs towards yes: the server
 * decides for certain (template/readModel.ts `looksLikeCloudFormation`), and a template missed
 * here would get no analysis at all.
 */
import type * as vscode from 'vscode';

const LANGUAGES = new Set(['yaml', 'json']);
const SCHEMES = new Set(['file', 'untitled']);
/** What the server's test looks for: the format version key, or a resource of a CloudFormation type. */
const TEMPLATE_MARK = /AWSTemplateFormatVersion|["']?Type["']?\s*:\s*["']?(?:AWS::|Custom::|[A-Za-z0-9]+::[A-Za-z0-9]+::)/;

/** Whether `document` is YAML or JSON on disk or unsaved, and its text carries a template's mark. */
export function mayBeTemplate(document: vscode.TextDocument): boolean {
  return LANGUAGES.has(document.languageId) && SCHEMES.has(document.uri.scheme) && TEMPLATE_MARK.test(document.getText());
}
