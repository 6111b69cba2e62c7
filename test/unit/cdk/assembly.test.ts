/**
 * Reading a cloud assembly as the cloud assembly schema writes it: stacks, nested assemblies of
 * stages, environments, construct paths and the app's own frame of a creation trace.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readCloudAssembly, type AssemblyFileReader } from '../../../server/src/cdk/assembly';
import { constructPath, sourceOfTrace } from '../../../server/src/cdk/constructs';

function reader(files: Record<string, unknown>): { read: AssemblyFileReader; asked: string[] } {
  const asked: string[] = [];
  const read: AssemblyFileReader = (path) => {
    asked.push(path);
    return path in files ? { ok: true, text: JSON.stringify(files[path]) } : { ok: false, message: `no ${path}` };
  };
  return { read, asked };
}

describe('readCloudAssembly', () => {
  test('stacks of the root and of nested assemblies, with their names, environments and constructs', () => {
    const { read } = reader({
      'manifest.json': {
        version: '48.0.0',
        artifacts: {
          'Svc.assets': { type: 'cdk:asset-manifest', properties: { file: 'Svc.assets.json' } },
          Svc: {
            type: 'aws:cloudformation:stack',
            environment: 'aws://unknown-account/unknown-region',
            properties: { templateFile: 'Svc.template.json' },
            metadata: { '/Svc/Orders/Resource': [{ type: 'aws:cdk:logicalId', data: 'OrdersA9B65338' }, { type: 'aws:cdk:warning', data: 'x' }] },
            displayName: 'Svc',
          },
          assemblyProd: { type: 'cdk:cloud-assembly', properties: { directoryName: 'assembly-Prod', displayName: 'Prod' } },
          Tree: { type: 'cdk:tree', properties: { file: 'tree.json' } },
        },
      },
      'assembly-Prod/manifest.json': {
        version: '48.0.0',
        artifacts: {
          ProdSvc66695059: {
            type: 'aws:cloudformation:stack',
            environment: 'aws://111122223333/REGION-A',
            properties: { templateFile: 'ProdSvc66695059.template.json', stackName: 'Prod-Svc' },
            metadata: { '/Prod/Svc/Handler/ServiceRole/DefaultPolicy/Resource': [{ type: 'aws:cdk:logicalId', data: 'HandlerServiceRoleDefaultPolicyCBD0CC91' }] },
            displayName: 'Prod/Svc',
          },
        },
      },
    });
    const result = readCloudAssembly(read);
    assert.ok(result.ok);
    assert.deepEqual(
      result.assembly.stacks.map((s) => ({ ...s, constructs: Object.fromEntries(s.constructs) })),
      [
        { artifactId: 'Svc', displayName: 'Svc', stackName: 'Svc', templateFile: 'Svc.template.json', constructs: { OrdersA9B65338: { path: 'Svc/Orders' } } },
        {
          artifactId: 'ProdSvc66695059',
          displayName: 'Prod/Svc',
          stackName: 'Prod-Svc',
          account: '111122223333',
          region: 'REGION-A',
          templateFile: 'assembly-Prod/ProdSvc66695059.template.json',
          constructs: { HandlerServiceRoleDefaultPolicyCBD0CC91: { path: 'Prod/Svc/Handler/ServiceRole/DefaultPolicy' } },
        },
      ],
    );
  });

  test('paths that leave the assembly are not followed, and a manifest that is not JSON is an error value', () => {
    const { read, asked } = reader({
      'manifest.json': {
        artifacts: {
          Out: { type: 'cdk:cloud-assembly', properties: { directoryName: '../elsewhere' } },
          Abs: { type: 'aws:cloudformation:stack', properties: { templateFile: '/etc/passwd' } },
        },
      },
    });
    const result = readCloudAssembly(read);
    assert.ok(result.ok);
    assert.deepEqual(result.assembly.stacks, []);
    assert.deepEqual(asked, ['manifest.json']);
    assert.deepEqual(readCloudAssembly(() => ({ ok: true, text: '{' })).ok, false);
    assert.deepEqual(readCloudAssembly(() => ({ ok: false, message: 'cannot read cdk.out/manifest.json: ENOENT' })), { ok: false, message: 'cannot read cdk.out/manifest.json: ENOENT' });
  });
});

describe('construct paths and creation traces', () => {
  test("a path loses its leading slash and CDK's default child", () => {
    assert.equal(constructPath('/Svc/Orders/Resource'), 'Svc/Orders');
    assert.equal(constructPath('/Svc/CDKMetadata/Default'), 'Svc/CDKMetadata');
    assert.equal(constructPath('/Svc/Handler/ServiceRole'), 'Svc/Handler/ServiceRole');
  });

  test("the app's frame is the first outside packages, Node's internals and jsii's runtime", () => {
    const node = [
      'new Table2 (/app/node_modules/aws-cdk-lib/aws-dynamodb/lib/table.js:1:23420)',
      'new ServiceStack (/app/lib/service-stack.ts:13:19)',
      '<anonymous> (/app/bin/service.ts:6:1)',
    ];
    assert.deepEqual(sourceOfTrace(node), { file: '/app/lib/service-stack.ts', line: 13, column: 19 });
    assert.deepEqual(sourceOfTrace(['node:internal/main/run_main_module:28:49', 'C:\\app\\lib\\stack.js:4:7']), { file: 'C:\\app\\lib\\stack.js', line: 4, column: 7 });
    // A Python app runs the CDK in jsii's JavaScript runtime: its frames are not the app's code.
    const python = ['new Table (/tmp/jsii-kernel-abc/node_modules/aws-cdk-lib/aws-dynamodb/lib/table.js:1:2)', 'Kernel._Kernel_create (/tmp/tmpx1/lib/program.js:9901:25)'];
    assert.equal(sourceOfTrace(python), undefined);
    assert.equal(sourceOfTrace(undefined), undefined);
  });
});
