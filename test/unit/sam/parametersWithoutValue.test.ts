/**
 * A SAM template whose parameters have no value at hand (no `Default`, none supplied, no deployed
 * stack linked): CloudFormation gives the transform every parameter's value when it deploys, so a
 * property SAM must resolve to a string (an alias name, a code hash, an application's id and
 * version, a layer's retention) is never an error there. Here the value is the stack's current one,
 * the same before and after (as UsePreviousValue), so the comparison is what it would be with any
 * value; the names SAM makes from it take the parameter's name in the value's place, and a note
 * says so at the property.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactReport } from '../../../server/src/impact/types';
import { diagnosticText } from '../../../server/src/present/findings';
import { expandServerless } from '../../../server/src/sam';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { parseTemplate, readTemplateModel, toPlain } from '../../../server/src/template';
import { SKIP_WITHOUT_TRANSLATOR_SUITE, validTranslatorInputs } from './translatorSuiteInputs';

const spec = loadResourceSpec();

function publishedFunction({ code = 's3://artifacts/app-v1.zip', sha = '' } = {}): string {
  return `Transform: AWS::Serverless-2016-10-31
Parameters:
  Stage:
    Type: String
  CodeSha:
    Type: String
Resources:
  AppFunction:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.12
      Handler: app.handler
      CodeUri: ${code}
      AutoPublishAlias: !Ref Stage
${sha}      EventInvokeConfig:
        MaximumRetryAttempts: 1
Outputs:
  Alias:
    Value: !Ref AppFunction.Alias
`;
}

function impact(before: string, after: string, parameters?: Record<string, string>): ImpactReport {
  const side = (text: string) => ({ text, ...(parameters ? { parameters } : {}) });
  return analyzeUpdate(side(before), side(after), { spec }).report;
}

/** `action logicalId` of each change that changes something, sorted. */
function actions(report: ImpactReport): string[] {
  return report.changes
    .filter((c) => c.impact !== 'none')
    .map((c) => `${c.action} ${c.logicalId}`)
    .sort();
}

function errors(report: ImpactReport): string[] {
  return report.diagnostics.filter((d) => d.severity === 'error').map(diagnosticText);
}

type Processed = { Resources: Record<string, { Type: string; DeletionPolicy?: unknown; Properties: Record<string, unknown> }> };

function processed(text: string): { template: Processed; errors: string[]; notes: { kind: string; property?: string; parameter?: string }[] } {
  const expansion = expandServerless(readTemplateModel(parseTemplate(text)), { parameters: new Map(), region: 'us-east-1', partition: 'aws' });
  return { template: toPlain(expansion.parsed.root!) as unknown as Processed, errors: expansion.parsed.errors.map((e) => e.message), notes: expansion.notes };
}

describe('SAM properties that name what SAM generates, given a parameter with no value at hand', () => {
  test('an alias named by such a parameter is not an error: the template compared with itself is a no-op, with a note at AutoPublishAlias', () => {
    const report = impact(publishedFunction(), publishedFunction());
    assert.deepEqual(errors(report), []);
    assert.equal(report.status, 'noop', report.message);
    const note = report.notes.find((n) => n.kind === 'sam-parameter-without-value');
    assert.ok(note, JSON.stringify(report.notes));
    assert.deepEqual({ ...note, range: undefined }, { kind: 'sam-parameter-without-value', logicalId: 'AppFunction', property: 'AutoPublishAlias', parameter: 'Stage', range: undefined });
  });

  test('new code under such an alias adds a version, removes the old one and updates the alias, as with any value of the parameter', () => {
    const before = publishedFunction();
    const after = publishedFunction({ code: 's3://artifacts/app-v2.zip' });
    const withValue = actions(impact(before, after, { Stage: 'prod', CodeSha: 'unused' }));
    const without = actions(impact(before, after));
    // The alias's logical id ends in the parameter's value; here, in its name.
    assert.deepEqual(without, withValue.map((action) => action.replace('AppFunctionAliasprod', 'AppFunctionAliasStage')));
    assert.ok(without.includes('Modify AppFunctionAliasStage'), without.join(', '));
    assert.equal(without.filter((a) => a.startsWith('Add AppFunctionVersion')).length, 1, without.join(', '));
  });

  test("the alias's name, and the qualifier of its event invoke config, read the parameter, which CloudFormation resolves", () => {
    const { template, errors: found } = processed(publishedFunction());
    assert.deepEqual(found, []);
    assert.deepEqual(template.Resources.AppFunctionAliasStage?.Properties.Name, { Ref: 'Stage' });
    assert.deepEqual(template.Resources.AppFunctionEventInvokeConfig?.Properties.Qualifier, { Ref: 'Stage' });
  });

  test("a code hash given by such a parameter names the version by the parameter's name and adds the parameter to the function's description", () => {
    const text = publishedFunction({ sha: '      AutoPublishCodeSha256: !Ref CodeSha\n      Description: the app\n' });
    const { template, errors: found, notes } = processed(text);
    assert.deepEqual(found, []);
    // SAM names the version by the hash given, its first ten characters.
    assert.equal(template.Resources.AppFunctionVersionCodeSha?.Type, 'AWS::Lambda::Version');
    assert.deepEqual(template.Resources.AppFunction?.Properties.Description, { 'Fn::Join': [' ', ['the app', { Ref: 'CodeSha' }]] });
    assert.deepEqual(
      notes.filter((n) => n.kind === 'sam-parameter-without-value').map((n) => `${n.property} ${n.parameter}`),
      ['AutoPublishAlias Stage', 'AutoPublishCodeSha256 CodeSha'],
    );
    const report = impact(text, text.replace('app-v1.zip', 'app-v2.zip'));
    // With the hash given, new code is a new version only when the hash changes: the same parameter, the same version.
    assert.deepEqual(actions(report), ['Modify AppFunction']);
  });

  test("an application named by such parameters is a nested stack whose template URL and tags read them; an id written out is still checked to be an ARN", () => {
    const application = (id: string) => `Transform: AWS::Serverless-2016-10-31
Parameters:
  AppId:
    Type: String
  Version:
    Type: String
Resources:
  App:
    Type: AWS::Serverless::Application
    Properties:
      Location:
        ApplicationId: ${id}
        SemanticVersion: !Ref Version
`;
    const byParameters = processed(application('!Ref AppId'));
    assert.deepEqual(byParameters.errors, []);
    const stack = byParameters.template.Resources.App!;
    assert.equal(stack.Type, 'AWS::CloudFormation::Stack');
    assert.deepEqual(stack.Properties.TemplateURL, { 'Fn::Join': ['', ['serverlessrepo:', { Ref: 'AppId' }, '@', { Ref: 'Version' }]] });
    assert.deepEqual((stack.Properties.Tags as { Key: string; Value: unknown }[]).find((t) => t.Key === 'serverlessrepo:applicationId')?.Value, { Ref: 'AppId' });
    assert.deepEqual(impact(application('!Ref AppId'), application('!Ref AppId')).status, 'noop');

    const arn = processed(application('arn:aws:serverlessrepo:us-east-1:123456789012:applications/hello'));
    assert.deepEqual(arn.errors, []);
    assert.deepEqual(arn.template.Resources.App?.Properties.TemplateURL, { 'Fn::Join': ['', ['serverlessrepo:', 'arn:aws:serverlessrepo:us-east-1:123456789012:applications/hello', '@', { Ref: 'Version' }]] });

    // The repository refuses any id but an ARN, whatever the version.
    assert.match(processed(application('not-an-arn')).errors.join('\n'), /Cannot access application: not-an-arn\./);
  });

  test("a layer's retention given by such a parameter is not an error: SAM's default, the version retained, stands in", () => {
    const text = `Transform: AWS::Serverless-2016-10-31
Parameters:
  Retention:
    Type: String
Resources:
  Libs:
    Type: AWS::Serverless::LayerVersion
    Properties:
      ContentUri: s3://artifacts/libs.zip
      RetentionPolicy: !Ref Retention
`;
    const { template, errors: found, notes } = processed(text);
    assert.deepEqual(found, []);
    const layer = Object.values(template.Resources).find((r) => r.Type === 'AWS::Lambda::LayerVersion');
    assert.equal(layer?.DeletionPolicy, 'Retain');
    assert.deepEqual(notes.map((n) => `${n.kind} ${n.property}`), ['sam-parameter-without-value RetentionPolicy']);
  });

  test("a deployment preference enabled by such a parameter stands in as enabled, SAM's default, when its Type and alias make that valid; as disabled otherwise, the one value CloudFormation would accept", () => {
    const withPreference = (preference: string) => `Transform: AWS::Serverless-2016-10-31
Parameters:
  Canary:
    Type: String
Resources:
  AppFunction:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.12
      Handler: app.handler
      CodeUri: s3://artifacts/app.zip
      AutoPublishAlias: live
      DeploymentPreference:
${preference}`;
    const enabled = processed(withPreference('        Enabled: !Ref Canary\n        Type: Canary10Percent5Minutes\n'));
    assert.deepEqual(enabled.errors, []);
    assert.ok(Object.values(enabled.template.Resources).some((r) => r.Type === 'AWS::CodeDeploy::DeploymentGroup'));
    assert.deepEqual(enabled.notes.map((n) => `${n.kind} ${n.property}`), ['sam-parameter-without-value DeploymentPreference.Enabled']);
    const withoutType = processed(withPreference('        Enabled: !Ref Canary\n'));
    assert.deepEqual(withoutType.errors, []);
    assert.ok(!Object.values(withoutType.template.Resources).some((r) => r.Type === 'AWS::CodeDeploy::DeploymentGroup'));
  });

  test("an API's domain endpoint, usage plan and source VPC given by such parameters stand in as SAM's default endpoint (REGIONAL), a plan of the API's own and a VPC id", () => {
    const text = `Transform: AWS::Serverless-2016-10-31
Parameters:
  Endpoint:
    Type: String
  PlanKind:
    Type: String
  Vpc:
    Type: String
Resources:
  Api:
    Type: AWS::Serverless::Api
    Properties:
      StageName: live
      Domain:
        DomainName: api.example.com
        CertificateArn: arn:aws:acm:us-east-1:123456789012:certificate/abc
        EndpointConfiguration: !Ref Endpoint
      Auth:
        UsagePlan:
          CreateUsagePlan: !Ref PlanKind
        ResourcePolicy:
          SourceVpcWhitelist: [!Ref Vpc, vpc-1234]
  AppFunction:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.12
      Handler: app.handler
      CodeUri: s3://artifacts/app.zip
      Events:
        Get:
          Type: Api
          Properties:
            RestApiId: !Ref Api
            Path: /items
            Method: get
`;
    const { template, errors: found, notes } = processed(text);
    assert.deepEqual(found, []);
    const domain = Object.values(template.Resources).find((r) => r.Type === 'AWS::ApiGateway::DomainName');
    assert.deepEqual(domain?.Properties.EndpointConfiguration, { Types: ['REGIONAL'] });
    assert.ok(domain?.Properties.RegionalCertificateArn);
    assert.equal(template.Resources.ApiUsagePlan?.Type, 'AWS::ApiGateway::UsagePlan');
    const policy = JSON.stringify(template.Resources.Api?.Properties.Body);
    assert.match(policy, /"aws:SourceVpc":\[\{"Ref":"Vpc"\},"vpc-1234"\]/);
    assert.deepEqual(notes.filter((n) => n.kind === 'sam-parameter-without-value').map((n) => n.property).sort(), ['Auth.ResourcePolicy.SourceVpcWhitelist', 'Auth.UsagePlan.CreateUsagePlan', 'Domain.EndpointConfiguration']);
  });

  test("an alias named by a Fn::Sub of such a parameter takes the parameter's name in the value's place; one SAM does not resolve, such as an Fn::If, is still an error", () => {
    const sub = processed(publishedFunction().replace('AutoPublishAlias: !Ref Stage', "AutoPublishAlias: !Sub '${Stage}-live'"));
    assert.deepEqual(sub.errors, []);
    assert.deepEqual(sub.template.Resources['AppFunctionAliasStageDlive']?.Properties.Name, { 'Fn::Sub': '${Stage}-live' });
    const conditional = processed(publishedFunction().replace('AutoPublishAlias: !Ref Stage', 'AutoPublishAlias: !If [IsProd, !Ref Stage, live]').replace('Resources:', 'Conditions:\n  IsProd: !Equals [!Ref CodeSha, prod]\nResources:'));
    assert.match(conditional.errors.join('\n'), /'AutoPublishAlias' must be a string or a Ref to a template parameter/);
  });

  test('a parameter the template does not declare is still an error: SAM resolves only template parameters', () => {
    const text = publishedFunction().replace('AutoPublishAlias: !Ref Stage', 'AutoPublishAlias: !Ref Undeclared');
    assert.match(processed(text).errors.join('\n'), /'AutoPublishAlias' must be a string or a Ref to a template parameter/);
  });
});

describe("the SAM translator suite's inputs with their parameters' defaults taken away", { skip: SKIP_WITHOUT_TRANSLATOR_SUITE }, () => {
  test('each valid input the analysis takes as it is, with every Default taken away, compared with itself is a no-op: CloudFormation would give the transform values', () => {
    const failures: string[] = [];
    let counted = 0;
    for (const { file, text: written } of validTranslatorInputs()) {
      // The translator's harness transforms every input; the analysis expands those that name the transform.
      const text = /^Transform:/m.test(written) ? written : `Transform: AWS::Serverless-2016-10-31\n${written}`;
      const parsed = parseTemplate(text);
      const template = parsed.root ? (toPlain(parsed.root) as { Parameters?: Record<string, unknown> }) : undefined;
      const declared = Object.values(template?.Parameters ?? {}).filter((p): p is Record<string, unknown> => typeof p === 'object' && p !== null && 'Default' in p);
      if (declared.length === 0 || impact(text, text).status !== 'noop') continue;
      for (const parameter of declared) delete parameter.Default;
      const withoutDefaults = JSON.stringify(template);
      counted++;
      const report = impact(withoutDefaults, withoutDefaults);
      if (report.status !== 'noop') failures.push(`${file}: ${report.status} ${errors(report).join(' | ')}`);
    }
    console.log(`valid inputs with defaults taken away: ${counted - failures.length}/${counted} compared with themselves are a no-op`);
    assert.ok(counted > 50, `${counted} inputs counted`);
    assert.deepEqual(failures, []);
  });
});
