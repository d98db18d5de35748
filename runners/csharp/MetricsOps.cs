using Toolnexus;
using static ToolnexusConformance.Common;

namespace ToolnexusConformance;

/// <summary>
/// The afterLLM and afterTool hooks (capability client.hooks-after) and metrics (client.metrics): the
/// port's OnMetric events, normalized to runners/PROTOCOL.md's keys, and its Metrics() text.
/// </summary>
static class MetricsOps
{
    /// <summary>hooks.afterLLM records {turn, model, response}; hooks.afterTool records {name, args, result} and may replace it.</summary>
    public static void AfterHooks(LlmClient.Hooks hooks, Dictionary<string, object?> data, ClientEntry entry)
    {
        if (data.GetValueOrDefault("afterLLM") is Dictionary<string, object?>)
            hooks.AfterLLM = ev => entry.Add(entry.HookCalls, new Dictionary<string, object?>
            {
                ["hook"] = "afterLLM",
                ["input"] = new Dictionary<string, object?> { ["turn"] = ev.Turn, ["model"] = ev.Model, ["response"] = Clone(ev.Response) },
            });
        if (data.GetValueOrDefault("afterTool") is not Dictionary<string, object?> afterTool) return;
        var replacement = afterTool.GetValueOrDefault("result") as Dictionary<string, object?>;
        var onTools = afterTool.GetValueOrDefault("onTools") as List<object?>;
        hooks.AfterTool = ev =>
        {
            entry.Add(entry.HookCalls, new Dictionary<string, object?>
            {
                ["hook"] = "afterTool",
                ["input"] = new Dictionary<string, object?>
                {
                    ["name"] = ev.Name, ["args"] = Clone(ev.Args),
                    ["result"] = new Dictionary<string, object?> { ["output"] = ev.Result.Output, ["isError"] = ev.Result.IsError },
                },
            });
            var onThisTool = onTools == null || onTools.Any(t => t?.ToString() == ev.Name);
            if (replacement == null || !onThisTool) return null;
            return LlmClient.ToolOverride.WithResult(new ToolResult(replacement.GetValueOrDefault("output")?.ToString() ?? "", replacement.GetValueOrDefault("isError") is true));
        };
    }

    /// <summary>onMetric: true installs a sink recording every event for client.observations' metricEvents.</summary>
    public static void Install(LlmClient.Options opts, ClientEntry entry)
    {
        var events = entry.MetricEvents = [];
        opts.OnMetric = ev => entry.Add(events, Normalize(ev));
    }

    /// <summary>The port's PascalCase record as the protocol's keys; `error` only when the port gives one.</summary>
    private static Dictionary<string, object?> Normalize(MetricEvent ev) => ev.Event switch
    {
        "llm" => new()
        {
            ["event"] = "llm", ["model"] = ev.Model ?? "", ["status"] = ev.Status ?? "", ["ms"] = ev.Ms,
            ["promptTokens"] = ev.PromptTokens, ["completionTokens"] = ev.CompletionTokens,
        },
        "tool" => new()
        {
            ["event"] = "tool", ["tool"] = ev.Tool ?? "", ["source"] = ev.Source ?? "", ["isError"] = ev.IsError,
            ["pending"] = ev.Pending, ["ms"] = ev.Ms,
        },
        _ => Run(ev),
    };

    private static Dictionary<string, object?> Run(MetricEvent ev)
    {
        var run = new Dictionary<string, object?>
        {
            ["event"] = "run", ["model"] = ev.Model ?? "", ["turns"] = ev.Turns, ["toolCalls"] = ev.ToolCalls,
            ["totalTokens"] = ev.TotalTokens, ["ms"] = ev.Ms,
        };
        if (!string.IsNullOrEmpty(ev.Error)) run["error"] = ev.Error;
        return run;
    }

    /// <summary>client.metrics: the port's own Metrics() text, exactly.</summary>
    public static object? Metrics(Session session, Dictionary<string, object?> input) =>
        new Dictionary<string, object?> { ["text"] = session.ClientOf(input).Client.Metrics() };
}
