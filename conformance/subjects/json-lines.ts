// Splits a runner's stdout into lines while holding at most `maxLineBytes` of an unfinished line.
// (readline buffers without limit: a runner flooding stdout without a newline took the harness down
// with it, or made it wait out the handshake with everything in memory.) The limit is enforced as the
// bytes arrive: past it, everything held is dropped, the overflow is reported once, and the rest of
// the stream is ignored.

export class BoundedLineSplitter {
  private parts: Buffer[] = [];
  private held = 0;
  private stopped = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: (maxLineBytes: number) => void,
  ) {}

  /** Bytes of the unfinished line held now. */
  get heldBytes(): number {
    return this.held;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (!this.stopped) {
      const end = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      if (this.held + piece.length > this.maxLineBytes) return this.overflow();
      if (end === -1) {
        if (piece.length) this.parts.push(piece);
        this.held += piece.length;
        return;
      }
      // Decoding the whole line at once keeps a multi-byte character split across chunks intact.
      const line = Buffer.concat([...this.parts, piece]).toString("utf8");
      this.parts = [];
      this.held = 0;
      start = end + 1;
      this.onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
    }
  }

  /** The stream ended: a last line without its newline still counts (as readline had it). */
  end(): void {
    if (this.stopped || !this.held) return;
    const line = Buffer.concat(this.parts).toString("utf8");
    this.parts = [];
    this.held = 0;
    this.onLine(line);
  }

  private overflow(): void {
    this.stopped = true;
    this.parts = [];
    this.held = 0;
    this.onOverflow(this.maxLineBytes);
  }
}
