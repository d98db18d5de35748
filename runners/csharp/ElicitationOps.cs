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
    /// <summary>toolkit.create `waitFor`: the scripted waitFor (SuspensionOps.ScriptedWaitFor), each Request recorded with its keys fixed; none without one.</summary>
    public static Func<Request, Task<Answer>>? WaitFor(Dictionary<string, object?> input, List<object?> received) =>
        input.GetValueOrDefault("waitFor") is Dictionary<string, object?> script ? SuspensionOps.ScriptedWaitFor(script, received, RequestData) : null;

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
