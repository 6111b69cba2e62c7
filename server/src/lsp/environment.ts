/**
 * The workspace trust and AWS settings the client sent (`initializationOptions.environment`,
 * then `cfnImpact/environment`), and what follows from them: the reader of deployed stacks that
 * stack baselines use, and the configuration of the stacks view.
 */
import type { BaselineManager, DeployedStackSource } from './baseline/baselines';
import { createDeployedStackSource } from './baseline/stackSource';
import type { ServerEnvironment } from './protocol';
import type { StacksService } from './stacksService';

/** The environment in effect; trusted, with no AWS settings, until the client says otherwise. */
export class Environment {
  private current: ServerEnvironment = { trusted: true, aws: {} };
  private stackSource: ReturnType<typeof createDeployedStackSource> | undefined;

  constructor(
    private readonly baselines: BaselineManager,
    private readonly stacks: StacksService,
  ) {}

  /** False in an untrusted workspace: no git commands, no AWS calls. */
  get trusted(): boolean {
    return this.current.trusted;
  }

  /** The reader of deployed stacks, in a trusted workspace (CDK apps compared with their deployed stacks). */
  get deployedStacks(): DeployedStackSource | undefined {
    return this.current.trusted ? this.stackSource : undefined;
  }

  /** The Regions stacks are read from (`cfnImpact.aws.regions`), in the order the user gave them. */
  get regions(): readonly string[] {
    return this.current.aws.regions ?? [];
  }

  /** Applies what the client sent (a missing field keeps its value) and rebuilds the deployed-stack reader. */
  apply(next: Partial<ServerEnvironment> | undefined): void {
    this.current = { trusted: next?.trusted ?? this.current.trusted, aws: next?.aws ?? this.current.aws };
    this.stackSource?.dispose();
    this.stackSource = createDeployedStackSource(this.current.aws);
    this.baselines.setStackSource(this.stackSource);
    this.stacks.configure(this.current);
  }
}
