/**
 * The profile and region pickers. They write user settings only: the AWS settings decide where
 * signed requests go, so they live in user (machine) scope, never in a workspace.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { awsProfilesRequest, type AwsProfiles } from '../../server/src/lsp/protocol';
import { readAwsSettings } from './settings';

export const awsCommands = {
  selectProfile: 'cfnImpact.aws.selectProfile',
  selectRegions: 'cfnImpact.aws.selectRegions',
} as const;

async function profilesOf(client: LanguageClient): Promise<AwsProfiles> {
  try {
    return await client.sendRequest(awsProfilesRequest, {});
  } catch {
    return { profiles: [], regions: [] };
  }
}

/** Picks the AWS profile from the shared config and credentials files. */
export async function selectProfile(client: LanguageClient): Promise<void> {
  const { profiles } = await profilesOf(client);
  const current = readAwsSettings().profile;
  const fromEnvironment = 'From the environment (AWS_PROFILE, else default)';
  const items: (vscode.QuickPickItem & { profile?: string })[] = [
    { label: fromEnvironment, description: current === undefined ? 'current' : undefined },
    ...profiles.map((p) => ({
      label: p.name,
      profile: p.name,
      description: [p.region, p.name === current ? 'current' : undefined].filter(Boolean).join(' · ') || undefined,
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'AWS profile for reading stacks',
    placeHolder: profiles.length ? 'Profiles from ~/.aws/config and ~/.aws/credentials' : 'No profile found in ~/.aws/config or ~/.aws/credentials',
  });
  if (!picked) return;
  await vscode.workspace.getConfiguration('cfnImpact').update('aws.profile', picked.profile ?? '', vscode.ConfigurationTarget.Global);
}

/** Picks the regions to list stacks from (several at once), with a way to type one not listed. */
export async function selectRegions(client: LanguageClient): Promise<void> {
  const { profiles, regions } = await profilesOf(client);
  const settings = readAwsSettings();
  const selected = new Set(settings.regions ?? []);
  const profileRegion = profiles.find((p) => p.name === (settings.profile ?? 'default'))?.region;
  const ordered = [...new Set([...selected, ...(profileRegion ? [profileRegion] : []), ...regions])];
  const other = 'Another region…';
  const items = [
    ...ordered.map((region) => ({ label: region, picked: selected.has(region), description: region === profileRegion ? "the profile's region" : undefined })),
    { label: other, picked: false, alwaysShow: true },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'AWS regions to list stacks from',
    placeHolder: 'None picked: AWS_REGION or the profile\'s region',
    canPickMany: true,
  });
  if (!picked) return;
  const chosen = picked.filter((item) => item.label !== other).map((item) => item.label);
  if (picked.some((item) => item.label === other)) {
    const typed = await vscode.window.showInputBox({
      title: 'Another AWS region',
      prompt: 'A region code, for example eu-central-2',
      validateInput: (value) => (/^[a-z]{2}(-[a-z]+)+-\d+$/.test(value.trim()) ? undefined : 'A region code looks like eu-central-2'),
    });
    if (typed) chosen.push(typed.trim());
  }
  await vscode.workspace.getConfiguration('cfnImpact').update('aws.regions', [...new Set(chosen)], vscode.ConfigurationTarget.Global);
}
