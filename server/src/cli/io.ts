/**
 * What a CLI command may touch of its process: output streams and the environment. Passed in
 * so that commands run the same in tests as from a terminal.
 */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Whether stdout is a terminal (colours, live redraw). */
  isTTY: boolean;
  env: Record<string, string | undefined>;
  /** The folder relative paths and git commands start from (default: the process's). */
  cwd?: string;
}
