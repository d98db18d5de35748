// Lines of several producers running at once, written as if they had run one after another: the first
// unfinished producer's lines go straight out, a later one's wait until every producer before it has
// finished, then follow in the order they were written. So subjects run side by side print (and diff)
// exactly as subjects run in turn, and the one in front still prints as it goes.
export class OrderedLog {
  private front = 0;
  private readonly held = new Map<number, string[]>();
  private readonly finished = new Set<number>();

  constructor(private readonly write: (line: string) => void) {}

  /** A line of producer `index` (0, 1, ...): written now if it is in front, else held. */
  line(index: number, line: string): void {
    if (index === this.front) return this.write(line);
    const lines = this.held.get(index);
    if (lines) lines.push(line);
    else this.held.set(index, [line]);
  }

  /** Producer `index` has no more lines: the next ones in order write what they held and step to the front. */
  finish(index: number): void {
    this.finished.add(index);
    while (this.finished.has(this.front)) {
      this.front++;
      for (const line of this.held.get(this.front) ?? []) this.write(line);
      this.held.delete(this.front);
    }
  }
}
