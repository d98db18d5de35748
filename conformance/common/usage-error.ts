// The caller's own mistake (an unknown runner, a bad option value): the CLI prints one line saying what
// is wrong and where the usage is, and exits 2 (nothing ran), while any other error is bad input or a bug.

export class UsageError extends Error {
  /** The command whose --help explains the usage: "run", or "" for the program itself; none when help would not help. */
  constructor(
    message: string,
    readonly helpCommand?: string,
  ) {
    super(message);
  }
}
