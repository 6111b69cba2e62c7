/**
 * The AWS profiles a person has configured, for the profile and region pickers: read from the
 * shared config and credentials files the SDK reads (`~/.aws/config`, `~/.aws/credentials`, or
 * the files `AWS_CONFIG_FILE` / `AWS_SHARED_CREDENTIALS_FILE` name). Names and regions only:
 * no key is ever read into the result.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface AwsProfile {
  name: string;
  /** The profile's `region`, when its config section sets one. */
  region?: string;
}

/** Section names of an INI text, with the `region` key of each section when present. */
function sections(text: string): Map<string, { region?: string }> {
  const out = new Map<string, { region?: string }>();
  let current: { region?: string } | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      const name = header[1].trim();
      current = out.get(name) ?? {};
      out.set(name, current);
      continue;
    }
    const region = /^region\s*=\s*(\S+)/.exec(line);
    if (region && current) current.region = region[1];
  }
  return out;
}

/**
 * The profiles of a config file (`[default]`, `[profile NAME]`; `[sso-session …]` and
 * `[services …]` are not profiles) and a credentials file (`[NAME]`), sorted with `default` first.
 */
export function parseAwsProfiles(configText: string, credentialsText: string): AwsProfile[] {
  const profiles = new Map<string, AwsProfile>();
  for (const [section, { region }] of sections(configText)) {
    const name = section === 'default' ? 'default' : /^profile\s+(.+)$/.exec(section)?.[1].trim();
    if (name) profiles.set(name, region ? { name, region } : { name });
  }
  for (const name of sections(credentialsText).keys()) if (!profiles.has(name)) profiles.set(name, { name });
  return [...profiles.values()].sort((a, b) => (a.name === 'default' ? -1 : b.name === 'default' ? 1 : a.name.localeCompare(b.name)));
}

/** Reads the profiles from the shared files the SDK would read; missing files count as empty. */
export async function readAwsProfiles(env: Record<string, string | undefined> = process.env): Promise<AwsProfile[]> {
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  const read = (path: string) => readFile(path, 'utf8').catch(() => '');
  const [config, credentials] = await Promise.all([
    read(env.AWS_CONFIG_FILE ?? join(home, '.aws', 'config')),
    read(env.AWS_SHARED_CREDENTIALS_FILE ?? join(home, '.aws', 'credentials')),
  ]);
  return parseAwsProfiles(config, credentials);
}

/**
 * CloudFormation's regions, for the region picker; a person can still type any other region
 * (a newer one, or a local emulator's).
 */
export const AWS_REGIONS: readonly string[] = [
  'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2',
  'af-south-1',
  'ap-east-1', 'ap-south-1', 'ap-south-2', 'ap-southeast-1', 'ap-southeast-2', 'ap-southeast-3', 'ap-southeast-4', 'ap-southeast-5', 'ap-southeast-7',
  'ap-northeast-1', 'ap-northeast-2', 'ap-northeast-3',
  'ca-central-1', 'ca-west-1',
  'eu-central-1', 'eu-central-2', 'eu-west-1', 'eu-west-2', 'eu-west-3', 'eu-south-1', 'eu-south-2', 'eu-north-1',
  'il-central-1', 'me-south-1', 'me-central-1', 'mx-central-1', 'sa-east-1',
  'us-gov-east-1', 'us-gov-west-1', 'cn-north-1', 'cn-northwest-1',
];
