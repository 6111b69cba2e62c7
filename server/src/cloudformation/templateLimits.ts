/**
 * CloudFormation's limits on a template, as its quotas page states them: a template body passed
 * in a request is at most 51,200 bytes, and one read from S3 (as nested stacks' are, and as a
 * deployment tool uploads a large template) at most 1 MB. A file over the larger limit is one
 * CloudFormation never reads, so the analysis does not read it either.
 */

/** The largest template CloudFormation reads (from S3), in bytes. */
export const CLOUDFORMATION_TEMPLATE_LIMIT_BYTES = 1_000_000;
