using System.Diagnostics;

namespace ToolnexusConformance;

/// <summary>The operations of runners/PROTOCOL.md: the op table, and one answer per request.</summary>
sealed class Ops
{
    private readonly Session _session = new();
    private readonly Dictionary<string, Func<Dictionary<string, object?>, Task<object?>>> _table;

    public Ops()
    {
        var client = new ClientOps(_session);
        var toolkit = new ToolkitOps(_session);
        var inProcess = new InProcessOps(_session);
        _table = new()
        {
            ["session.reset"] = async _ => { await Reset(); return null; },
            ["runner.echo"] = input => Task.FromResult<object?>(new Dictionary<string, object?> { ["value"] = input.GetValueOrDefault("value") }),
            ["client.create"] = input => Task.FromResult(client.Create(input)),
            ["client.run"] = client.Run,
            ["client.ask"] = client.Ask,
            ["client.stream"] = client.Stream,
            ["client.observations"] = input => Task.FromResult(client.Observations(input)),
            ["client.metrics"] = input => Task.FromResult(MetricsOps.Metrics(_session, input)),
            ["store.get"] = client.StoreGet,
            ["store.save"] = client.StoreSave,
            ["toolkit.create"] = toolkit.Create,
            ["toolkit.tools"] = toolkit.Tools,
            ["toolkit.execute"] = toolkit.Execute,
            ["toolkit.adapter"] = toolkit.Adapter,
            ["toolkit.status"] = toolkit.Status,
            ["toolkit.warnings"] = toolkit.Warnings,
            ["toolkit.close"] = toolkit.Close,
            ["toolkit.introspect"] = _ => throw new UnsupportedException("the 0.16.0 C# port has no registry of open toolkits"),
            ["mcp.list"] = ToolkitOps.McpList,
            ["mcp.parse"] = input => Task.FromResult(ToolkitOps.McpParse(input)),
            ["toolkit.calls"] = input => SuspensionOps.ToolkitCalls(_session, input),
            ["client.create-in-process"] = input => Task.FromResult(inProcess.Create(input)),
            ["toolkit.observations"] = input => Task.FromResult(ElicitationOps.Observations(_session.ToolkitOf(input))),
        };
    }

    public async Task<Dictionary<string, object?>> Answer(long seq, string op, Dictionary<string, object?> input)
    {
        var watch = Stopwatch.StartNew();
        _session.Notes = [];
        Dictionary<string, object?> answer;
        try
        {
            var value = await Perform(op, input).ConfigureAwait(false);
            answer = new() { ["type"] = "result", ["seq"] = seq, ["elapsedMs"] = watch.Elapsed.TotalMilliseconds, ["value"] = value ?? new Dictionary<string, object?>() };
        }
        catch (UnsupportedException e)
        {
            var error = new Dictionary<string, object?> { ["kind"] = "unsupported", ["message"] = e.Message };
            answer = new() { ["type"] = "error", ["seq"] = seq, ["elapsedMs"] = watch.Elapsed.TotalMilliseconds, ["error"] = error };
        }
        catch (Exception e)
        {
            answer = new() { ["type"] = "error", ["seq"] = seq, ["elapsedMs"] = watch.Elapsed.TotalMilliseconds, ["error"] = Errors.Classify(op, e) };
        }
        if (_session.Notes.Count > 0) answer["notes"] = _session.Notes;
        return answer;
    }

    // async: a handler that throws before its first await still fails this task, not the caller.
    private async Task<object?> Perform(string op, Dictionary<string, object?> input)
    {
        if (!_table.TryGetValue(op, out var handler)) throw new UnsupportedException($"the csharp runner has no operation \"{op}\"");
        return await handler(input);
    }

    public Task Reset() => _session.Reset();
}
