// The harness's one client of runners/PROTOCOL.md, over any transport: the handshake, seq numbers,
// and the checks on every answer (a protocol message, the seq asked, a value that fits the op's
// output schema). Every subject speaks through it, so each answer means the same from every subject.
import { createRequire } from "node:module";
import type { Implementation, ProtocolMessage } from "../../runners/protocol/protocol.types.ts";
import { compileSchema } from "../../runners/protocol/json-schema.ts";
import { outputProblem, protocolVersion, type RunnerAnswer } from "../../runners/protocol/protocol.ts";
import { SubjectBrokenError, type OperationOutcome } from "./subject.ts";
import type { Transport } from "./transport.ts";

const require = createRequire(import.meta.url);
const validateMessage = compileSchema<ProtocolMessage>(require("../../runners/protocol/protocol.schema.json"));

/** The runner answered the handshake with `unavailable`: its implementation cannot run here. */
export class RunnerUnavailableError extends Error {}

export interface ClientHooks {
  /** Every answer to a request that is a protocol message with the right seq (the runner is talking); its `notes` are there. */
  onAnswer?(answer: RunnerAnswer): void;
}

export class ProtocolClient {
  private seq = 0;

  constructor(
    readonly transport: Transport,
    private readonly hooks: ClientHooks = {},
  ) {}

  /** The hello exchange: the implementation the runner drives, or RunnerUnavailableError / SubjectBrokenError. */
  async handshake(timeoutMs: number): Promise<Implementation> {
    const answer = await this.answer({ type: "hello", from: "harness", protocol: protocolVersion }, 0, timeoutMs, "the handshake");
    const stderr = () => this.transport.stderr;
    if (answer.type !== "hello") throw new SubjectBrokenError(`runner answered the handshake with a "${answer.type}" message`, stderr());
    if (answer.unavailable !== undefined) throw new RunnerUnavailableError(answer.unavailable);
    if (answer.error !== undefined) {
      const older =
        answer.protocol !== protocolVersion
          ? ` (it speaks protocol ${answer.protocol}: update it as runners/PROTOCOL.md#versions says)`
          : "";
      throw new SubjectBrokenError(`runner refused protocol ${protocolVersion}: ${answer.error}${older}`, stderr());
    }
    if (answer.protocol !== protocolVersion) {
      throw new SubjectBrokenError(
        `runner speaks protocol ${answer.protocol}, the harness ${protocolVersion}: update it as runners/PROTOCOL.md#versions says`,
        stderr(),
      );
    }
    return answer.implementation!;
  }

  /**
   * Perform one operation. Resolves with its outcome; rejects with SubjectBrokenError when the runner
   * (not the implementation) broke: a crash answer, or a value that does not fit the op's output schema.
   */
  async request(op: string, input: Record<string, unknown>, timeoutMs: number): Promise<OperationOutcome> {
    const seq = ++this.seq;
    const answer = await this.answer({ type: "request", seq, op, input }, seq, timeoutMs, `${op} (seq ${seq})`);
    this.hooks.onAnswer?.(answer);
    switch (answer.type) {
      case "result": {
        const problem = outputProblem(op, answer.value);
        if (problem)
          throw new SubjectBrokenError(
            `runner answered ${op} with a value that does not fit runners/protocol/outputs.schema.json (a runner bug): ${problem}`,
            this.transport.drainStderr(),
          );
        return { ok: true, value: answer.value, elapsedMs: answer.elapsedMs };
      }
      case "error": {
        const { error } = answer;
        // An unsupported op or option is said the same way from every subject, naming the op.
        const message = error.kind === "unsupported" ? `runner says ${op} is unsupported: ${error.message}` : error.message;
        return { ok: false, error: { ...error, message }, elapsedMs: answer.elapsedMs };
      }
      case "crash":
        throw new SubjectBrokenError(`runner crashed in ${op}: ${answer.message}`, this.transport.drainStderr());
      default:
        throw new SubjectBrokenError(`runner answered ${op} with a "${answer.type}" message`);
    }
  }

  /** Send, then check the answer is a protocol message answering `seq` (0: the handshake); a runner that breaks that is ended. */
  private async answer(message: Parameters<Transport["exchange"]>[0], seq: number, timeoutMs: number, what: string): Promise<RunnerAnswer> {
    const answer = await this.transport.exchange(message, timeoutMs, what);
    if (!validateMessage(answer)) {
      const problem = validateMessage.errors?.[0];
      throw this.transport.fail(
        `runner wrote a message that does not fit the protocol (${problem?.instancePath || "(top)"} ${problem?.message}): ${JSON.stringify(answer).slice(0, 200)}`,
      );
    }
    const answered = "seq" in answer ? answer.seq : 0;
    if (answered !== seq) throw this.transport.fail(`runner answered seq ${answered} while seq ${seq} was asked`);
    if (answer.type === "request" || (answer.type === "hello" && answer.from === "harness"))
      throw this.transport.fail(`runner sent a harness message: ${JSON.stringify(answer).slice(0, 200)}`);
    return answer;
  }
}
