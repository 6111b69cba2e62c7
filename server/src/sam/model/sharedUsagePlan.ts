/**
 * What the APIs that share one usage plan (`Auth.UsagePlan.CreateUsagePlan: SHARED`) have in
 * common, gathered API by API through one transform: their stages and keys, the resources the
 * shared plan waits for, and the attributes and condition it takes from them.
 */
import type { PlainMap } from './values';

/** The condition of the shared usage plan when the APIs that share it each have one. */
export const SHARED_USAGE_PLAN_CONDITION = 'SharedUsagePlanCondition';

/** What the APIs that share one usage plan have in common. */
export class SharedUsagePlan {
  readonly stageKeys: PlainMap[] = [];
  readonly apiStages: PlainMap[] = [];
  readonly dependsOn: string[] = [];
  private readonly conditions = new Set<string>();
  private anyWithoutCondition = false;
  private deletionPolicy: unknown;
  private updateReplacePolicy: unknown;

  /** The attributes of the shared resources, after the attributes of one more API. */
  attributes(api: PlainMap, templateConditions: PlainMap): PlainMap {
    const deletion = api.DeletionPolicy;
    if (deletion) if (!this.deletionPolicy || deletion === 'Retain') this.deletionPolicy = deletion;
    const replace = api.UpdateReplacePolicy;
    if (replace) {
      if (!this.updateReplacePolicy || replace === 'Retain' || (replace === 'Snapshot' && this.updateReplacePolicy === 'Delete')) this.updateReplacePolicy = replace;
    }
    const condition = api.Condition;
    if (!this.anyWithoutCondition) {
      if (typeof condition === 'string' && !this.conditions.has(condition)) {
        this.conditions.add(condition);
        templateConditions[SHARED_USAGE_PLAN_CONDITION] = this.conditions.size > 1 ? { 'Fn::Or': [...this.conditions].map((c) => ({ Condition: c })) } : condition;
      } else if (condition === undefined) {
        this.anyWithoutCondition = true;
        delete templateConditions[SHARED_USAGE_PLAN_CONDITION];
      }
    }
    const out: PlainMap = {};
    if (this.deletionPolicy) out.DeletionPolicy = this.deletionPolicy;
    if (this.updateReplacePolicy) out.UpdateReplacePolicy = this.updateReplacePolicy;
    if (this.conditions.size > 0 && !this.anyWithoutCondition) out.Condition = SHARED_USAGE_PLAN_CONDITION;
    return out;
  }
}
