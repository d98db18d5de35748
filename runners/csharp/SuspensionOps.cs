using System.Runtime.CompilerServices;
using System.Text.Json;
using Toolnexus;
using static ToolnexusConformance.Common;
using TnJson = Toolnexus.Json;

namespace ToolnexusConformance;

/// <summary>
/// Capability client.suspension (runners/PROTOCOL.md, SPEC section 5) over the port's §10 types: the scripted
/// WaitFor, a host tool's scripted suspensions and the calls it records, a beforeTool result's pending, and
/// the Request/Answer as the port serializes them (their JsonPropertyName keys).
/// </summary>
static class SuspensionOps
{
    /// <summary>Each toolkit's host-tool calls (toolkit.calls), kept beside the toolkit, not in its entry.</summary>
    private static readonly ConditionalWeakTable<Toolkit, List<object?>> Calls = new();

    /// <summary>The port's Request, Answer (or anything) as System.Text.Json writes it, read back as protocol data.</summary>
    public static object? Wire(object? value) => value == null ? null : TnJson.ParseLoose(JsonSerializer.Serialize(value, value.GetType()));

    public static Request RequestOf(Dictionary<string, object?> data) => new()
    {
        Id = Str(data, "id"), Kind = Str(data, "kind"), Prompt = Str(data, "prompt"),
        Url = data.GetValueOrDefault("url") as string,
        Data = Clone(data.GetValueOrDefault("data")) as Dictionary<string, object?>,
        ExpiresAt = data.GetValueOrDefault("expiresAt") as string,
    };

    /// <summary>client.create `waitFor`: the scripted waitFor, each Request recorded as the port serializes it.</summary>
    public static Func<Request, Task<Answer>> WaitFor(Dictionary<string, object?> data, ClientEntry entry) =>
        ScriptedWaitFor(data, entry.WaitForCalls, request => Wire(request));

    /// <summary>
    /// A scripted waitFor (client.create's and toolkit.create's, runners/PROTOCOL.md): records each Request
    /// (`record` says how), answers the i-th call with the i-th entry after its delayMs, past the end cancelled.
    /// </summary>
    public static Func<Request, Task<Answer>> ScriptedWaitFor(Dictionary<string, object?> script, List<object?> received, Func<Request, object?> record)
    {
        var answers = script.GetValueOrDefault("answers") as List<object?> ?? [];
        return async request =>
        {
            int index;
            lock (received)
            {
                index = received.Count;
                received.Add(record(request));
            }
            if (index >= answers.Count || answers[index] is not Dictionary<string, object?> scripted)
                return new Answer { Id = request.Id, Ok = false, Reason = "cancelled" };
            if (Int(scripted, "delayMs") is int delay and > 0) await Task.Delay(delay);
            return new Answer
            {
                Id = request.Id, Ok = scripted.GetValueOrDefault("ok") is true,
                Data = Clone(scripted.GetValueOrDefault("data")) as Dictionary<string, object?>,
                Reason = scripted.GetValueOrDefault("reason") as string,
            };
        };
    }

    /// <summary>hooks.beforeTool.result's `pending`: the metadata that makes the hook's result a suspension, or null.</summary>
    public static IDictionary<string, object?>? PendingMetadata(Dictionary<string, object?> result) =>
        result.GetValueOrDefault("pending") is Dictionary<string, object?> pending
            ? new Dictionary<string, object?> { ["pending"] = RequestOf(pending) }
            : null;

    /// <summary>A host tool's recorder and script: records each call, and returns entry i's suspension on the i-th call (null: none).</summary>
    public static Func<IDictionary<string, object?>, ToolContext?, ToolResult?> Script(Dictionary<string, object?> data, List<object?> calls)
    {
        var name = Str(data, "name");
        var script = data.GetValueOrDefault("suspend") as List<object?> ?? [];
        var count = 0;
        return (args, ctx) =>
        {
            var call = new Dictionary<string, object?> { ["name"] = name, ["args"] = Clone(args) };
            if (ctx?.Answer != null) call["answer"] = Wire(ctx.Answer);
            int index;
            lock (calls)
            {
                calls.Add(call);
                index = count++;
            }
            if (index >= script.Count || script[index] is not Dictionary<string, object?> entry) return null;
            var request = RequestOf(entry.GetValueOrDefault("request") as Dictionary<string, object?> ?? []);
            var output = entry.GetValueOrDefault("output") as string ?? request.Prompt + (request.Url == null ? "" : "\n" + request.Url);
            return new ToolResult(output, entry.GetValueOrDefault("isError") is not false, new Dictionary<string, object?> { ["pending"] = request });
        };
    }

    public static void Remember(Toolkit toolkit, List<object?> calls) => Calls.AddOrUpdate(toolkit, calls);

    /// <summary>toolkit.calls: every host-tool execution of the toolkit, in the order they started.</summary>
    public static Task<object?> ToolkitCalls(Session session, Dictionary<string, object?> input)
    {
        var calls = Calls.TryGetValue(session.ToolkitOf(input).Toolkit, out var list) ? list : [];
        lock (calls) return Task.FromResult<object?>(new Dictionary<string, object?> { ["calls"] = Clone(calls) });
    }

    /// <summary>A call's result gains the port's status and, when it halted, its pending Request.</summary>
    public static Dictionary<string, object?> WithStatus(Dictionary<string, object?> value, LlmClient.RunResult result)
    {
        value["status"] = result.Status;
        if (result.Pending != null) value["pending"] = Wire(result.Pending);
        return value;
    }

    public static Dictionary<string, object?> PendingEvent(Request? request) => new() { ["type"] = "pending", ["request"] = Wire(request) };
}
