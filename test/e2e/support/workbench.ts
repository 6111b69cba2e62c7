// Drives the VS Code workbench in Chromium the way a person does (keyboard, mouse, what is on
// screen) and reads back what that person would see. The functions passed to `evaluate` run inside
// the page; the project compiles without the DOM library, so their element parameters stay untyped.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { artifactsDir, chromiumPath } from './paths';
import { waitFor } from './wait';

/** A code lens as shown: its text and the text of the line it sits above. */
export interface ShownLens {
  text: string;
  line: string;
}

/** An item of the status bar: its DOM id (extension items start with the extension id) and text. */
export interface ShownStatusItem {
  id: string;
  text: string;
  label: string;
}

/** A row of a tree or list: its visible text, accessible label and nesting level. */
export interface ShownRow {
  text: string;
  label: string;
  level: number;
  /** The row's text is wider than the row and shows cut off (sidebar rows only). */
  cutOff?: boolean;
}

const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** Non-breaking spaces stand in for spaces in rendered editor text. */
function plain(text: string): string {
  return text.replace(/\u00a0/g, ' ');
}

export class Workbench {
  private constructor(
    private readonly browser: Browser,
    readonly page: Page,
    private readonly prefix: string,
  ) {}

  /**
   * Opens the workbench at `url` in a fresh Chromium and waits until it is ready for input;
   * `beforeLoad` prepares the page first (for example, exposes functions the workbench calls).
   */
  static async open(url: string, prefix: string, beforeLoad?: (page: Page) => Promise<void>): Promise<Workbench> {
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const workbench = new Workbench(browser, page, prefix);
    try {
      await beforeLoad?.(page);
      await page.goto(url);
      await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
      await page.locator('.part.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
      // The explorer lists the folder once the remote file system answers: the window is usable.
      await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
    } catch (error) {
      await workbench.screenshot('failed-to-open').catch(() => undefined);
      await browser.close();
      throw error;
    }
    return workbench;
  }

  /** Saves a screenshot of the whole window as test-artifacts/e2e/<prefix>-<name>.png and returns its path. */
  async screenshot(name: string): Promise<string> {
    mkdirSync(artifactsDir, { recursive: true });
    const path = join(artifactsDir, `${this.prefix}-${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  async close(): Promise<void> {
    await this.browser.close();
  }

  /** Runs a command by its title through the command palette, as a person would. */
  async runCommand(title: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    // F1 goes to whatever has the keyboard, and a webview's frame or an open menu swallows it: when
    // the palette does not come, put the focus in the workbench's title area and ask again. (Not
    // Escape: it would also hide the notifications a test may be about to use.)
    let attempt = 0;
    await waitFor(
      async () => {
        if (attempt++ > 0) await this.page.locator('.monaco-workbench').click({ position: { x: 700, y: 5 } }).catch(() => undefined);
        await this.page.keyboard.press('F1');
        return input.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true);
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'the command palette to open' },
    );
    await input.fill(`>${title}`);
    // Click the entry with exactly this title: Enter would run whichever entry ranks first.
    const row = this.page.locator('.quick-input-list .monaco-list-row').filter({
      has: this.page.locator('.label-name', { hasText: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
    });
    await row.first().waitFor({ state: 'visible' });
    await row.first().click();
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  /**
   * Clicks the button `action` of the notification that says `message`: on its toast, or in the
   * notification centre when the toast has gone (toasts hide after a while and on Escape).
   */
  async notificationAction(message: string, action: string, timeoutMs = 60_000): Promise<void> {
    const toast = this.page.locator('.notification-toast', { hasText: message });
    const listed = this.page.locator('.notifications-center .notification-list-item', { hasText: message });
    await waitFor(
      async () => {
        if (await toast.isVisible()) {
          await toast.locator('.monaco-button', { hasText: action }).click();
          return true;
        }
        if (!(await this.page.locator('.notifications-center').isVisible())) {
          await this.runCommand('Notifications: Show Notifications');
        }
        if (await listed.isVisible()) {
          // A listed notification shows its buttons once it has the pointer or focus.
          await listed.hover();
          await listed.locator('.monaco-button', { hasText: action }).click({ timeout: 5_000 });
          return true;
        }
        return false;
      },
      { timeoutMs, intervalMs: 500, what: `the notification "${message}" with its ${action} button` },
    );
  }

  /** Opens a workspace file through Quick Open (Ctrl+P) and waits until its text is on screen. */
  async openFile(relativePath: string): Promise<void> {
    const name = relativePath.split('/').pop() ?? relativePath;
    await this.page.locator('.monaco-workbench').click({ position: { x: 700, y: 5 } }).catch(() => undefined);
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(relativePath);
    // Quick Open searches the folder asynchronously: wait for the file to be offered.
    await this.page
      .locator('.quick-input-list .monaco-list-row', { hasText: name })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await input.press('Enter');
    await this.page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ state: 'visible' });
    await this.editor().locator('.view-line').first().waitFor({ state: 'visible' });
    // Park the mouse over empty editor space, where no tooltip or hover opens, so screenshots stay unobstructed.
    await this.page.mouse.move(1400, 500);
  }

  /** The editor of the active group (the modified side when it is a diff). */
  editor(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor:not(.original-in-monaco-diff-editor)').first();
  }

  /** The text of the lines the active editor renders, top to bottom. */
  async visibleLines(): Promise<string[]> {
    return this.editor().evaluate((editor) => {
      const lines = [...editor.querySelectorAll('.view-lines .view-line')];
      lines.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
      return lines.map((line) => (line.textContent ?? '').replace(/\u00a0/g, ' '));
    });
  }

  /**
   * The code lenses of the active editor once `shown` holds for them and the editor has laid them
   * out: lenses arrive before the editor has placed them among the lines (for a frame they may all
   * sit above one line), so a read is taken only when the next, a poll later, agrees with it.
   */
  async settledCodeLenses(shown: (lenses: ShownLens[]) => boolean, what: string): Promise<ShownLens[]> {
    let previous = '';
    return waitFor(
      async () => {
        const lenses = await this.codeLenses();
        const read = JSON.stringify(lenses);
        const settled = read === previous;
        previous = read;
        return settled && shown(lenses) ? lenses : undefined;
      },
      { timeoutMs: 60_000, what },
    );
  }

  /** The code lenses of the active editor, each with the line right below it. */
  async codeLenses(): Promise<ShownLens[]> {
    const lenses = await this.editor().evaluate((editor) => {
      const lines = [...editor.querySelectorAll('.view-lines .view-line')].map((line) => ({
        top: line.getBoundingClientRect().top,
        text: line.textContent ?? '',
      }));
      lines.sort((a, b) => a.top - b.top);
      return [...editor.querySelectorAll('.codelens-decoration')].map((lens) => {
        const box = lens.getBoundingClientRect();
        const below = lines.find((line) => line.top >= box.bottom - 2);
        return { text: lens.textContent ?? '', line: below?.text ?? '', top: box.top };
      });
    });
    lenses.sort((a, b) => a.top - b.top);
    return lenses
      .map(({ text, line }) => ({ text: plain(text).trim(), line: plain(line) }))
      .filter((lens) => lens.text.length > 0);
  }

  /** Clicks the code lens whose text matches, in the active editor (after closing a hover that may cover it). */
  async clickCodeLens(text: RegExp): Promise<void> {
    // Focus the editor below its last line, close any hover, and scroll to the top so that no
    // hover or sticky-scroll header lies over the lens.
    const box = await this.editor().boundingBox();
    if (box) await this.page.mouse.click(box.x + box.width / 2, box.y + box.height - 20);
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+Home');
    await this.page.mouse.move(1400, 500);
    const lens = this.page.locator('.editor-group-container.active .codelens-decoration a', { hasText: text }).first();
    await waitFor(() => lens.isVisible(), { what: `a code lens matching ${String(text)}` });
    await lens.click();
  }

  /** The text of the active editor's lines marked with a bar in the margin (a whole-line left border), top to bottom. */
  async marginMarkedLines(): Promise<string[]> {
    const marked = await this.editor().evaluate((editor) => {
      const view = editor.ownerDocument.defaultView!;
      const tops = [...editor.querySelectorAll('.view-overlays > div > div')]
        .filter((overlay) => {
          // The cursor's line has a border of its own.
          if (overlay.classList.contains('current-line')) return false;
          const style = view.getComputedStyle(overlay);
          return style.borderLeftStyle === 'solid' && parseFloat(style.borderLeftWidth) >= 2;
        })
        .map((overlay) => overlay.getBoundingClientRect().top);
      const lines = [...editor.querySelectorAll('.view-lines .view-line')].map((line) => ({ top: line.getBoundingClientRect().top, text: line.textContent ?? '' }));
      return tops.sort((a, b) => a - b).map((top) => lines.find((line) => Math.abs(line.top - top) < 2)?.text ?? '');
    });
    return marked.map((text) => plain(text).trim());
  }

  /** The rows of the references peek open in the active editor (its file and each place it lists), once it shows some. */
  async peekRows(): Promise<string[]> {
    const rows = this.page.locator('.editor-group-container.active .peekview-widget .monaco-list-row');
    return waitFor(
      async () => {
        const texts = (await rows.evaluateAll((elements) => elements.map((row) => row.textContent ?? ''))).map((text) => plain(text).trim());
        return texts.length > 0 ? texts : undefined;
      },
      { timeoutMs: 20_000, what: 'the rows of the references peek' },
    );
  }

  /** The titles of the editor tabs. */
  async tabTitles(): Promise<string[]> {
    const titles = await this.page.locator('.tabs-container .tab').evaluateAll((tabs) => tabs.map((tab) => tab.getAttribute('aria-label') ?? tab.textContent ?? ''));
    return titles.map((title) => plain(title).trim());
  }

  /** Opens the Problems panel and returns its marker rows (file rows left out). */
  async problems(): Promise<ShownRow[]> {
    const panel = this.page.locator('.markers-panel');
    if (!(await panel.isVisible())) {
      await this.runCommand('Problems: Focus on Problems View');
      await panel.waitFor({ state: 'visible' });
    }
    const rows = await panel.locator('.monaco-list-row').evaluateAll((elements) =>
      elements.map((row) => ({
        text: row.innerText,
        label: row.getAttribute('aria-label') ?? '',
        level: Number(row.getAttribute('aria-level') ?? '0'),
        isFile: row.querySelector('.file-icon, .monaco-icon-label.file-icon') !== null,
      })),
    );
    return rows.filter((row) => !row.isFile).map(({ text, label, level }) => ({ text: plain(text), label, level }));
  }

  /**
   * Moves the mouse over the first occurrence of `token` on the first visible line that contains
   * `lineText`, and returns the hover's text once it shows.
   */
  async hover(lineText: string, token: string): Promise<string> {
    await this.page.mouse.move(5, 5);
    const point = await this.editor().evaluate(
      (editor, wanted) => {
        const lines = [...editor.querySelectorAll('.view-lines .view-line')];
        lines.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
        // No named helper functions in here: tsx would wrap them in a __name() the page does not have.
        const line = lines.find((candidate) => (candidate.textContent ?? '').replace(/\u00a0/g, ' ').includes(wanted.lineText));
        if (!line) return undefined;
        const walker = editor.ownerDocument.createTreeWalker(line, 4 /* NodeFilter.SHOW_TEXT */);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = (node.textContent ?? '').replace(/\u00a0/g, ' ').indexOf(wanted.token);
          if (at < 0) continue;
          const range = editor.ownerDocument.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + wanted.token.length);
          const box = range.getBoundingClientRect();
          return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
        }
        return undefined;
      },
      { lineText, token },
    );
    if (!point) throw new Error(`no visible line contains ${JSON.stringify(lineText)} with ${JSON.stringify(token)}`);
    await this.page.mouse.move(point.x, point.y);
    const hover = this.page.locator('.monaco-hover:not(.hidden) .monaco-hover-content, .monaco-hover:not(.hidden) .hover-contents').first();
    return waitFor(
      async () => {
        if (!(await hover.isVisible())) return undefined;
        const text = plain(await hover.innerText()).trim();
        // The hover first shows "Loading..." while the language server answers.
        return text.length > 0 && !/^Loading/.test(text) ? text : undefined;
      },
      { timeoutMs: 20_000, what: `a hover over ${token}` },
    );
  }

  /**
   * The activation time VS Code itself measured for an extension (code loading plus the activate
   * call), as "Developer: Show Running Extensions" shows it, in milliseconds.
   */
  async measuredActivationMs(displayName: string): Promise<number> {
    await this.runCommand('Developer: Show Running Extensions');
    const row = this.page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: displayName }).first();
    const text = await waitFor(
      async () => {
        if (!(await row.isVisible())) return undefined;
        const shown = await row.locator('.activation-time').innerText();
        return /\d/.test(shown) ? shown : undefined;
      },
      { timeoutMs: 30_000, what: `the activation time of ${displayName} in Running Extensions` },
    );
    const match = text.match(/(\d+(?:\.\d+)?)\s*ms/);
    if (!match) throw new Error(`cannot read an activation time from ${JSON.stringify(text)}`);
    return Number(match[1]);
  }

  /** The items of the status bar. */
  async statusBarItems(): Promise<ShownStatusItem[]> {
    const items = await this.page.locator('.part.statusbar .statusbar-item').evaluateAll((elements) =>
      elements.map((item) => ({
        id: item.id,
        text: item.innerText,
        label: item.querySelector('.statusbar-item-label')?.getAttribute('aria-label') ?? item.getAttribute('aria-label') ?? '',
      })),
    );
    return items.map((item) => ({ ...item, text: plain(item.text).trim() }));
  }

  /** Opens the activity-bar view container with this title and waits for its side bar. */
  async openViewContainer(title: string): Promise<void> {
    const item = this.page.locator(`.part.activitybar .action-item a[aria-label^="${title}"], .part.activitybar .action-item .action-label[aria-label^="${title}"]`).first();
    await item.click();
    await this.page.locator('.part.sidebar .composite.title', { hasText: new RegExp(title, 'i') }).waitFor({ state: 'visible' });
    await this.page.mouse.move(1400, 500);
  }

  /** The rows of the trees and lists shown in the side bar. */
  async sideBarRows(): Promise<ShownRow[]> {
    const rows = await this.page.locator('.part.sidebar .monaco-list-row').evaluateAll((elements) =>
      elements.map((row) => {
        const label = row.querySelector('.monaco-icon-label-container');
        return {
          text: row.innerText,
          label: row.getAttribute('aria-label') ?? '',
          level: Number(row.getAttribute('aria-level') ?? '0'),
          cutOff: label !== null && label.scrollWidth > label.clientWidth + 1,
        };
      }),
    );
    return rows.map((row) => ({ ...row, text: plain(row.text).trim() }));
  }

  /** Expands the collapsed side-bar row whose text matches, if it is collapsed. */
  async expandSideBarRow(text: string | RegExp): Promise<void> {
    const row = this.page.locator('.part.sidebar .monaco-list-row', { hasText: text }).first();
    await row.waitFor({ state: 'visible' });
    if ((await row.getAttribute('aria-expanded')) === 'false') {
      await row.click();
      await waitFor(async () => (await row.getAttribute('aria-expanded')) === 'true', { what: `${String(text)} to expand` });
    }
  }
}
