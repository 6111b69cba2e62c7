/**
 * The one helper of the evaluate suites: parse a template with the real parser, read its
 * model and evaluate it in a fixed deployment context (overridable per test).
 */
import { parseTemplate, readTemplateModel } from '../../../server/src/template/index';
import { evaluateTemplate, type EvaluatedTemplate, type EvaluationContext } from '../../../server/src/evaluate/index';

/** Evaluates template text in us-east-1, account 123456789012, stack `demo`, with the given overrides. */
export function evaluateText(text: string, ctx: Partial<EvaluationContext> = {}): EvaluatedTemplate {
  const model = readTemplateModel(parseTemplate(text));
  return evaluateTemplate(model, { parameters: {}, region: 'us-east-1', accountId: '123456789012', stackName: 'demo', ...ctx });
}
