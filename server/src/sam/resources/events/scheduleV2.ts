/**
 * `ScheduleV2`: an EventBridge Scheduler schedule targeting a function or state machine, with the
 * role it assumes (`<Event>Role`, unless `RoleArn` is given) and an optional dead-letter queue
 * (scheduler.py).
 */
import { invalidEvent, type SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { assumeRolePolicy, rolePolicies, singleStatementPolicy } from '../../model/iam';
import { IS_BOOL, IS_DICT, IS_STR, strict, typed, type PropertySpec } from '../../model/properties';
import type { PlainMap } from '../../model/values';
import { checkDeadLetterConfig, checkEventProperties, passThrough, type EventInput } from './eventSource';

const SCHEDULE_V2: Record<string, PropertySpec> = {
  PermissionsBoundary: typed(IS_STR),
  ScheduleExpression: typed(IS_STR, true),
  FlexibleTimeWindow: typed(IS_DICT),
  Name: typed(IS_STR),
  State: typed(IS_STR),
  Description: typed(IS_STR),
  StartDate: typed(IS_STR),
  EndDate: typed(IS_STR),
  ScheduleExpressionTimezone: typed(IS_STR),
  GroupName: typed(IS_STR),
  KmsKeyArn: typed(IS_STR),
  Input: typed(IS_STR),
  RoleArn: typed(IS_STR),
  DeadLetterConfig: typed(IS_DICT),
  RetryPolicy: typed(IS_DICT),
  OmitName: strict(IS_BOOL),
};

/** What the schedule targets: its ARN, and whether it is a state machine (which is started, not invoked). */
export interface ScheduleTarget {
  arn: unknown;
  stateMachine: boolean;
}

/** The schedule, its role and dead-letter queue. */
export function scheduleV2Event(input: EventInput, target: ScheduleTarget): GeneratedResource[] | SamError {
  const invalid = checkEventProperties(input, 'ScheduleV2', SCHEDULE_V2);
  if (invalid) return invalid;
  const p = input.properties;
  const attributes = passThrough(input);
  const schedule = input.sam.generate(input.logicalId, 'AWS::Scheduler::Schedule', input.origin, attributes);
  const resources: GeneratedResource[] = [schedule];
  schedule.set('ScheduleExpression', p.ScheduleExpression);
  if (p.State) schedule.set('State', p.State);
  if (p.OmitName) {
    if (p.Name) return invalidEvent(input.logicalId, 'Name cannot be set when OmitName is True');
  } else schedule.set('Name', p.Name || input.logicalId);
  schedule.set('Description', p.Description);
  schedule.set('FlexibleTimeWindow', p.FlexibleTimeWindow || { Mode: 'OFF' });
  for (const name of ['StartDate', 'EndDate', 'ScheduleExpressionTimezone', 'GroupName', 'KmsKeyArn']) schedule.set(name, p[name]);
  let dlqArn: unknown;
  if (p.DeadLetterConfig !== undefined && p.DeadLetterConfig !== null) {
    const config = p.DeadLetterConfig as PlainMap;
    const bad = checkDeadLetterConfig(input.logicalId, config);
    if (bad) return bad;
    if (config.Arn !== undefined) dlqArn = config.Arn;
    else {
      const queueId = config.QueueLogicalId;
      if (queueId !== undefined && queueId !== null && typeof queueId !== 'string') return invalidEvent(input.logicalId, 'QueueLogicalId must be a string');
      const queue = input.sam.generate((queueId as string | undefined) || `${input.logicalId}Queue`, 'AWS::SQS::Queue', input.origin, attributes);
      resources.push(queue);
      dlqArn = queue.getAtt('Arn');
    }
  }
  let roleArn = p.RoleArn;
  if (!roleArn) {
    const role = input.sam.generate(`${input.logicalId}Role`, 'AWS::IAM::Role', input.origin, attributes);
    role.set('AssumeRolePolicyDocument', assumeRolePolicy('scheduler.amazonaws.com'));
    const policies = [
      target.stateMachine
        ? singleStatementPolicy(`${input.logicalId}StartExecutionPolicy`, 'states:StartExecution', target.arn)
        : rolePolicies.lambdaInvoke(target.arn, input.logicalId),
    ];
    if (dlqArn) policies.push(rolePolicies.sqsSendMessage(dlqArn, input.logicalId));
    role.set('Policies', policies);
    if (p.PermissionsBoundary) role.set('PermissionsBoundary', p.PermissionsBoundary);
    resources.push(role);
    roleArn = role.getAtt('Arn');
  }
  const scheduleTarget: PlainMap = { Arn: target.arn, RoleArn: roleArn };
  if (p.Input !== undefined && p.Input !== null) scheduleTarget.Input = p.Input;
  if (p.DeadLetterConfig !== undefined && p.DeadLetterConfig !== null) scheduleTarget.DeadLetterConfig = { Arn: dlqArn };
  if (p.RetryPolicy !== undefined && p.RetryPolicy !== null) scheduleTarget.RetryPolicy = p.RetryPolicy;
  schedule.set('Target', scheduleTarget);
  return resources;
}
