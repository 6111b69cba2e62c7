/**
 * Each document's `cfnImpact` settings, asked of the client once and kept until the settings
 * change or the document closes. A client that cannot be asked gets the defaults.
 */
import { describeError, type Logger } from './runSafe';
import { defaultSettings, readDocumentSettings, type DocumentSettings } from './settings';

/** Asks the client for the `cfnImpact` section that applies to a document. */
export type PullSettings = (uri: string) => Promise<unknown>;

/** The settings of the documents asked about, by URI. */
export class SettingsStore {
  private readonly byDocument = new Map<string, Promise<DocumentSettings>>();

  /** `pull` is absent when the client does not answer `workspace/configuration`. */
  constructor(
    private readonly pull: PullSettings | undefined,
    private readonly logger: Logger,
  ) {}

  /** The document's settings; a failed read is logged and gives the defaults. */
  for(uri: string): Promise<DocumentSettings> {
    let settings = this.byDocument.get(uri);
    if (!settings) {
      settings = this.pull
        ? this.pull(uri).then(readDocumentSettings, (error: unknown) => {
            this.logger.error(`reading settings failed: ${describeError(error)}`);
            return defaultSettings;
          })
        : Promise.resolve(defaultSettings);
      this.byDocument.set(uri, settings);
    }
    return settings;
  }

  /** Forgets a closed document's settings. */
  forget(uri: string): void {
    this.byDocument.delete(uri);
  }

  /** Forgets every document's settings (they changed, or the workspace folders did). */
  clear(): void {
    this.byDocument.clear();
  }
}
