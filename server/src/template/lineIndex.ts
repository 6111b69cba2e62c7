/**
 * Conversion between offsets and line/character positions (0-based, UTF-16 code units),
 * built once per text. Line breaks are `\n`, `\r\n` and `\r`, as in LSP.
 */

/** A 0-based line and UTF-16 character within it. */
export interface LinePosition {
  line: number;
  character: number;
}

/** Maps offsets to positions and back in O(log lines). */
export class LineIndex {
  private readonly lineStarts: number[];

  /** Scans the text once for line starts. */
  constructor(private readonly text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (c === 10 /* \n */) {
        starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
  }

  /** How many lines the text has (an empty text has one). */
  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** The position of an offset; offsets outside the text are clamped to it. */
  positionAt(offset: number): LinePosition {
    const clamped = Math.min(Math.max(0, Math.floor(offset)), this.text.length);
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: clamped - this.lineStarts[low]! };
  }

  /** The offset of a position; lines and characters beyond the text are clamped (a character never passes its line's break). */
  offsetAt(position: LinePosition): number {
    if (position.line < 0) return 0;
    if (position.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[position.line]!;
    const nextStart = position.line + 1 < this.lineStarts.length ? this.lineStarts[position.line + 1]! : this.text.length;
    let end = nextStart;
    if (position.line + 1 < this.lineStarts.length) {
      // Exclude the line break itself (\n, \r or \r\n).
      end--;
      if (this.text.charCodeAt(end) === 10 && end > start && this.text.charCodeAt(end - 1) === 13) end--;
    }
    return Math.min(Math.max(start, start + Math.floor(position.character)), end);
  }
}
