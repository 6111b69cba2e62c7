/**
 * The Region a command analyses for, when the user says it: `--region`, else the shell's
 * `AWS_REGION` or `AWS_DEFAULT_REGION`, which the AWS CLI and the SAM CLI deploy to from the same
 * shell. Otherwise it is not known, and `AWS::Region` is a deploy-time value (never a default).
 */
export function givenRegion(option: string | undefined, env: Record<string, string | undefined>): string | undefined {
  for (const value of [option, env.AWS_REGION, env.AWS_DEFAULT_REGION]) {
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
}
