using Toolnexus;
using static ToolnexusConformance.Common;
using TnJson = Toolnexus.Json;

namespace ToolnexusConformance;

/// <summary>A toolkit handle: the port's toolkit and the warnings its load wrote.</summary>
sealed class ToolkitEntry(Toolkit toolkit, List<string> warnings)
{
    public Toolkit Toolkit { get; } = toolkit;
    public List<string> Warnings { get; } = warnings;
    public bool Closed;
    /// <summary>What the toolkit's scripted waitFor received (ElicitationOps).</summary>
    public List<object?> WaitForCalls { get; init; } = [];
}

/// <summary>The toolkit operations (toolkit.*) and the MCP ones (mcp.list, mcp.parse) over the port's Toolkit and McpSource.</summary>
sealed class ToolkitOps(Session session)
{
    public async Task<object?> Create(Dictionary<string, object?> input)
    {
        var handle = Str(input, "handle");
        if (session.Toolkits.ContainsKey(handle)) throw new ContractException("other", $"toolkit \"{handle}\" already exists");
        var calls = new List<object?>(); // toolkit.calls (SuspensionOps)
        var waitForCalls = new List<object?>();
        var opts = new Toolkit.Options
        {
            WaitFor = ElicitationOps.WaitFor(input, waitForCalls),
            McpConfig = ConfigInput(input.GetValueOrDefault("mcpConfig")),
            Builtins = false,
            ExtraTools = (input.GetValueOrDefault("extraTools") as List<object?> ?? []).OfType<Dictionary<string, object?>>().Select(d => ExtraTool(d, calls)).ToList(),
            DisableTools = (input.GetValueOrDefault("disableTools") as List<object?>)?.Select(n => n?.ToString() ?? "").ToList(),
        };
        using var token = CallerToken(input);
        Toolkit toolkit;
        List<string> warnings;
        using (var capture = new Capture())
        {
            toolkit = await Toolkit.CreateAsync(opts, token.Token);
            warnings = capture.Lines();
        }
        session.Toolkits[handle] = new ToolkitEntry(toolkit, warnings) { WaitForCalls = waitForCalls };
        SuspensionOps.Remember(toolkit, calls);
        return new Dictionary<string, object?> { ["tools"] = toolkit.Tools().Select(t => (object?)t.Name).ToList(), ["status"] = toolkit.McpStatus() };
    }

    public Task<object?> Tools(Dictionary<string, object?> input) =>
        Task.FromResult<object?>(new Dictionary<string, object?> { ["tools"] = session.ToolkitOf(input).Toolkit.Tools().Select(t => (object?)ToolInfo(t.Name, t.Description, t.InputSchema)).ToList() });

    public async Task<object?> Execute(Dictionary<string, object?> input)
    {
        ToolResult result;
        try { result = await session.ToolkitOf(input).Toolkit.ExecuteAsync(Str(input, "name"), input.GetValueOrDefault("args") as Dictionary<string, object?> ?? []); }
        catch (Exception e) when (e is not ContractException) { throw new ContractException("tool", e.Message); }
        return new Dictionary<string, object?> { ["output"] = result.Output, ["isError"] = result.IsError };
    }

    public Task<object?> Adapter(Dictionary<string, object?> input)
    {
        var tk = session.ToolkitOf(input).Toolkit;
        object value = Str(input, "format") switch
        {
            "openai" => tk.ToOpenAI(),
            "anthropic" => tk.ToAnthropic(),
            "gemini" => tk.ToGemini(),
            var f => throw new ContractException("other", $"unknown adapter format \"{f}\""),
        };
        return Task.FromResult<object?>(new Dictionary<string, object?> { ["value"] = value });
    }

    public Task<object?> Status(Dictionary<string, object?> input) =>
        Task.FromResult<object?>(new Dictionary<string, object?> { ["status"] = session.ToolkitOf(input).Toolkit.McpStatus() });

    public Task<object?> Warnings(Dictionary<string, object?> input) =>
        Task.FromResult<object?>(new Dictionary<string, object?> { ["warnings"] = session.ToolkitOf(input).Warnings.ToList() });

    public async Task<object?> Close(Dictionary<string, object?> input)
    {
        var entry = session.ToolkitOf(input);
        if (!entry.Closed) { entry.Closed = true; await entry.Toolkit.DisposeAsync(); }
        return null;
    }

    public static async Task<object?> McpList(Dictionary<string, object?> input)
    {
        using var token = CallerToken(input);
        var inventory = await McpSource.ListMcpToolsAsync(ConfigInput(input.GetValueOrDefault("config")) ?? new Dictionary<string, object?>(), token.Token);
        return new Dictionary<string, object?>
        {
            ["tools"] = inventory.Tools.ToDictionary(kv => kv.Key, kv => (object?)kv.Value.Select(i => (object?)ToolInfo(i.Name, i.Description, i.InputSchema)).ToList()),
            ["status"] = inventory.Status,
        };
    }

    /// <summary>
    /// The port's own parser, McpSource.ParseConfig (public: wrappers, reserved keys, file reading), reported
    /// field by field as it left each entry. It hands back the raw server dictionaries: the effective type,
    /// enabled state and default timeout are resolved by the port's private IsRemote / IsEnabled / TimeoutOf
    /// at connect time, so `type`, `enabled` and `timeout` are reported only as the config gave them (absent
    /// when absent), never computed here (PROTOCOL.md mcp.parse); scenarios that check them fail visibly.
    /// A field whose raw value is not of the protocol's type (a non-string type...) is left out.
    /// </summary>
    public static object? McpParse(Dictionary<string, object?> input)
    {
        var parsed = McpSource.ParseConfig(ConfigInput(input.GetValueOrDefault("config")) ?? throw new ContractException("other", "mcp.parse needs config"));
        var servers = new Dictionary<string, object?>();
        foreach (var (name, raw) in parsed)
        {
            var entry = new Dictionary<string, object?>();
            if (raw is IDictionary<string, object?> cfg)
            {
                object? Field(string key) => cfg.TryGetValue(key, out var value) ? value : null;
                if (Field("type") is string type) entry["type"] = type;
                if (Field("enabled") is bool enabled) entry["enabled"] = enabled;
                if (Field("timeout") is long or double && Convert.ToDouble(Field("timeout")) >= 0) entry["timeout"] = Field("timeout");
                if (Field("tools") is IDictionary<string, object?> tools && tools.Values.All(v => v is bool)) entry["tools"] = tools;
            }
            servers[name] = entry;
        }
        return new Dictionary<string, object?> { ["servers"] = servers };
    }

    /// <summary>`{file: PATH}` names a JSON config file (a path string for the port); any other object is the config.</summary>
    private static object? ConfigInput(object? raw) => raw switch
    {
        Dictionary<string, object?> m when m.Count == 1 && m.GetValueOrDefault("file") is string file => file,
        Dictionary<string, object?> m => m,
        _ => null,
    };

    private static ITool ExtraTool(Dictionary<string, object?> data, List<object?> calls)
    {
        var script = SuspensionOps.Script(data, calls);
        var result = data.GetValueOrDefault("result") as Dictionary<string, object?>;
        // `throws`: the tool fails the C# way, a thrown exception with exactly that message.
        var throwsMessage = data.GetValueOrDefault("throws") as string;
        return NativeTool.Of(Str(data, "name"), Str(data, "description"), data.GetValueOrDefault("inputSchema") as Dictionary<string, object?>,
            (IDictionary<string, object?> args, ToolContext? ctx) =>
            {
                if (script(args, ctx) is { } suspension) return suspension;
                if (throwsMessage != null) throw new InvalidOperationException(throwsMessage);
                return result != null
                    ? new ToolResult(result.GetValueOrDefault("output")?.ToString() ?? "", result.GetValueOrDefault("isError") is true)
                    : (object?)TnJson.Stringify(args);
            });
    }
}
