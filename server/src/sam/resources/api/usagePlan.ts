/**
 * API keys and usage plans of a REST API (`Auth.UsagePlan`): per API (`<Api>UsagePlan`,
 * `<Api>ApiKey`, `<Api>UsagePlanKey`) or shared by every API of the template that asks for it
 * (`ServerlessUsagePlan`, `ServerlessApiKey`, `ServerlessUsagePlanKey`).
 */
import { noteParameterWithoutValue, type SamResource, type TranslationContext } from '../../model/context';
import { invalidResource } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { parameterWithoutValue } from '../../model/intrinsics';
import { isMap, plainEqual, type PlainMap } from '../../model/values';

const FIELDS = ['CreateUsagePlan', 'Description', 'Quota', 'Tags', 'Throttle', 'UsagePlanName'];


/** The usage plan, API key and usage plan key an API's `Auth.UsagePlan` asks for. */
export function constructUsagePlan(ctx: TranslationContext, sam: SamResource, auth: PlainMap | undefined, stage: GeneratedResource): GeneratedResource[] {
  const settings = auth?.UsagePlan;
  if (settings === undefined || settings === null) return [];
  if (!isMap(settings)) throw invalidResource(sam.logicalId, "'UsagePlan' must be a dictionary", ['Properties', 'Auth', 'UsagePlan']);
  if (!Object.keys(settings).every((k) => FIELDS.includes(k))) throw invalidResource(sam.logicalId, "Invalid property for 'UsagePlan'", ['Properties', 'Auth', 'UsagePlan']);
  let create = settings.CreateUsagePlan;
  const parameter = parameterWithoutValue(create, ctx.parameters);
  if (parameter !== undefined) {
    // A parameter with no value at hand: a plan of the API's own stands in for the one CloudFormation's value picks.
    noteParameterWithoutValue(ctx, sam, 'Auth.UsagePlan.CreateUsagePlan', parameter);
    create = 'PER_API';
  }
  if (create === undefined || create === null) throw invalidResource(sam.logicalId, "'CreateUsagePlan' is a required field for UsagePlan.", ['Properties', 'Auth', 'UsagePlan']);
  if (create !== 'SHARED' && create !== 'PER_API' && create !== 'NONE') {
    throw invalidResource(sam.logicalId, "'CreateUsagePlan' accepts one of ['SHARED', 'PER_API', 'NONE'].", ['Properties', 'Auth', 'UsagePlan', 'CreateUsagePlan']);
  }
  if (create === 'NONE') return [];
  const stageRef = { Ref: stage.logicalId };
  const apiRef = { Ref: sam.logicalId };
  const origin = 'Auth.UsagePlan';
  let plan: GeneratedResource;
  let key: GeneratedResource;
  let planKey: GeneratedResource;
  if (create === 'PER_API') {
    const attributes = sam.passThroughAttributes();
    plan = sam.generate(`${sam.logicalId}UsagePlan`, 'AWS::ApiGateway::UsagePlan', origin, attributes).setAttribute('DependsOn', [sam.logicalId]);
    plan.set('ApiStages', [{ ApiId: apiRef, Stage: stageRef }]);
    key = sam.generate(`${sam.logicalId}ApiKey`, 'AWS::ApiGateway::ApiKey', origin, attributes).setAttribute('DependsOn', [plan.logicalId]);
    key.set('Enabled', true);
    key.set('StageKeys', [{ RestApiId: apiRef, StageName: stageRef }]);
    planKey = sam.generate(`${sam.logicalId}UsagePlanKey`, 'AWS::ApiGateway::UsagePlanKey', origin, attributes).setAttribute('DependsOn', [key.logicalId]);
  } else {
    const shared = ctx.sharedUsagePlan;
    if (!shared.dependsOn.includes(sam.logicalId)) shared.dependsOn.push(sam.logicalId);
    plan = sam.generate('ServerlessUsagePlan', 'AWS::ApiGateway::UsagePlan', origin, shared.attributes(sam.entry, ctx.conditions)).setAttribute('DependsOn', shared.dependsOn);
    const apiStage = { ApiId: apiRef, Stage: stageRef };
    if (!shared.apiStages.some((s) => plainEqual(s, apiStage))) shared.apiStages.push(apiStage);
    plan.set('ApiStages', shared.apiStages);
    key = sam.generate('ServerlessApiKey', 'AWS::ApiGateway::ApiKey', origin, shared.attributes(sam.entry, ctx.conditions)).setAttribute('DependsOn', [plan.logicalId]);
    key.set('Enabled', true);
    const stageKey = { RestApiId: apiRef, StageName: stageRef };
    if (!shared.stageKeys.some((s) => plainEqual(s, stageKey))) shared.stageKeys.push(stageKey);
    key.set('StageKeys', shared.stageKeys);
    planKey = sam.generate('ServerlessUsagePlanKey', 'AWS::ApiGateway::UsagePlanKey', origin, shared.attributes(sam.entry, ctx.conditions)).setAttribute('DependsOn', [key.logicalId]);
  }
  planKey.set('KeyId', key.ref());
  planKey.set('KeyType', 'API_KEY');
  planKey.set('UsagePlanId', plan.ref());
  for (const name of ['UsagePlanName', 'Description', 'Quota', 'Tags', 'Throttle']) if (settings[name]) plan.set(name, settings[name], `Auth.UsagePlan.${name}`);
  return [plan, key, planKey];
}
