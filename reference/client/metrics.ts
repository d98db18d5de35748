// The client's metrics (SPEC.md client.metrics.*): the events a host's onMetric receives, and the
// Prometheus text the same events add up to, which upstream pins byte for byte across its ports.

/** One metric event (SPEC.md client.metrics.events): an LLM call, a tool call, or a whole call. */
export type MetricEvent =
  | { event: "llm"; model: string; status: "ok" | "error"; ms: number; promptTokens: number; completionTokens: number }
  | { event: "tool"; tool: string; source: string; isError: boolean; pending: boolean; ms: number }
  | { event: "run"; model: string; turns: number; toolCalls: number; totalTokens: number; ms: number; error?: string };

/** Histogram bounds in seconds (client.metrics.histogram); each is rendered as its JavaScript number text. */
export const DURATION_BUCKETS: readonly number[] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

interface Histogram {
  /** Per bound, the observations at or below it (cumulative, as Prometheus buckets are). */
  counts: number[];
  sum: number;
  count: number;
}

/** Backslash first, so the backslashes the other two escapes add are not doubled again. */
const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

/** A series' labels, rendered in their fixed order: the series is keyed, and sorted, by this text. */
const labels = (...pairs: [string, string][]) => pairs.map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(",");

function add(series: Map<string, number>, key: string, by: number): void {
  series.set(key, (series.get(key) ?? 0) + by);
}

function observe(series: Map<string, Histogram>, key: string, seconds: number): void {
  const histogram = series.get(key) ?? { counts: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 };
  series.set(key, histogram);
  histogram.sum += seconds;
  histogram.count += 1;
  DURATION_BUCKETS.forEach((bound, i) => {
    if (seconds <= bound) histogram.counts[i]! += 1;
  });
}

/** Series keys in order: JavaScript's sort compares UTF-16 code units (decision 47). */
const keysOf = (series: Map<string, unknown>) => [...series.keys()].sort();

const header = (name: string, help: string, type: string) => [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];

function counter(name: string, help: string, series: Map<string, number>): string[] {
  return [...header(name, help, "counter"), ...keysOf(series).map((key) => `${name}{${key}} ${series.get(key)}`)];
}

function histogram(name: string, help: string, series: Map<string, Histogram>): string[] {
  return [
    ...header(name, help, "histogram"),
    ...keysOf(series).flatMap((key) => {
      const { counts, sum, count } = series.get(key)!;
      // A sum is rendered as JavaScript writes the number (decision 48): never an exponent for a duration.
      return [
        ...DURATION_BUCKETS.map((bound, i) => `${name}_bucket{${key},le="${bound}"} ${counts[i]}`),
        `${name}_bucket{${key},le="+Inf"} ${count}`,
        `${name}_sum{${key}} ${sum}`,
        `${name}_count{${key}} ${count}`,
      ];
    }),
  ];
}

export interface MetricsRegistry {
  record(event: MetricEvent): void;
  /** The Prometheus text exposition of everything recorded so far (client.metrics.text). */
  render(): string;
}

export function createMetricsRegistry(): MetricsRegistry {
  const llmRequests = new Map<string, number>();
  const llmTokens = new Map<string, number>();
  const llmDuration = new Map<string, Histogram>();
  const toolCalls = new Map<string, number>();
  const toolDuration = new Map<string, Histogram>();
  const runErrors = new Map<string, number>();
  return {
    record(event) {
      if (event.event === "llm") {
        add(llmRequests, labels(["model", event.model], ["status", event.status]), 1);
        // A failed call counted no tokens; an answered one adds both series, even by 0.
        if (event.status === "ok") {
          add(llmTokens, labels(["type", "prompt"]), event.promptTokens);
          add(llmTokens, labels(["type", "completion"]), event.completionTokens);
        }
        observe(llmDuration, labels(["model", event.model]), event.ms / 1000);
      } else if (event.event === "tool") {
        add(
          toolCalls,
          labels(["tool", event.tool], ["source", event.source], ["is_error", `${event.isError}`], ["pending", `${event.pending}`]),
          1,
        );
        observe(toolDuration, labels(["tool", event.tool]), event.ms / 1000);
      } else if (event.error !== undefined) {
        add(runErrors, labels(["model", event.model]), 1);
      }
    },
    render() {
      const lines = [
        ...counter("toolnexus_llm_requests_total", "Total LLM requests.", llmRequests),
        ...counter("toolnexus_llm_tokens_total", "Total tokens, by type.", llmTokens),
        ...histogram("toolnexus_llm_request_duration_seconds", "LLM request duration in seconds.", llmDuration),
        ...counter("toolnexus_tool_calls_total", "Total tool calls.", toolCalls),
        ...histogram("toolnexus_tool_duration_seconds", "Tool execution duration in seconds.", toolDuration),
        ...counter("toolnexus_run_errors_total", "Total run errors.", runErrors),
      ];
      return `${lines.join("\n")}\n`;
    },
  };
}
