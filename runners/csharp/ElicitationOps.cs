using System.Text.Json;
using Toolnexus;
using static ToolnexusConformance.Common;
using TnJson = Toolnexus.Json;

namespace ToolnexusConformance;

/// <summary>
/// toolkit.create's `waitFor` and toolkit.observations (capability mcp.elicitation): the scripted host
/// resolver the port's elicitation bridge calls (Toolkit.Options.WaitFor), and every Request it received.
/// </summary>
static class ElicitationOps
{
    /// <summary>The i-th call answers the i-th entry, after its delayMs, under the request's id; past the end: cancelled.</summary>
    public static Func<Request, Task<Answer>>? WaitFor(Dictionary<string, object?> input, List<object?> received)
    {
        if (input.GetValueOrDefault("waitFor") is not Dictionary<string, object?> script) return null;
        var answers = script.GetValueOrDefault("answers") as List<object?> ?? [];
        return async request =>
        {
            int index;
            lock (received)
            {
                index = received.Count;
                received.Add(RequestData(request));
            }
            if (index >= answers.Count || answers[index] is not Dictionary<string, object?> answer)
                return new Answer { Id = request.Id, Ok = false, Reason = "cancelled" };
            if (Int(answer, "delayMs") is int delay and > 0) await Task.Delay(delay);
            return new Answer
            {
                Id = request.Id, Ok = answer.GetValueOrDefault("ok") is true,
                Data = Clone(answer.GetValueOrDefault("data")) as Dictionary<string, object?>, Reason = answer.GetValueOrDefault("reason") as string,
            };
        };
    }

    public static object? Observations(ToolkitEntry entry)
    {
        lock (entry.WaitForCalls) return new Dictionary<string, object?> { ["waitForCalls"] = entry.WaitForCalls.ToList() };
    }

    /// <summary>The Request as the port made it, its keys fixed; a key the port left null is left out.</summary>
    private static Dictionary<string, object?> RequestData(Request request)
    {
        var data = new Dictionary<string, object?> { ["id"] = request.Id, ["kind"] = request.Kind, ["prompt"] = request.Prompt };
        if (request.Url != null) data["url"] = request.Url;
        // The bridge puts the SDK's own schema object in Data: it is written as the SDK writes it on the wire.
        if (request.Data != null) data["data"] = TnJson.ParseLoose(JsonSerializer.Serialize(request.Data, ModelContextProtocol.McpJsonUtilities.DefaultOptions));
        if (request.ExpiresAt != null) data["expiresAt"] = request.ExpiresAt;
        return data;
    }
}
