/**
 * Settings the client passes to the server. The AWS ones decide where signed requests go, so
 * they are taken from user or machine scope only: a workspace (a cloned repository) cannot
 * redirect them, whatever its `.vscode/settings.json` says.
 */
import * as vscode from 'vscode';
import type { AwsSettings, ServerEnvironment } from '../../server/src/lsp/protocol';

/** A setting's user (or machine) value, else its default; workspace and folder values are ignored. */
function userValue<T>(configuration: vscode.WorkspaceConfiguration, key: string): T | undefined {
  const inspected = configuration.inspect<T>(key);
  return inspected?.globalValue ?? inspected?.defaultValue;
}

/** The AWS settings from user or machine scope. */
export function readAwsSettings(): AwsSettings {
  const configuration = vscode.workspace.getConfiguration('cfnImpact');
  const profile = userValue<string>(configuration, 'aws.profile');
  const regions = userValue<string[]>(configuration, 'aws.regions');
  const endpoint = userValue<string>(configuration, 'aws.endpoint');
  return {
    profile: typeof profile === 'string' && profile.trim() ? profile.trim() : undefined,
    regions: Array.isArray(regions) ? regions.filter((region): region is string => typeof region === 'string' && region.trim() !== '') : undefined,
    endpoint: typeof endpoint === 'string' && endpoint.trim() ? endpoint.trim() : undefined,
  };
}

/** What the server must obey: workspace trust and the AWS settings. */
export function readEnvironment(): ServerEnvironment {
  return { trusted: vscode.workspace.isTrusted, aws: readAwsSettings() };
}
