// `conformance obtainable [SUBJECTS...]`: what this machine can obtain for each runner
// (conformance/subjects/obtainability.ts), decided now or read from a decision file (--from), printed
// on stderr and, when decided now, added to the CI step summary. With SUBJECTS (NAME, NAME@source) it
// prints on stdout, one a line, those to be had here, so a script requires exactly those (CI's
// conformance job); the others are said on stderr with the reason. Exit 1 when a subject's package
// client hung (nothing said no: the port is not excused), 2 on bad input.
import type { Command } from "commander";
import { writeOutput } from "../common/write-output.ts";
import { decideObtainability, readObtainability, splitVerdicts } from "../subjects/obtainability.ts";
import { formatObtainability, renderObtainabilityMarkdown } from "../report/obtainability.ts";
import { appendStepSummary } from "../report/step-summary.ts";

interface ObtainableOptions {
  json?: string;
  from?: string;
  heading?: string;
}

export function registerObtainableCommand(program: Command): void {
  program
    .command("obtainable")
    .description(
      "what this machine can obtain for each runner: its toolchain and its package client's answer; with SUBJECTS, prints those to be had here (exit 1 when a client hung)",
    )
    .argument("[subjects...]", "subjects to sort: NAME or NAME@source")
    .option("--json <file>", "write the decision (conformance/schema/obtainability.schema.json)")
    .option("--from <file>", "read a decision written by --json instead of asking again")
    .option("--heading <text>", "the first line printed", "what this machine obtains")
    .action(async (subjects: string[], options: ObtainableOptions) => {
      const decision = options.from ? readObtainability(options.from) : await decideObtainability();
      if (options.json) await writeOutput(options.json, `${JSON.stringify(decision, null, 2)}\n`);
      if (!options.from) await appendStepSummary(renderObtainabilityMarkdown(decision));
      console.error(formatObtainability(decision, options.heading).join("\n"));
      if (!subjects.length) return;
      const { here, excused, undecided } = splitVerdicts(decision, subjects);
      for (const verdict of excused) console.error(`not required here: ${verdict.subject}: ${verdict.why}`);
      for (const verdict of undecided) console.error(`UNDECIDED ${verdict.subject}: ${verdict.why}`);
      for (const verdict of here) console.log(verdict.subject);
      process.exitCode = undecided.length ? 1 : 0;
    });
}
