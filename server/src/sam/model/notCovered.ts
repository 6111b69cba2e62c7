/**
 * A SAM feature this transform does not expand yet. The resource that uses it is analysed as
 * written, references to the names SAM would generate for it are not errors, and a note names
 * the feature.
 */
export class NotCovered {
  constructor(
    /** What is not covered, as the note names it: `AWS::Serverless::GraphQLApi`, `the HttpApi event`. */
    readonly feature: string,
  ) {}
}
