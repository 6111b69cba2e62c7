/**
 * Makes replacements and failures stand out in the editor: the line of a resource CloudFormation
 * would replace, or whose update will fail, gets a coloured bar in the margin and a mark in the
 * overview ruler. The kind comes from the server's diagnostics (their code is the change's
 * impact); the colours are the theme's warning and error colours. `cfnImpact.editor.highlights`
 * turns them off.
 */
import * as vscode from 'vscode';

/** The source of the server's diagnostics (server/src/lsp/diagnostics.ts). */
const SOURCE = 'cfn-impact';

/** Which decoration each diagnostic code gets: the impacts that must not go unseen. */
const KIND_OF_CODE: Readonly<Record<string, 'replacement' | 'failure'>> = {
  replacement: 'replacement',
  'conditional-replacement': 'replacement',
  'will-fail': 'failure',
};

/** The decorations of replaced and failing resources, kept in step with the diagnostics. */
export class ImpactDecorations implements vscode.Disposable {
  private readonly types = {
    replacement: decorationType('editorWarning.foreground'),
    failure: decorationType('editorError.foreground'),
  };
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor() {
    this.subscriptions.push(
      vscode.languages.onDidChangeDiagnostics((event) => {
        for (const editor of vscode.window.visibleTextEditors) if (event.uris.some((uri) => uri.toString() === editor.document.uri.toString())) this.decorate(editor);
      }),
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((editor) => this.decorate(editor))),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('cfnImpact.editor.highlights')) vscode.window.visibleTextEditors.forEach((editor) => this.decorate(editor));
      }),
    );
    vscode.window.visibleTextEditors.forEach((editor) => this.decorate(editor));
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.types.replacement.dispose();
    this.types.failure.dispose();
  }

  private decorate(editor: vscode.TextEditor): void {
    const on = vscode.workspace.getConfiguration('cfnImpact', editor.document.uri).get<boolean>('editor.highlights', true);
    const lines = { replacement: [] as vscode.Range[], failure: [] as vscode.Range[] };
    if (on) {
      for (const diagnostic of vscode.languages.getDiagnostics(editor.document.uri)) {
        const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
        const kind = diagnostic.source === SOURCE && code !== undefined ? KIND_OF_CODE[String(code)] : undefined;
        if (kind) lines[kind].push(editor.document.lineAt(diagnostic.range.start.line).range);
      }
    }
    editor.setDecorations(this.types.replacement, lines.replacement);
    editor.setDecorations(this.types.failure, lines.failure);
  }
}

function decorationType(color: string): vscode.TextEditorDecorationType {
  const theme = new vscode.ThemeColor(color);
  return vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderWidth: '0 0 0 3px',
    borderStyle: 'solid',
    borderColor: theme,
    overviewRulerColor: theme,
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
}
