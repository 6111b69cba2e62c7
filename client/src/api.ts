/**
 * What the extension's `activate` returns to other extensions and to its own extension-host tests
 * (test/extension/): read-only views of what it shows, so that a test checks the stacks view through
 * the extension's public surface rather than by reaching into its modules. It changes nothing.
 */

/** A row of the stacks view as VS Code is given it, with the rows under it. */
export interface StacksViewRow {
  label: string;
  description?: string;
  /** The context value that package.json's menus match (`stack…`, `resource.physical`, `message.…`). */
  contextValue?: string;
  /** The rows under this one that the view holds now, whether or not the row is expanded. */
  children: StacksViewRow[];
}

/** The extension's exported API. */
export interface CfnImpactApi {
  /** The stacks view's rows as the view would show them now, read through its own tree data provider. */
  stacksViewRows(): Promise<StacksViewRow[]>;
  /** Whether the language server runs: it starts with the first CloudFormation template opened, or the first request. */
  languageServerRunning(): boolean;
}
