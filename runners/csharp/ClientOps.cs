using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.JsonPatch.SystemTextJson;
using Toolnexus;
using static ToolnexusConformance.Common;
using TnJson = Toolnexus.Json;

namespace ToolnexusConformance;

sealed class ClientEntry
{
    public LlmClient Client = null!;
    public IConversationStore? Provided;
    public readonly List<string> Warnings = [];
    public readonly List<object?> TransformInputs = [];
    public readonly List<object?> HookCalls = [];
    public readonly List<object?> TransportRequests = [];
    public readonly List<object?> WaitForCalls = [];
    /// <summary>With onMetric: every metric event, normalized (MetricsOps.cs).</summary>
    public List<object?>? MetricEvents;
    /// <summary>Body transform calls in the current run/ask/stream: the turn (it runs once per LLM request).</summary>
    public int Turn;
    /// <summary>A client of client.create-in-process: what its generate received (InProcessOps).</summary>
    public List<object?>? GenerateRequests;
    public void Add(List<object?> list, object? value) { lock (this) list.Add(value); }
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

/// <summary>The client operations (client.*, store.*) over the port's LlmClient.</summary>
sealed class ClientOps(Session session)
{
    /// <summary>
    /// The key of a client created without `apiKey` (or with ""): the port refuses to call without one
    /// and otherwise reads OPENROUTER_API_KEY / OPENAI_API_KEY / ANTHROPIC_API_KEY from the environment
    /// (LlmClient.ResolveKey), which would send a developer's real key to a fixture. Same as every runner.
    /// </summary>
    public const string PlaceholderApiKey = "conformance-placeholder-key";

    public object? Create(Dictionary<string, object?> input)
    {
        var handle = Str(input, "handle");
        if (session.Clients.ContainsKey(handle)) throw new ContractException("other", $"client \"{handle}\" already exists");
        var entry = new ClientEntry();
        var opts = new LlmClient.Options
        {
            BaseUrl = Str(input, "baseUrl"), Style = Str(input, "style"), Model = Str(input, "model"),
            ApiKey = input.GetValueOrDefault("apiKey") is string { Length: > 0 } key ? key : PlaceholderApiKey,
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
        if (input.GetValueOrDefault("waitFor") is Dictionary<string, object?> waitFor) opts.WaitFor = SuspensionOps.WaitFor(waitFor, entry);
        if (input.GetValueOrDefault("onMetric") is true) MetricsOps.Install(opts, entry);
        entry.Client = LlmClient.Create(opts);
        session.Clients[handle] = entry;
        return null;
    }

    // abortAfterMs (client.cancel): the call's CancellationToken fires that many ms in; none given, never.
    public async Task<object?> Run(Dictionary<string, object?> input)
    {
        using var caller = CallerToken(input);
        return await WithClient(input, async (e, tk) => RunResult(await e.Client.RunAsync(Str(input, "prompt"), tk, input.GetValueOrDefault("history") as List<object?>, caller.Token)));
    }

    public async Task<object?> Ask(Dictionary<string, object?> input)
    {
        using var caller = CallerToken(input);
        return await WithClient(input, async (e, tk) => RunResult(await e.Client.AskAsync(Str(input, "prompt"), tk, Str(input, "id"), null, caller.Token)));
    }

    public async Task<object?> Stream(Dictionary<string, object?> input) => await WithClient(input, (e, tk) => StreamEvents(e, tk, input));

    public async Task<object?> StoreGet(Dictionary<string, object?> input) =>
        new Dictionary<string, object?> { ["messages"] = await session.ClientOf(input).Client.ConversationStore().GetAsync(Str(input, "id")) };

    public async Task<object?> StoreSave(Dictionary<string, object?> input)
    {
        await session.ClientOf(input).Client.ConversationStore().SaveAsync(Str(input, "id"), input.GetValueOrDefault("messages") as List<object?> ?? []);
        return null;
    }

    /// <summary>
    /// bodyTransform as data: record a deep copy of the body, then return null or the RFC 6902-patched body.
    /// The patch is applied by Microsoft.AspNetCore.JsonPatch.SystemTextJson to a System.Text.Json copy of
    /// the body; a patch that does not apply (a failed `test`, a missing path) throws out of the transform
    /// into the port, as the other runners' patch libraries do.
    /// </summary>
    private static Func<IDictionary<string, object?>, IDictionary<string, object?>?> BodyTransform(Dictionary<string, object?> data, ClientEntry entry)
    {
        var returnNull = data.GetValueOrDefault("returnNull") is true;
        var inPlace = data.GetValueOrDefault("inPlace") is true;
        var patch = data.ContainsKey("patch") ? JsonSerializer.Deserialize<JsonPatchDocument>(TnJson.Stringify(data["patch"])) : null;
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
                var edited = Patched(patch, body);
                body.Clear();
                foreach (var (key, value) in edited) body[key] = value;
            }
            if (returnNull) return null;
            if (patch == null || inPlace) return body;
            return Patched(patch, body);
        };
    }

    /// <summary>A patched copy of the body (the port's model: Dictionary / List / long / double).</summary>
    private static Dictionary<string, object?> Patched(JsonPatchDocument patch, IDictionary<string, object?> body)
    {
        var node = JsonNode.Parse(TnJson.Stringify(body))!;
        patch.ApplyTo(node);
        return TnJson.ParseLoose(node.ToJsonString()) as Dictionary<string, object?>
            ?? throw new InvalidOperationException("the patched body is not a JSON object");
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
                    return LlmClient.ToolOverride.WithResult(new ToolResult(r.GetValueOrDefault("output")?.ToString() ?? "", r.GetValueOrDefault("isError") is true, SuspensionOps.PendingMetadata(r)));
                if (beforeTool.GetValueOrDefault("args") is Dictionary<string, object?> a)
                    return LlmClient.ToolOverride.WithArgs((Dictionary<string, object?>)Clone(a)!);
                return null;
            };
        }
        MetricsOps.AfterHooks(hooks, data, entry);
        return hooks;
    }

    /// <summary>One client call, with what the port writes to Console.Error captured as the client's warnings.</summary>
    private async Task<object?> WithClient(Dictionary<string, object?> input, Func<ClientEntry, Toolkit, Task<object?>> call)
    {
        var entry = session.ClientOf(input);
        var toolkit = await session.ToolkitFor(input);
        System.Threading.Interlocked.Exchange(ref entry.Turn, 0); // a new call starts at turn 0
        var capture = new Capture();
        try { return await call(entry, toolkit); }
        finally
        {
            capture.Dispose();
            lock (entry) entry.Warnings.AddRange(capture.Lines());
        }
    }

    private static async Task<object?> StreamEvents(ClientEntry entry, Toolkit toolkit, Dictionary<string, object?> input)
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
                case LlmClient.StreamKind.Pending: events.Add(SuspensionOps.PendingEvent(ev.Request)); break;
            }
        }, input.GetValueOrDefault("id") as string, caller.Token);
        if (sawUsage) events.Add(new Dictionary<string, object?> { ["type"] = "usage", ["input"] = result.Usage.PromptTokens, ["output"] = result.Usage.CompletionTokens });
        events.Add(new Dictionary<string, object?> { ["type"] = "done" });
        var value = RunResult(result);
        value["events"] = events;
        return value;
    }

    public object? Observations(Dictionary<string, object?> input)
    {
        var entry = session.ClientOf(input);
        var accessor = entry.Client.ConversationStore();
        var storeAccessor = entry.Provided != null
            ? (ReferenceEquals(accessor, entry.Provided) ? "provided" : "missing")
            : (accessor != null ? "default" : "missing");
        lock (entry)
        {
            var value = new Dictionary<string, object?>
            {
                ["transformInputs"] = Clone(entry.TransformInputs), ["hookCalls"] = Clone(entry.HookCalls),
                ["warnings"] = entry.Warnings.ToList(), ["transportRequests"] = Clone(entry.TransportRequests),
                ["storeAccessor"] = storeAccessor,
            };
            // The scripted waitFor records under the list's own lock (SuspensionOps.ScriptedWaitFor).
            lock (entry.WaitForCalls) value["waitForCalls"] = Clone(entry.WaitForCalls);
            if (entry.MetricEvents != null) value["metricEvents"] = Clone(entry.MetricEvents);
            if (entry.GenerateRequests != null) value["generateRequests"] = Clone(entry.GenerateRequests);
            return value;
        }
    }

    private static Dictionary<string, object?> RunResult(LlmClient.RunResult r) => SuspensionOps.WithStatus(new()
    {
        ["text"] = r.Text,
        ["usage"] = new Dictionary<string, object?> { ["input"] = r.Usage.PromptTokens, ["output"] = r.Usage.CompletionTokens },
        ["messages"] = r.Messages,
    }, r);
}
