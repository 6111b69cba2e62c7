/**
 * Choosing a template's baseline (a git revision, a file, a deployed stack, none) and remembering
 * the choice per workspace, so the server gets it back at the next start.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { chooseBaselineRequest, stackChoicesRequest, type BaselineChoice, type BaselineStatus } from '../../server/src/lsp/protocol';

const stateKey = 'cfnImpact.baselines';

/** The baselines chosen in this workspace, by document URI. */
export function rememberedChoices(state: vscode.Memento): Record<string, BaselineChoice> {
  const stored = state.get<Record<string, BaselineChoice>>(stateKey);
  return stored && typeof stored === 'object' ? stored : {};
}

/** Sends a choice to the server, remembers it, and reports a baseline that could not be read. */
export async function applyChoice(client: LanguageClient, state: vscode.Memento, uri: vscode.Uri, choice: BaselineChoice): Promise<BaselineStatus | null> {
  const choices = { ...rememberedChoices(state) };
  if (choice.kind === 'default') delete choices[uri.toString()];
  else choices[uri.toString()] = choice;
  await state.update(stateKey, choices);
  const status = await client.sendRequest(chooseBaselineRequest, { uri: uri.toString(), choice });
  if (status && (status.state === 'unreachable' || status.state === 'stale')) {
    void vscode.window.showWarningMessage(`Baseline ${status.label}: ${status.detail ?? status.state}`);
  }
  return status;
}

/** The template the command is about: the one given, else the active editor's. */
function targetDocument(argument: unknown): vscode.Uri | undefined {
  if (argument instanceof vscode.Uri) return argument;
  if (argument && typeof argument === 'object' && typeof (argument as { uri?: unknown }).uri === 'string') {
    return vscode.Uri.parse((argument as { uri: string }).uri);
  }
  return vscode.window.activeTextEditor?.document.uri;
}

/** `CloudFormation Impact: Choose Baseline`. */
export async function chooseBaseline(client: LanguageClient, state: vscode.Memento, argument: unknown): Promise<void> {
  const uri = targetDocument(argument);
  if (!uri) {
    void vscode.window.showInformationMessage('Open a CloudFormation template to choose its baseline.');
    return;
  }
  type Pick = vscode.QuickPickItem & { id: 'default' | 'git' | 'file' | 'stack' | 'none' };
  const picked = await vscode.window.showQuickPick<Pick>(
    [
      { id: 'default', label: '$(git-commit) Default', description: 'git HEAD, or the stack linked in settings' },
      { id: 'git', label: '$(git-branch) Git revision…', description: 'a branch, tag or commit' },
      { id: 'file', label: '$(file) Another file…' },
      { id: 'stack', label: '$(cloud) Deployed stack…', description: 'its template and current parameter values' },
      { id: 'none', label: '$(circle-slash) None', description: 'show template problems only' },
    ],
    { title: 'Compare this template with…' },
  );
  if (!picked) return;
  let choice: BaselineChoice | undefined;
  switch (picked.id) {
    case 'git': {
      const ref = await vscode.window.showInputBox({
        title: 'Git revision',
        value: 'HEAD~1',
        validateInput: (value) => (/^[^\s-][^\s:]*$/.test(value) && !value.includes('..') ? undefined : 'A branch, tag or commit id (no spaces, no leading "-").'),
      });
      if (ref) choice = { kind: 'git', ref };
      break;
    }
    case 'file': {
      const files = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: 'Use as baseline', filters: { Templates: ['yaml', 'yml', 'json', 'template'] } });
      if (files?.[0]) choice = { kind: 'file', path: files[0].toString() };
      break;
    }
    case 'stack':
      await linkStack(client, state, uri);
      return;
    default:
      choice = { kind: picked.id };
  }
  if (choice) await applyChoice(client, state, uri, choice);
}

/** `CloudFormation Impact: Link Stack to Template`: the deployed stack becomes the baseline. */
export async function linkStack(client: LanguageClient, state: vscode.Memento, argument: unknown): Promise<void> {
  // From the stacks view the argument names the stack; from the palette, ask for it.
  const given = argument && typeof argument === 'object' ? (argument as { stackName?: unknown; region?: unknown }) : {};
  const uri = argument instanceof vscode.Uri ? argument : vscode.window.activeTextEditor?.document.uri;
  if (!uri) {
    void vscode.window.showInformationMessage('Open the template to link, then run this command again.');
    return;
  }
  const picked = typeof given.stackName === 'string' ? { stackName: given.stackName, region: typeof given.region === 'string' ? given.region : undefined } : await pickStack(client);
  if (!picked) return;
  const { stackName, region } = picked;
  await applyChoice(client, state, uri, region ? { kind: 'stack', stackName, region } : { kind: 'stack', stackName });
}

/** A quick pick of the account's stacks (one listing per configured region), or a typed name. */
async function pickStack(client: LanguageClient): Promise<{ stackName: string; region?: string } | undefined> {
  const typeName = 'Enter a stack name…';
  const choices = client.sendRequest(stackChoicesRequest, {}).then(
    (answer) => answer,
    () => ({ stacks: [], problems: ['The stacks could not be listed.'] }),
  );
  const items = choices.then(({ stacks, problems }) => [
    ...stacks.map((s) => ({ label: s.stackName, description: `${s.region} · ${s.status}`, stackName: s.stackName, region: s.region })),
    ...problems.map((problem) => ({ label: '$(warning) Could not list every region', detail: problem, stackName: undefined, region: undefined })),
    { label: typeName, alwaysShow: true, stackName: undefined, region: undefined },
  ]);
  const picked = await vscode.window.showQuickPick(items, { title: 'Link a deployed stack to this template', placeHolder: 'Stacks of the configured regions', matchOnDescription: true });
  if (!picked) return undefined;
  if (picked.stackName) return { stackName: picked.stackName, region: picked.region };
  if (picked.label !== typeName) return undefined;
  const typed = await vscode.window.showInputBox({
    title: 'Link a deployed stack to this template',
    prompt: 'Stack name (or stack id ARN)',
    validateInput: (value) => (/^[A-Za-z][A-Za-z0-9:/-]{0,254}$/.test(value) ? undefined : 'A CloudFormation stack name or ARN.'),
  });
  return typed ? { stackName: typed } : undefined;
}
