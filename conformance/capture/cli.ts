// The capture workflow's commands (import, record), registered on the main program.
import type { Command } from "commander";

export function registerCaptureCommands(_program: Command): void {}
