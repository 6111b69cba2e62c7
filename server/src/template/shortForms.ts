/**
 * The CloudFormation YAML short forms: each tag and the long-form key it stands for.
 */

/** Every short-form tag CloudFormation (and AWS::LanguageExtensions, and Rules) understands, mapped to its long-form key. */
export const SHORT_FORM_KEYS: ReadonlyMap<string, string> = new Map(
  [
    ...['Ref', 'Condition'].map((name) => [`!${name}`, name] as const),
    ...[
      'And',
      'Base64',
      'Cidr',
      'Contains',
      'EachMemberEquals',
      'EachMemberIn',
      'Equals',
      'FindInMap',
      'ForEach',
      'GetAZs',
      'GetAtt',
      'GetStackOutput',
      'If',
      'ImportValue',
      'Join',
      'Length',
      'Not',
      'Or',
      'RefAll',
      'Select',
      'Split',
      'Sub',
      'ToJsonString',
      'Transform',
      'ValueOf',
      'ValueOfAll',
    ].map((name) => [`!${name}`, `Fn::${name}`] as const),
  ],
);
