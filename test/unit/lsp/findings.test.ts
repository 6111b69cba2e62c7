// How the language server words the engine's findings in lenses, diagnostics and hovers: a template
// pair in, the titles and messages a person reads out. The three agree with the CLI's vocabulary.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeUpdate } from '../../../server/src/impact';
import { impactLabel } from '../../../server/src/present';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { buildCodeLenses } from '../../../server/src/lsp/codeLens';
import { buildDiagnostics } from '../../../server/src/lsp/diagnostics';
import { buildHover } from '../../../server/src/lsp/hover';
import { encodeOutline, readOutline } from '../../../server/src/lsp/worker/outline';

const spec = loadResourceSpec();

/** Analyses `after` against `before` and offers what each view shows for it. */
function shown(before: string, after: string) {
  const analysed = analyzeUpdate({ text: before }, { text: after }, { spec });
  const document = TextDocument.create('file:///stack.yaml', 'yaml', 1, after);
  const outline = readOutline(encodeOutline(analysed.after));
  const lenses = buildCodeLenses(document, outline, analysed.report, 'HEAD');
  const lineOf = (text: string) => after.split('\n').findIndex((line) => line === text);
  return {
    report: analysed.report,
    diagnostics: buildDiagnostics(document, analysed.after, analysed.report).map((d) => ({ code: d.code, message: typeof d.message === 'string' ? d.message : d.message.value })),
    lensesAt: (text: string) => lenses.filter((lens) => lens.range.start.line === lineOf(text)).map((lens) => lens.command?.title ?? ''),
    hoverAt: (text: string, character: number) => {
      const hover = buildHover(document, outline, analysed.report, spec, document.offsetAt({ line: lineOf(text), character }));
      return hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
    },
  };
}

const occurrences = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, 'gi'))?.length ?? 0;

describe('a change that will fail', () => {
  const waiting = `Resources:
  Wait:
    Type: AWS::CloudFormation::WaitCondition
    Properties:
      Timeout: '300'
`;

  test('says "will fail" once, in the diagnostic and in the lens, with the engine\'s reason', () => {
    const view = shown(waiting, waiting.replace("'300'", "'600'"));
    const failing = view.diagnostics.filter((d) => d.code === 'will-fail');
    assert.equal(failing.length, 1);
    assert.match(failing[0].message, /^Update will fail: .*AWS::CloudFormation::WaitCondition/);
    assert.equal(occurrences(failing[0].message, /will fail/), 1, failing[0].message);
    const [lens] = view.lensesAt('  Wait:');
    assert.ok(lens.startsWith(`${impactLabel('will-fail').symbol} Will fail — `), lens);
    assert.equal(occurrences(lens, /will fail/), 1, lens);
  });
});

describe('removed resources', () => {
  const kept = `AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Bucket:
    Type: AWS::S3::Bucket
  AccessLogs:
    Type: AWS::S3::Bucket
    DeletionPolicy: Retain
`;

  test('a removal kept by its DeletionPolicy is not said to be deleted', () => {
    const view = shown(kept, kept.slice(0, kept.indexOf('  AccessLogs:')));
    const titles = view.lensesAt('Resources:');
    assert.equal(titles.length, 1);
    assert.ok(titles[0].startsWith(`${impactLabel('delete').symbol} Remove AccessLogs — `), titles[0]);
    // Within 90 characters, the fate alone: the hover and the CLI name the policy.
    assert.equal(titles[0], `${impactLabel('delete').symbol} Remove AccessLogs — kept in the account`);
  });

  test('many removals: the verdict only counts them, the Resources key names three and sums up the rest', () => {
    const head = "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  Topic:\n    Type: AWS::SNS::Topic\n";
    const queues = ['A', 'B', 'C', 'D', 'E'].map((id) => `  Queue${id}:\n    Type: AWS::SQS::Queue\n`).join('');
    const view = shown(head + queues, head);
    assert.deepEqual(view.lensesAt("AWSTemplateFormatVersion: '2010-09-09'"), ['5 remove — against HEAD']);
    assert.deepEqual(
      view.lensesAt('Resources:').map((title) => title.split(' — ')[0]),
      ['− Remove QueueA', '− Remove QueueB', '− Remove QueueC', '− Remove 2 more: QueueD, QueueE'],
    );
  });
});

describe('replacements', () => {
  const widget = `Resources:
  Widget:
    Type: MyOrg::Things::Widget
    Properties: { Size: 1 }
`;

  test('a conditional replacement reads as possible, never as certain', () => {
    const view = shown(widget, widget.replace('Size: 1', 'Size: 2'));
    const [diagnostic] = view.diagnostics.filter((d) => d.code === 'conditional-replacement');
    assert.equal(diagnostic.message, 'Possible replacement: Size changed → maybe new Widget');
    assert.deepEqual(view.lensesAt('  Widget:'), [`${impactLabel('conditional-replacement').symbol} May replace — Size changed`]);
  });

  test('a replacement whose old resource is kept says so in the hover, and nothing says it is deleted', () => {
    const network = `Resources:
  Network:
    Type: AWS::EC2::VPC
    UpdateReplacePolicy: Retain
    Properties:
      CidrBlock: 10.0.0.0/16
`;
    const view = shown(network, network.replace('10.0.0.0/16', '10.1.0.0/16'));
    assert.deepEqual(view.lensesAt('  Network:'), ['⟳ Replace — CidrBlock changed']);
    const hover = view.hoverAt('  Network:', 3);
    assert.match(hover, /\*\*⟳ Replace\*\*/);
    assert.match(hover, /the old resource is kept \(UpdateReplacePolicy: Retain\)/);
    assert.doesNotMatch(hover, /deleted/);
  });
});

describe('hovers on resource attributes', () => {
  const template = `Parameters:
  Env: { Type: String }
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Alarm:
    Type: AWS::SNS::Topic
    Condition: IsProd
    DependsOn: Other
  Other:
    Type: AWS::SNS::Topic
`;

  test('Condition adds or removes the resource; DependsOn alone does not update the stack', () => {
    const view = shown(template, template);
    const condition = view.hoverAt('    Condition: IsProd', 5);
    assert.match(condition, /creates it/);
    assert.match(condition, /deletes the resource/);
    assert.doesNotMatch(condition, /does not update/);
    assert.match(view.hoverAt('    DependsOn: Other', 5), /changing it alone does not update the stack/);
  });
});

describe('an update with some interruption and the documentation link', () => {
  const before = 'Resources:\n  Box:\n    Type: AWS::EC2::Instance\n    Properties:\n      ImageId: ami-1\n      InstanceType: t3.micro\n';
  const after = before.replace('t3.micro', 't3.small');

  test('is an information diagnostic on the resource, naming the property', () => {
    const analysed = analyzeUpdate({ text: before }, { text: after }, { spec });
    const document = TextDocument.create('file:///stack.yaml', 'yaml', 1, after);
    const diagnostics = buildDiagnostics(document, analysed.after, analysed.report).filter((d) => d.source === 'cfn-impact' && d.severity === DiagnosticSeverity.Information);
    assert.equal(diagnostics.length, 1);
    assert.match(typeof diagnostics[0].message === 'string' ? diagnostics[0].message : '', /InstanceType/);
    assert.equal(diagnostics[0].range.start.line, 1);
  });

  test('a hover on the resource links to the resource type\'s documentation', () => {
    const text = shown(before, after).hoverAt('  Box:', 3);
    assert.match(text, /\]\(https:\/\/docs\.aws\.amazon\.com\/AWSCloudFormation\/latest\/(UserGuide|TemplateReference)\/aws-resource-ec2-instance\.html\)/);
  });
});

describe('parameters with no value at hand', () => {
  const app = `Parameters:
  Env: { Type: String }
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Alarms:
    Type: AWS::SNS::Topic
    Condition: IsProd
    Properties:
      TopicName: !Sub '\${Env}-alarms'
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: !Sub '\${Env}-jobs'
`;

  test('an unchanged template shows the no-op verdict, no error, and one information note on the Parameters key', () => {
    const view = shown(app, app);
    assert.deepEqual(view.lensesAt('Parameters:'), ['No updates are to be performed — against HEAD']);
    assert.deepEqual(view.diagnostics.map((d) => d.code), ['parameters-current-value']);
    assert.match(view.diagnostics[0].message, /^Parameter Env has no value here: it is compared as the stack's current value/);
  });

  test('a change under a condition decided at deploy time says so in its lens and its diagnostic', () => {
    const view = shown(app, app.replace('${Env}-alarms', '${Env}-alerts'));
    assert.deepEqual(view.lensesAt('  Alarms:'), ['⟳ Replace — TopicName changed · if IsProd holds']);
    const replacement = view.diagnostics.find((d) => d.code === 'replacement');
    assert.match(replacement!.message, / · if IsProd holds$/);
  });
});

describe('a registry module', () => {
  const before = `Resources:
  MyBucket:
    Type: My::S3::SampleBucket::MODULE
    Properties:
      BucketName: one
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: !Ref MyBucket.S3Bucket
`;

  test('is no problem in itself, and a hover says it is a module whose update behaviour is unknown', () => {
    const view = shown(before, before.replace('BucketName: one', 'BucketName: two'));
    assert.deepEqual(view.diagnostics.filter((d) => d.code !== 'conditional-replacement'), []);
    const hover = view.hoverAt('  MyBucket:', 3);
    assert.match(hover, /Registry module: the resources it expands into are not visible here; update behaviour unknown\./);
    assert.match(hover, /My::S3::SampleBucket::MODULE is a registry module/);
  });
});

describe('resources a change set lists although nothing changes for them', () => {
  const network = `Resources:
  VPC:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: 10.0.0.0/16
  SubnetA:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref VPC
      CidrBlock: !Select [0, !Cidr [!GetAtt VPC.CidrBlock, 4, 8]]
`;
  const tagged = network.replace('      CidrBlock: 10.0.0.0/16\n', '      CidrBlock: 10.0.0.0/16\n      Tags: [{ Key: team, Value: net }]\n');

  test('a subnet that re-reads the CIDR of a VPC updated in place gets no lens and no diagnostic, and the verdict counts one modify', () => {
    const view = shown(network, tagged);
    assert.equal(view.report.changes.find((c) => c.logicalId === 'SubnetA')?.impact, 'none');
    assert.deepEqual(view.lensesAt('  SubnetA:'), []);
    assert.deepEqual(view.lensesAt('Resources:'), ['1 modify — against HEAD']);
    assert.deepEqual(view.lensesAt('  VPC:'), [`${impactLabel('no-interruption').symbol} Update (no interruption) — Tags changed`]);
    assert.deepEqual(view.diagnostics.filter((d) => /replace/i.test(d.message)), []);
  });

  test('its hover says it is not changed and why a change set lists it, with no replacement claim', () => {
    const view = shown(network, tagged);
    for (const hover of [view.hoverAt('  SubnetA:', 3), view.hoverAt('      CidrBlock: !Select [0, !Cidr [!GetAtt VPC.CidrBlock, 4, 8]]', 8)]) {
      assert.match(hover, /Not changed by this update: SubnetA re-reads VPC\.CidrBlock, which keeps its value/);
      assert.doesNotMatch(hover, /Replacement:|May replace|Changed in this update/);
    }
  });
});

describe('a change set\'s Replacement Conditional that only interrupts', () => {
  const before = 'Parameters:\n  Size: { Type: String, Default: t3.micro }\nResources:\n  Box:\n    Type: AWS::EC2::Instance\n    Properties:\n      ImageId: ami-1\n      InstanceType: !Ref Size\n';

  test('a parameter that changes an instance type is one cause in the lens and an interruption, not a possible replacement', () => {
    const view = shown(before, before.replace('Default: t3.micro', 'Default: t3.small'));
    assert.equal(view.report.changes[0].replacement, 'Conditional');
    assert.deepEqual(view.lensesAt('  Box:'), [`${impactLabel('some-interruption').symbol} Update (some interruption) — InstanceType ← parameter Size`]);
    assert.deepEqual(view.diagnostics.map((d) => d.code), ['some-interruption']);
    assert.doesNotMatch(view.hoverAt('      InstanceType: !Ref Size', 8), /may require replacement/);
  });
});

describe('resources a Fn::ForEach generates, which all stand at the loop\'s text', () => {
  const queues = (names: string, timeout: number) =>
    `Transform: AWS::LanguageExtensions\nResources:\n  Fn::ForEach::Queues:\n    - Name\n    - [${names}]\n    - 'Queue\${Name}':\n        Type: AWS::SQS::Queue\n        Properties:\n          VisibilityTimeout: ${timeout}\n`;
  const functions = (names: string, handler: string) =>
    `Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]\nResources:\n  Fn::ForEach::Functions:\n    - Name\n    - [${names}]\n    - '\${Name}Function':\n        Type: AWS::Serverless::Function\n        Properties:\n          Runtime: python3.12\n          Handler: !Sub '\${Name}.${handler}'\n          CodeUri: !Sub 's3://artifacts/\${Name}.zip'\n          AutoPublishAlias: live\n`;

  test('each has its own lens on that line, which names it', () => {
    const view = shown(queues('a, b', 30), queues('a, b', 60));
    const update = `${impactLabel('no-interruption').symbol} Update (no interruption) — VisibilityTimeout changed`;
    assert.deepEqual(view.lensesAt("    - 'Queue${Name}':"), [`Queuea: ${update}`, `Queueb: ${update}`]);
  });

  test("a hover on the loop's text lists what happens to each resource it generates", () => {
    const view = shown(queues('a, b', 30), queues('a, b, c', 60));
    const update = `**${impactLabel('no-interruption').symbol} Update (no interruption)**: VisibilityTimeout changed`;
    assert.equal(
      view.hoverAt("    - 'Queue${Name}':", 8),
      [
        '**Fn::ForEach: Queuea, Queueb, Queuec**',
        '',
        'What this update does to the resources it generates:',
        `- \`Queuea\` · AWS::SQS::Queue — ${update}`,
        `- \`Queueb\` · AWS::SQS::Queue — ${update}`,
        `- \`Queuec\` · AWS::SQS::Queue — **${impactLabel('create').symbol} Add**: created: new in the template`,
      ].join('\n'),
    );
    // Inside the fragment, a property's hover stays the property's: how CloudFormation updates it.
    assert.doesNotMatch(view.hoverAt('          VisibilityTimeout: 60', 12), /Fn::ForEach/);
    assert.match(view.hoverAt('          VisibilityTimeout: 60', 12), /VisibilityTimeout/);
  });

  test('in a SAM template (AWS::LanguageExtensions listed first), a hover on the loop lists each function and what SAM generated from it', () => {
    const view = shown(functions('alpha', 'handler'), functions('alpha, beta', 'main'));
    const hover = view.hoverAt('  Fn::ForEach::Functions:', 4);
    assert.match(hover, /^\*\*Fn::ForEach::Functions\*\*\n/);
    assert.match(hover, /- `alphaFunction` · AWS::Lambda::Function — \*\*.* Update \(no interruption\)\*\*: Handler changed/);
    assert.match(hover, /- `betaFunctionRole` · AWS::IAM::Role \(SAM: from betaFunction\) — \*\*.* Add\*\*/);
  });

  test("in a SAM template (AWS::LanguageExtensions listed first), each function's one lens sums up what SAM generated for it", () => {
    const view = shown(functions('alpha', 'handler'), functions('alpha, beta', 'main'));
    assert.deepEqual(view.lensesAt("    - '${Name}Function':"), [
      `alphaFunction: Handler → ${impactLabel('no-interruption').symbol} Update (no interruption)`,
      `betaFunction: ${impactLabel('create').symbol} Add · ${impactLabel('create').symbol} version · ${impactLabel('create').symbol} alias · ${impactLabel('create').symbol} role`,
    ]);
  });
});

describe('the hover on a replaced resource', () => {
  test("says what happens and why, and does not repeat the diagnostic the editor shows beside it", () => {
    const vpc = (cidr: string) => `Resources:\n  Network:\n    Type: AWS::EC2::VPC\n    Properties:\n      CidrBlock: ${cidr}\n`;
    const view = shown(vpc('10.0.0.0/16'), vpc('10.1.0.0/16'));
    const problem = view.diagnostics.find((d) => d.code === 'replacement');
    assert.ok(problem);
    const hover = view.hoverAt('  Network:', 3);
    assert.match(hover, /\*\*⟳ Replace\*\*: CidrBlock changed/);
    assert.ok(!hover.includes(problem.message), hover);
  });
});
