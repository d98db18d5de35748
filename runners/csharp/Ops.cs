using System.Diagnostics;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using Json.Patch;
using Toolnexus;
using TnJson = Toolnexus.Json;

namespace ToolnexusConformance;

/// <summary>The op or option has no counterpart in the port: answered as error kind `unsupported`.</summary>
sealed class UnsupportedException(string reason) : Exception(reason);

/// <summary>A failure the runner itself detects (unknown handle...), with its protocol kind.</summary>
sealed class ContractException(string kind, string message) : Exception(message)
{
    public string Kind { get; } = kind;
}

sealed class ClientEntry
{
    public LlmClient Client = null!;
    public IConversationStore? Provided;
    public readonly List<string> Warnings = [];
    public readonly List<object?> TransformInputs = [];
    public readonly List<object?> HookCalls = [];
    public readonly List<object?> TransportRequests = [];
    /// <summary>Body transform calls in the current run/ask/stream: the turn (it runs once per LLM request).</summary>
    public int Turn;
    public void Add(List<object?> list, object? value) { lock (this) list.Add(value); }
}

sealed class ToolkitEntry(Toolkit toolkit, List<string> warnings)
{
    public Toolkit Toolkit { get; } = toolkit;
    public List<string> Warnings { get; } = warnings;
    public bool Closed;
}

/// <summary>Records {method, url, body} of each LLM request, then forwards it (transport: "recording").</summary>
sealed class RecordingHandler(ClientEntry entry) : DelegatingHandler(new HttpClientHandler())
{
    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken ct)
    {
        object? body = null;
        if (request.Content != null)
        {
            var text = await request.Content.ReadAsStringAsync(ct).ConfigureAwait(false);
            body = TnJson.ParseLoose(text);
        }
        entry.Add(entry.TransportRequests, new Dictionary<string, object?>
        {
            ["method"] = request.Method.Method, ["url"] = request.RequestUri?.ToString(), ["body"] = body,
        });
        return await base.SendAsync(request, ct).ConfigureAwait(false);
    }
}

/// <summary>Captures what the port writes to Console.Error during one operation (still echoed to stderr).</summary>
sealed class Capture : IDisposable
{
    private readonly StringWriter _buffer = new();
    private readonly TextWriter _stderr;
    public Capture(TextWriter stderr)
    {
        _stderr = stderr;
        Console.SetError(TextWriter.Synchronized(new Tee(_buffer, stderr)));
    }
    public List<string> Lines()
    {
        lock (_buffer) return _buffer.ToString().Split('\n').Select(l => l.TrimEnd('\r')).Where(l => l.Trim().Length > 0).ToList();
    }
    public void Dispose() => Console.SetError(_stderr);

    private sealed class Tee(StringWriter buffer, TextWriter echo) : TextWriter
    {
        public override System.Text.Encoding Encoding => System.Text.Encoding.UTF8;
        public override void Write(char value) { lock (buffer) buffer.Write(value); echo.Write(value); }
        public override void Write(string? value) { lock (buffer) buffer.Write(value); echo.Write(value); }
        public override void WriteLine(string? value) { lock (buffer) buffer.WriteLine(value); echo.WriteLine(value); }
    }
}

sealed class Ops(TextWriter stderr)
{
    private Dictionary<string, ClientEntry> _clients = [];
    private Dictionary<string, ToolkitEntry> _toolkits = [];
    private Toolkit? _empty;

    // The 0.16.0 port throws InvalidOperationException("LLM <status>: <body>") for a non-2xx answer.
    private static readonly Regex HttpError = new(@"^LLM (\d{3}): (.*)$", RegexOptions.Singleline);

    public async Task<Dictionary<string, object?>> Answer(long seq, string op, Dictionary<string, object?> input)
    {
        var watch = Stopwatch.StartNew();
        try
        {
            var value = await Perform(op, input).ConfigureAwait(false);
            return new() { ["type"] = "result", ["seq"] = seq, ["elapsedMs"] = watch.Elapsed.TotalMilliseconds, ["value"] = value ?? new Dictionary<string, object?>() };
        }
        catch (UnsupportedException e)
        {
            var error = new Dictionary<string, object?> { ["kind"] = "unsupported", ["message"] = e.Message };
            return new() { ["type"] = "error", ["seq"] = seq, ["elapsedMs"] = watch.Elapsed.TotalMilliseconds, ["error"] = error };
        }
        catch (Exception e)
        {
            return new() { ["type"] = "error", ["seq"] = seq, ["elapsedMs"] = watch.Elapsed.TotalMilliseconds, ["error"] = Classify(op, e) };
        }
    }

    private static Dictionary<string, object?> Classify(string op, Exception error)
    {
        var kind = "other";
        var output = new Dictionary<string, object?>();
        switch (error)
        {
            case ContractException c: kind = c.Kind; break;
            case LlmClient.RunTimeoutException: kind = "deadline"; break;
            // A CancellationToken cannot tell a cancel from a deadline: cancelled (PROTOCOL.md).
            case OperationCanceledException: kind = "cancelled"; break;
            default:
                var match = HttpError.Match(error.Message);
                if (match.Success)
                {
                    kind = "http";
                    var body = match.Groups[2].Value;
                    output["details"] = new Dictionary<string, object?> { ["status"] = long.Parse(match.Groups[1].Value), ["bodyExcerpt"] = body.Length > 500 ? body[..500] : body };
                }
                else if ((op == "toolkit.create" || op.StartsWith("mcp.")) && error is JsonException) kind = "config";
                break;
        }
        output["kind"] = kind;
        output["type"] = error.GetType().FullName;
        output["message"] = error.Message;
        return output;
    }

    private async Task<object?> Perform(string op, Dictionary<string, object?> input)
    {
        switch (op)
        {
            case "session.reset": await Reset(); return null;
            case "runner.echo": return new Dictionary<string, object?> { ["value"] = input.GetValueOrDefault("value") };
            case "client.create": return ClientCreate(input);
            // abortAfterMs (client.cancel): the call's CancellationToken fires that many ms in; none given, never.
            case "client.run":
            {
                using var caller = CallerToken(input);
                return await WithClient(input, async (e, tk) => RunResult(await e.Client.RunAsync(Str(input, "prompt"), tk, input.GetValueOrDefault("history") as List<object?>, caller.Token)));
            }
            case "client.ask":
            {
                using var caller = CallerToken(input);
                return await WithClient(input, async (e, tk) => RunResult(await e.Client.AskAsync(Str(input, "prompt"), tk, Str(input, "id"), null, caller.Token)));
            }
            case "client.stream": return await WithClient(input, (e, tk) => Stream(e, tk, input));
            case "client.observations": return Observations(input);
            case "store.get":
                return new Dictionary<string, object?> { ["messages"] = await ClientOf(input).Client.ConversationStore().GetAsync(Str(input, "id")) };
            case "store.save":
                await ClientOf(input).Client.ConversationStore().SaveAsync(Str(input, "id"), input.GetValueOrDefault("messages") as List<object?> ?? []);
                return null;
            case "toolkit.create": return await ToolkitCreate(input);
            case "toolkit.tools":
                return new Dictionary<string, object?> { ["tools"] = ToolkitOf(input).Toolkit.Tools().Select(t => (object?)ToolInfo(t.Name, t.Description, t.InputSchema)).ToList() };
            case "toolkit.execute":
            {
                ToolResult result;
                try { result = await ToolkitOf(input).Toolkit.ExecuteAsync(Str(input, "name"), input.GetValueOrDefault("args") as Dictionary<string, object?> ?? []); }
                catch (Exception e) when (e is not ContractException) { throw new ContractException("tool", e.Message); }
                return new Dictionary<string, object?> { ["output"] = result.Output, ["isError"] = result.IsError };
            }
            case "toolkit.adapter":
            {
                var tk = ToolkitOf(input).Toolkit;
                object value = Str(input, "format") switch
                {
                    "openai" => tk.ToOpenAI(),
                    "anthropic" => tk.ToAnthropic(),
                    "gemini" => tk.ToGemini(),
                    var f => throw new ContractException("other", $"unknown adapter format \"{f}\""),
                };
                return new Dictionary<string, object?> { ["value"] = value };
            }
            case "toolkit.status": return new Dictionary<string, object?> { ["status"] = ToolkitOf(input).Toolkit.McpStatus() };
            case "toolkit.warnings": return new Dictionary<string, object?> { ["warnings"] = ToolkitOf(input).Warnings.ToList() };
            case "toolkit.close":
            {
                var entry = ToolkitOf(input);
                if (!entry.Closed) { entry.Closed = true; await entry.Toolkit.DisposeAsync(); }
                return null;
            }
            case "toolkit.introspect": throw new UnsupportedException("the 0.16.0 C# port has no registry of open toolkits");
            case "mcp.list": return await McpList(input);
            case "mcp.parse": return McpParse(input);
            default: throw new UnsupportedException($"the csharp runner has no operation \"{op}\"");
        }
    }

    public async Task Reset()
    {
        foreach (var entry in _toolkits.Values.Where(e => !e.Closed))
        {
            entry.Closed = true;
            try { await entry.Toolkit.DisposeAsync(); } catch { /* best effort */ }
        }
        if (_empty != null) await _empty.DisposeAsync();
        _empty = null;
        _clients = [];
        _toolkits = [];
    }

    // ---------------------------------------------------------------- client

    private object? ClientCreate(Dictionary<string, object?> input)
    {
        var handle = Str(input, "handle");
        if (_clients.ContainsKey(handle)) throw new ContractException("other", $"client \"{handle}\" already exists");
        var entry = new ClientEntry();
        var opts = new LlmClient.Options
        {
            BaseUrl = Str(input, "baseUrl"), Style = Str(input, "style"), Model = Str(input, "model"),
            ApiKey = input.GetValueOrDefault("apiKey") as string,
            SystemPrompt = input.GetValueOrDefault("systemPrompt") as string,
            MaxTurns = Int(input, "maxTurns"), Retries = Int(input, "retries"), RetryBaseMs = Int(input, "retryBaseMs"),
            TimeoutMs = Int(input, "timeoutMs"),
        };
        if (input.GetValueOrDefault("headers") is Dictionary<string, object?> headers)
            opts.Headers = headers.ToDictionary(kv => kv.Key, kv => kv.Value?.ToString() ?? "");
        if (input.GetValueOrDefault("requestParams") is Dictionary<string, object?> requestParams) opts.RequestParams = requestParams;
        if (input.GetValueOrDefault("bodyTransform") is Dictionary<string, object?> transform) opts.BodyTransform = BodyTransform(transform, entry);
        if (input.GetValueOrDefault("hooks") is Dictionary<string, object?> hooks) opts.Hooks = Hooks(hooks, entry);
        if (Str(input, "transport") == "recording") opts.HttpClient = new HttpClient(new RecordingHandler(entry));
        if (Str(input, "store") == "provided") opts.Store = entry.Provided = new InMemoryConversationStore();
        entry.Client = LlmClient.Create(opts);
        _clients[handle] = entry;
        return null;
    }

    /// <summary>bodyTransform as data: record a deep copy of the body, then return null or the RFC 6902-patched body.</summary>
    private Func<IDictionary<string, object?>, IDictionary<string, object?>?> BodyTransform(Dictionary<string, object?> data, ClientEntry entry)
    {
        var returnNull = data.GetValueOrDefault("returnNull") is true;
        var inPlace = data.GetValueOrDefault("inPlace") is true;
        var patch = data.ContainsKey("patch") ? JsonSerializer.Deserialize<JsonPatch>(TnJson.Stringify(data["patch"])) : null;
        var onTurns = data.GetValueOrDefault("onTurns") as List<object?>;
        return body =>
        {
            entry.Add(entry.TransformInputs, Clone(body));
            var turn = System.Threading.Interlocked.Increment(ref entry.Turn) - 1;
            // Not on this turn: the body goes out as built.
            if (onTurns != null && !onTurns.Any(t => Convert.ToInt64(t) == turn)) return body;
            if (inPlace && patch != null)
            {
                // inPlace: the patched document's keys replace the received dictionary's own, so the edit lives in it.
                var applied = patch.Apply(JsonNode.Parse(TnJson.Stringify(body)));
                if (applied.Error != null) stderr.WriteLine($"csharp runner: bodyTransform patch does not apply: {applied.Error}");
                else if (TnJson.ParseLoose(applied.Result?.ToJsonString() ?? "null") is Dictionary<string, object?> edited)
                {
                    body.Clear();
                    foreach (var (key, value) in edited) body[key] = value;
                }
            }
            if (returnNull) return null;
            if (patch == null || inPlace) return body;
            var result = patch.Apply(JsonNode.Parse(TnJson.Stringify(body)));
            if (result.Error != null)
            {
                stderr.WriteLine($"csharp runner: bodyTransform patch does not apply: {result.Error}");
                return body;
            }
            return TnJson.ParseLoose(result.Result?.ToJsonString() ?? "null") as Dictionary<string, object?> ?? body;
        };
    }

    private static LlmClient.Hooks Hooks(Dictionary<string, object?> data, ClientEntry entry)
    {
        var hooks = new LlmClient.Hooks();
        if (data.GetValueOrDefault("beforeLLM") is Dictionary<string, object?> beforeLlm)
        {
            var setTools = beforeLlm.GetValueOrDefault("setTools") as List<object?>;
            var onTurns = beforeLlm.GetValueOrDefault("onTurns") as List<object?>;
            hooks.BeforeLLM = ev =>
            {
                entry.Add(entry.HookCalls, new Dictionary<string, object?>
                {
                    ["hook"] = "beforeLLM",
                    ["input"] = new Dictionary<string, object?> { ["turn"] = ev.Turn, ["messageCount"] = ev.Messages.Count, ["toolCount"] = ev.Tools.Count },
                });
                var onThisTurn = onTurns == null || onTurns.Any(t => Convert.ToInt64(t) == ev.Turn);
                if (setTools == null || !onThisTurn) return null;
                var tools = ((List<object?>)Clone(setTools)!).OfType<Dictionary<string, object?>>().ToList();
                return new LlmClient.LLMOverride(Tools: tools);
            };
        }
        if (data.GetValueOrDefault("beforeTool") is Dictionary<string, object?> beforeTool)
        {
            hooks.BeforeTool = ev =>
            {
                entry.Add(entry.HookCalls, new Dictionary<string, object?>
                {
                    ["hook"] = "beforeTool",
                    ["input"] = new Dictionary<string, object?> { ["name"] = ev.Name, ["args"] = Clone(ev.Args) },
                });
                if (beforeTool.GetValueOrDefault("result") is Dictionary<string, object?> r)
                    return LlmClient.ToolOverride.WithResult(new ToolResult(r.GetValueOrDefault("output")?.ToString() ?? "", r.GetValueOrDefault("isError") is true));
                if (beforeTool.GetValueOrDefault("args") is Dictionary<string, object?> a)
                    return LlmClient.ToolOverride.WithArgs((Dictionary<string, object?>)Clone(a)!);
                return null;
            };
        }
        return hooks;
    }

    /// <summary>One client call, with what the port writes to Console.Error captured as the client's warnings.</summary>
    private async Task<object?> WithClient(Dictionary<string, object?> input, Func<ClientEntry, Toolkit, Task<object?>> call)
    {
        var entry = ClientOf(input);
        var toolkit = await ToolkitFor(input);
        System.Threading.Interlocked.Exchange(ref entry.Turn, 0); // a new call starts at turn 0
        var capture = new Capture(stderr);
        try { return await call(entry, toolkit); }
        finally
        {
            capture.Dispose();
            lock (entry) entry.Warnings.AddRange(capture.Lines());
        }
    }

    private static async Task<object?> Stream(ClientEntry entry, Toolkit toolkit, Dictionary<string, object?> input)
    {
        var events = new List<object?>();
        var sawUsage = false;
        using var caller = CallerToken(input);
        var result = await entry.Client.StreamAsync(Str(input, "prompt"), toolkit, ev =>
        {
            switch (ev.Type)
            {
                case LlmClient.StreamKind.Text: events.Add(new Dictionary<string, object?> { ["type"] = "text", ["delta"] = ev.Delta }); break;
                case LlmClient.StreamKind.ToolCall:
                    events.Add(new Dictionary<string, object?> { ["type"] = "tool_call", ["id"] = ev.Id, ["name"] = ev.Name, ["args"] = Clone(ev.Args ?? new Dictionary<string, object?>()) });
                    break;
                case LlmClient.StreamKind.ToolResult:
                    events.Add(new Dictionary<string, object?> { ["type"] = "tool_result", ["id"] = ev.Id, ["name"] = ev.Name, ["output"] = ev.Output, ["isError"] = ev.IsError });
                    break;
                case LlmClient.StreamKind.Usage: sawUsage = true; break; // reported once, with the call's totals
            }
        }, input.GetValueOrDefault("id") as string, caller.Token);
        if (sawUsage) events.Add(new Dictionary<string, object?> { ["type"] = "usage", ["input"] = result.Usage.PromptTokens, ["output"] = result.Usage.CompletionTokens });
        events.Add(new Dictionary<string, object?> { ["type"] = "done" });
        var value = RunResult(result);
        value["events"] = events;
        return value;
    }

    private object? Observations(Dictionary<string, object?> input)
    {
        var entry = ClientOf(input);
        var accessor = entry.Client.ConversationStore();
        var storeAccessor = entry.Provided != null
            ? (ReferenceEquals(accessor, entry.Provided) ? "provided" : "missing")
            : (accessor != null ? "default" : "missing");
        lock (entry)
        {
            return new Dictionary<string, object?>
            {
                ["transformInputs"] = Clone(entry.TransformInputs), ["hookCalls"] = Clone(entry.HookCalls),
                ["warnings"] = entry.Warnings.ToList(), ["transportRequests"] = Clone(entry.TransportRequests),
                ["storeAccessor"] = storeAccessor,
            };
        }
    }

    private static Dictionary<string, object?> RunResult(LlmClient.RunResult r) => new()
    {
        ["text"] = r.Text,
        ["usage"] = new Dictionary<string, object?> { ["input"] = r.Usage.PromptTokens, ["output"] = r.Usage.CompletionTokens },
        ["messages"] = r.Messages,
    };

    // ---------------------------------------------------------------- toolkit / mcp

    /// <summary>`{file: PATH}` names a JSON config file (a path string for the port); any other object is the config.</summary>
    private static object? ConfigInput(object? raw) => raw switch
    {
        Dictionary<string, object?> m when m.Count == 1 && m.GetValueOrDefault("file") is string file => file,
        Dictionary<string, object?> m => m,
        _ => null,
    };

    /// <summary>abortAfterMs / deadlineMs as a CancellationToken that fires that many ms after the load starts.</summary>
    private static CancellationTokenSource CallerToken(Dictionary<string, object?> input)
    {
        var source = new CancellationTokenSource();
        var after = Int(input, "deadlineMs") ?? Int(input, "abortAfterMs");
        if (after != null) source.CancelAfter(after.Value);
        return source;
    }

    private static ITool ExtraTool(Dictionary<string, object?> data)
    {
        var result = data.GetValueOrDefault("result") as Dictionary<string, object?>;
        // `throws`: the tool fails the C# way, a thrown exception with exactly that message.
        var throwsMessage = data.GetValueOrDefault("throws") as string;
        return NativeTool.Of(Str(data, "name"), Str(data, "description"), data.GetValueOrDefault("inputSchema") as Dictionary<string, object?>,
            (IDictionary<string, object?> args) =>
            {
                if (throwsMessage != null) throw new InvalidOperationException(throwsMessage);
                return result != null
                    ? new ToolResult(result.GetValueOrDefault("output")?.ToString() ?? "", result.GetValueOrDefault("isError") is true)
                    : (object?)TnJson.Stringify(args);
            });
    }

    private async Task<object?> ToolkitCreate(Dictionary<string, object?> input)
    {
        var handle = Str(input, "handle");
        if (_toolkits.ContainsKey(handle)) throw new ContractException("other", $"toolkit \"{handle}\" already exists");
        var opts = new Toolkit.Options
        {
            McpConfig = ConfigInput(input.GetValueOrDefault("mcpConfig")),
            Builtins = false,
            ExtraTools = (input.GetValueOrDefault("extraTools") as List<object?> ?? []).OfType<Dictionary<string, object?>>().Select(ExtraTool).ToList(),
            DisableTools = (input.GetValueOrDefault("disableTools") as List<object?>)?.Select(n => n?.ToString() ?? "").ToList(),
        };
        using var token = CallerToken(input);
        Toolkit toolkit;
        List<string> warnings;
        using (var capture = new Capture(stderr))
        {
            toolkit = await Toolkit.CreateAsync(opts, token.Token);
            warnings = capture.Lines();
        }
        _toolkits[handle] = new ToolkitEntry(toolkit, warnings);
        return new Dictionary<string, object?> { ["tools"] = toolkit.Tools().Select(t => (object?)t.Name).ToList(), ["status"] = toolkit.McpStatus() };
    }

    private static async Task<object?> McpList(Dictionary<string, object?> input)
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
    /// The port's own parse (McpSource.ParseConfig: wrappers, reserved keys, file reading). The 0.16.0 port
    /// resolves type/enabled/timeout in private helpers, so they are read here from the parsed entries by
    /// the rules the port documents: type local|remote else inferred from url; disabled:true wins, then
    /// enabled:false; timeout only when the entry has one (the default is not the parser's).
    /// </summary>
    private static object? McpParse(Dictionary<string, object?> input)
    {
        var parsed = McpSource.ParseConfig(ConfigInput(input.GetValueOrDefault("config")) ?? throw new ContractException("other", "mcp.parse needs config"));
        var servers = new Dictionary<string, object?>();
        foreach (var (name, raw) in parsed)
        {
            if (raw is not IDictionary<string, object?> cfg) continue;
            var type = cfg.GetValueOrDefault("type") as string;
            if (type != "local" && type != "remote") type = cfg.GetValueOrDefault("url") is string ? "remote" : "local";
            var enabled = !(cfg.GetValueOrDefault("disabled") is true) && !(cfg.GetValueOrDefault("enabled") is false);
            var entry = new Dictionary<string, object?> { ["type"] = type, ["enabled"] = enabled };
            // The parsed value only: the 30000 default is applied by the port when it connects, not by its
            // parser, so the runner does not compute it (PROTOCOL.md mcp.parse).
            long? timeout = cfg.GetValueOrDefault("timeout") switch { long l => l, int i => i, double d => (long)d, _ => null };
            if (timeout != null) entry["timeout"] = timeout;
            if (cfg.GetValueOrDefault("tools") is { } tools) entry["tools"] = tools;
            servers[name] = entry;
        }
        return new Dictionary<string, object?> { ["servers"] = servers };
    }

    // ---------------------------------------------------------------- handles and helpers

    private ClientEntry ClientOf(Dictionary<string, object?> input) =>
        _clients.GetValueOrDefault(Str(input, "client")) ?? throw new ContractException("other", $"no client named \"{Str(input, "client")}\" in this session");

    private ToolkitEntry ToolkitOf(Dictionary<string, object?> input) =>
        _toolkits.GetValueOrDefault(Str(input, "toolkit")) ?? throw new ContractException("other", $"no toolkit named \"{Str(input, "toolkit")}\" in this session");

    /// <summary>The named toolkit, else an empty one (builtins off): the port's calls take a non-null Toolkit.</summary>
    private async Task<Toolkit> ToolkitFor(Dictionary<string, object?> input)
    {
        if (input.ContainsKey("toolkit")) return ToolkitOf(new Dictionary<string, object?> { ["toolkit"] = input["toolkit"] }).Toolkit;
        return _empty ??= await Toolkit.CreateAsync(new Toolkit.Options { Builtins = false });
    }

    private static Dictionary<string, object?> ToolInfo(string name, string description, object? schema) =>
        new() { ["name"] = name, ["description"] = description, ["inputSchema"] = schema };

    private static object? Clone(object? value) => TnJson.ParseLoose(TnJson.Stringify(value));

    private static string Str(Dictionary<string, object?> input, string key) => input.GetValueOrDefault(key)?.ToString() ?? "";

    private static int? Int(Dictionary<string, object?> input, string key) => input.GetValueOrDefault(key) switch
    {
        long l => (int)l, int i => i, double d => (int)d, _ => null,
    };
}
