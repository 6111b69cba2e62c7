/**
 * Invalid SAM, as the transform reports it: worded like the translator's own messages
 * ("Resource with id [Fn] is invalid. Event with id [Get] is invalid. ..."), and placed at the
 * offending SAM property when it is known.
 */

/** Where in a SAM resource an error was found: keys and indexes from the resource's entry. */
export type SamPath = readonly (string | number)[];

/**
 * A SAM resource that the transform rejects (SAM's InvalidResourceException and
 * InvalidEventException). Thrown inside a resource's translation and caught per resource.
 */
export class SamError extends Error {
  constructor(
    /** The resource (or event) id the translator names: `Resource with id [X] is invalid.` */
    readonly subject: string,
    readonly detail: string,
    /** Path below the resource entry (`['Properties', 'Events', ...]`) of the offending value. */
    readonly path: SamPath = [],
    /**
     * `resource` for `Resource with id [X]`, `event` for `Event with id [X]`, `document` for the
     * whole template, `transform` for a message SAM words entirely itself (`Transforming resource ...`).
     */
    readonly kind: 'resource' | 'event' | 'document' | 'transform' = 'resource',
  ) {
    super(detail);
  }

  /** The translator's wording of this error. */
  get wording(): string {
    if (this.kind === 'document') return `Structure of the SAM template is invalid. ${this.detail}`;
    if (this.kind === 'transform') return this.detail;
    if (this.kind === 'event') return `Event with id [${this.subject}] is invalid. ${this.detail}`;
    return `Resource with id [${this.subject}] is invalid. ${this.detail}`;
  }

  /** The same error reported for the resource an event belongs to (SAM wraps event errors this way). */
  inResource(logicalId: string, eventPath: SamPath): SamError {
    if (this.kind !== 'event') return this;
    return new SamError(logicalId, `Event with id [${this.subject}] is invalid. ${this.detail}`, [...eventPath, ...this.path], 'resource');
  }
}

/** SAM's InvalidResourceException. */
export function invalidResource(logicalId: string, detail: string, path: SamPath = []): SamError {
  return new SamError(logicalId, detail, path, 'resource');
}

/** SAM's InvalidEventException; `path` is below the event's entry. */
export function invalidEvent(eventId: string, detail: string, path: SamPath = []): SamError {
  return new SamError(eventId, detail, path, 'event');
}

/** SAM's InvalidTemplateException / InvalidDocumentException: the template as a whole. */
export function invalidDocument(detail: string, path: SamPath = []): SamError {
  return new SamError('', detail, path, 'document');
}

/** SAM's InvalidGlobalsSectionException: worded by itself, without the document's preamble. */
export function invalidGlobals(detail: string, path: SamPath = []): SamError {
  return new SamError('', `'Globals' section is invalid. ${detail}`, path, 'transform');
}

/** An `Fn::If` that does not have its three arguments (condition, then, else), which SAM rejects where it reads the branches. */
export function malformedIf(subject: string, property: string, value: unknown, path: SamPath): SamError | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'Fn::If') return undefined;
  const args = (value as Record<string, unknown>)['Fn::If'];
  if (Array.isArray(args) && args.length === 3) return undefined;
  return invalidResource(subject, `Malformed '${property}' property: Fn::If requires 3 arguments.`, path);
}
