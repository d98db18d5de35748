// Turns the CLI's subject options into subjects: the in-process reference, or runners.
import type { Entry } from "../schema/baseline.types.ts";
import { createReferenceSubject, referenceInfo } from "./reference/index.ts";
import type { Subject, SubjectInfo } from "./subject.ts";

export interface SubjectChoice {
  subject?: string;
  runners: string[];
  runnerCommand?: string;
}

export interface OpenedSubject {
  info: SubjectInfo;
  subject?: Subject;
  unavailableReason?: string;
  baseline: Map<string, Entry>;
  /** Named on the command line (not via `all`): its unavailability fails the run. */
  explicitlyRequested: boolean;
}

export async function openSubjects(choice: SubjectChoice): Promise<OpenedSubject[]> {
  const opened: OpenedSubject[] = [];
  const wantsReference = choice.subject === "reference" || (!choice.subject && !choice.runners.length && !choice.runnerCommand);
  if (choice.subject && choice.subject !== "reference") throw new Error(`unknown in-process subject "${choice.subject}"; expected: reference`);
  if (wantsReference) opened.push({ info: referenceInfo("reference"), subject: createReferenceSubject(), baseline: new Map(), explicitlyRequested: true });
  if (choice.runners.length || choice.runnerCommand) throw new Error("runners are not available in this build yet");
  return opened;
}
