// CPU load made on purpose, to measure what a busy machine does to a run (flake-check --load, the
// bench's steadiness rows): a command line that runs a command beside N busy loops, in the command's
// own session, and ends the loops when the command ends.
//
// The session matters. Linux's autogroup scheduling (on by default on desktop and CI kernels) shares
// the CPU between sessions first and between threads within a session after: six loops each in a
// session of its own leave the whole suite, children and all, one seventh of the cores, however many
// of its threads want them; six loops in the suite's own session compete thread by thread, as a
// shell's `sh -c 'while :; do :; done' &` beside a command does. conformance/README.md ("Steadiness")
// has both measured; the targets are stated for the second.

/**
 * `command`, run by a shell that first starts `count` busy loops beside it. Each loop ends as soon as
 * that shell is gone (it checks it on every turn), so a killed or crashed caller leaves none behind,
 * and the shell ends them when the command exits, with the command's exit status.
 */
export function besideCpuLoad(count: number, command: readonly string[]): string[] {
  if (!count) return [...command];
  const script = [
    "shell=$$",
    `i=0; while [ $i -lt ${count} ]; do (while kill -0 $shell 2>/dev/null; do :; done) & i=$((i + 1)); done`,
    '"$@"',
    "status=$?",
    "kill $(jobs -p) 2>/dev/null",
    "exit $status",
  ].join("\n");
  return ["sh", "-c", script, "sh", ...command];
}
