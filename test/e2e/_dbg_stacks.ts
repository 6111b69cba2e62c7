import { freePort, startCodeServer } from './support/code-server';
import { startEndpoint } from '../endpoint/server';
import { vsixPath } from './support/paths';
import { Workbench } from './support/workbench';
import { createGitWorkspace } from './support/workspace';
async function main() {
  const port = await freePort();
  const workspace = createGitWorkspace({ 'README.md': 'x\n' }, {});
  const settings = { 'cfnImpact.aws.endpoint': `http://127.0.0.1:${port}`, 'cfnImpact.aws.regions': ['us-east-1'], 'cfnImpact.trace.server': 'verbose' };
  const server = await startCodeServer({ name: 'stacksdbg', workspace: workspace.path, vsix: vsixPath(), settings,
    env: { AWS_ACCESS_KEY_ID: 'AKIAE2ETESTEXAMPLE', AWS_SECRET_ACCESS_KEY: 'e2e-not-a-secret', AWS_REGION: 'us-east-1' } });
  const wb = await Workbench.open(server.url, 'stacksdbg');
  const endpoint = await startEndpoint({ scenarios: ['update-replacement'], port, stepMs: 1500 });
  await wb.openViewContainer('CloudFormation');
  const t0 = Date.now();
  while (Date.now() - t0 < 33_000) {
    const rows = await wb.sideBarRows();
    console.log(((Date.now() - t0) / 1000).toFixed(1), rows.map((r) => r.text.replace(/\s+/g, ' ')).join(' | ').slice(0, 300));
    await new Promise((r) => setTimeout(r, 3000));
  }
  await wb.screenshot('end');
  await wb.close(); await server.stop(); console.log(endpoint.calls.map((c) => `${c.action}:${c.outcome}@${((c.at - t0) / 1000).toFixed(1)}`).join(' ')); await endpoint.close(); workspace.remove();
}
main().catch((e) => { console.error(e); process.exit(1); });
