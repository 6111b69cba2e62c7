// What the manifest contributes is what VS Code holds once the extension is active: every declared
// command is registered, and every setting is accepted or refused at each level as its declared
// scope says (VS Code refuses to write a machine setting into a workspace, and a window setting
// into a folder's settings).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { before, describe, it } from 'mocha';
import { workspaceFiles } from '../workspace';
import { extensionUnderTest, manifest, openInEditor, waitFor } from './support';

interface DeclaredSetting {
  scope?: string;
  default?: unknown;
}

const declaredSettings = Object.entries(manifest.contributes.configuration.properties as Record<string, DeclaredSetting>);

/** A value of the setting's own type that differs from its default, so that writing it changes something. */
function otherValue(setting: DeclaredSetting): unknown {
  const value = setting.default;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'string') return value === 'off' ? 'messages' : value === 'git' ? 'none' : 'x';
  if (Array.isArray(value)) return ['eu-west-1'];
  return { 'other.yaml': 'other-stack' };
}

/** Whether VS Code accepts writing the setting at `target` (the write is undone right away). */
async function accepts(key: string, setting: DeclaredSetting, target: vscode.ConfigurationTarget): Promise<boolean> {
  const [section, ...rest] = key.split('.');
  const name = rest.join('.');
  const folder = vscode.workspace.workspaceFolders?.[0];
  const configuration = vscode.workspace.getConfiguration(section, target === vscode.ConfigurationTarget.WorkspaceFolder ? folder?.uri : undefined);
  try {
    await configuration.update(name, otherValue(setting), target);
  } catch {
    return false;
  }
  await configuration.update(name, undefined, target);
  return true;
}

describe('contributions', () => {
  before(async () => {
    await openInEditor(workspaceFiles.network);
    await waitFor(() => extensionUnderTest().isActive, { timeoutMs: 30_000, what: 'the extension to activate' });
  });

  it('registers every command the manifest declares', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const declared = (manifest.contributes.commands as Array<{ command: string }>).map((entry) => entry.command);
    assert.ok(declared.length > 0);
    assert.deepEqual(
      declared.filter((command) => !registered.has(command)),
      [],
    );
  });

  describe('settings have their declared scopes', () => {
    it('declares a scope for every setting', () => {
      assert.deepEqual(
        declaredSettings.filter(([, setting]) => !setting.scope).map(([key]) => key),
        [],
      );
    });

    for (const [key, setting] of declaredSettings) {
      if (setting.scope === 'machine') {
        it(`${key} (machine) cannot be set by a workspace`, async () => {
          assert.equal(await accepts(key, setting, vscode.ConfigurationTarget.Workspace), false);
        });
      } else if (setting.scope === 'resource') {
        it(`${key} (resource) can be set per folder`, async () => {
          assert.equal(await accepts(key, setting, vscode.ConfigurationTarget.WorkspaceFolder), true);
        });
      } else if (setting.scope === 'window') {
        it(`${key} (window) can be set by a workspace but not per folder`, async () => {
          assert.equal(await accepts(key, setting, vscode.ConfigurationTarget.Workspace), true);
          assert.equal(await accepts(key, setting, vscode.ConfigurationTarget.WorkspaceFolder), false);
        });
      }
    }
  });
});
