using Toolnexus;
using static ToolnexusConformance.Common;

namespace ToolnexusConformance;

/// <summary>
/// client.create-in-process (capability client.in-process): a client of the port's InProcess.CreateClient
/// around a scripted Generate that records each request it is handed (client.observations generateRequests)
/// and answers the i-th call with the i-th entry of `generate`, or raises its `throws`.
/// </summary>
sealed class InProcessOps(Session session)
{
    public object? Create(Dictionary<string, object?> input)
    {
        var handle = Str(input, "handle");
        if (session.Clients.ContainsKey(handle)) throw new ContractException("other", $"client \"{handle}\" already exists");
        var entry = new ClientEntry { GenerateRequests = [] };
        var script = input.GetValueOrDefault("generate") as List<object?> ?? [];
        entry.Client = InProcess.CreateClient(new InProcess.Options
        {
            Model = Str(input, "model"),
            Generate = request => Answer(script, entry, request),
            SystemPrompt = input.GetValueOrDefault("systemPrompt") as string,
            MaxTurns = Int(input, "maxTurns"),
            Retries = Int(input, "retries"),
        });
        session.Clients[handle] = entry;
        return null;
    }

    private static InProcess.Response Answer(List<object?> script, ClientEntry entry, InProcess.Request request)
    {
        int index;
        lock (entry)
        {
            index = entry.GenerateRequests!.Count;
            entry.GenerateRequests.Add(new Dictionary<string, object?>
            {
                ["messages"] = Clone(request.Messages), ["tools"] = Clone(request.Tools), ["model"] = request.Model,
            });
        }
        if (index >= script.Count || script[index] is not Dictionary<string, object?> step)
            throw new InvalidOperationException($"generate was called {index + 1} times; its script has {script.Count} entries");
        // A host's model failing the way the language fails: a thrown Exception the runner does not catch.
        if (step.GetValueOrDefault("throws") is string message) throw new Exception(message);
        var response = new InProcess.Response { Content = step.GetValueOrDefault("content") as string };
        if (step.GetValueOrDefault("toolCalls") is List<object?> calls)
            response.ToolCalls = calls.OfType<Dictionary<string, object?>>()
                .Select(c => new InProcess.ToolCall { Id = c.GetValueOrDefault("id") as string, Name = Str(c, "name"), Arguments = c.GetValueOrDefault("arguments") })
                .ToList();
        if (step.GetValueOrDefault("usage") is Dictionary<string, object?> usage)
            response.Usage = new InProcess.Usage { PromptTokens = Int(usage, "input") ?? 0, CompletionTokens = Int(usage, "output") ?? 0 };
        return response;
    }
}
