/**
 * SAM template pieces as YAML text, for specifications that edit one value of a template and
 * compare expansions: the text decides ranges and what the cache keeps, so it is written out.
 */

/** An event's entry under a function's `Events`, with its properties given as YAML scalars (`RestApiId: '!Ref Api'`). */
export function eventYaml(name: string, type: string, properties: Record<string, string>): string {
  const lines = Object.entries(properties).map(([key, value]) => `            ${key}: ${value}\n`);
  return `        ${name}:\n          Type: ${type}\n${lines.length > 0 ? `          Properties:\n${lines.join('')}` : ''}`;
}

/**
 * A Python function's entry in the Resources section, its code in S3, with other properties given
 * as YAML values (`Layers: '[!Ref Libs]'`), the events given (eventYaml), and resource attributes
 * as YAML lines indented under the resource (`    DependsOn: Jobs\n`).
 */
export function functionYaml(name: string, { code = `s3://bucket/${name}.zip`, events = [] as string[], properties = {} as Record<string, string>, attributes = '' } = {}): string {
  const lines = Object.entries(properties).map(([key, value]) => `      ${key}: ${value}\n`);
  return `  ${name}:
    Type: AWS::Serverless::Function
${attributes}    Properties:
      CodeUri: ${code}
      Handler: app.handler
      Runtime: python3.12
${lines.join('')}${events.length > 0 ? `      Events:\n${events.join('')}` : ''}`;
}
