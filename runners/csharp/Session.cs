using Toolnexus;
using static ToolnexusConformance.Common;

namespace ToolnexusConformance;

/// <summary>The handles of one session: the clients and toolkits created since the last session.reset.</summary>
sealed class Session
{
    public Dictionary<string, ClientEntry> Clients = [];
    public Dictionary<string, ToolkitEntry> Toolkits = [];
    private Toolkit? _empty;

    public ClientEntry ClientOf(Dictionary<string, object?> input) =>
        Clients.GetValueOrDefault(Str(input, "client")) ?? throw new ContractException("other", $"no client named \"{Str(input, "client")}\" in this session");

    public ToolkitEntry ToolkitOf(Dictionary<string, object?> input) =>
        Toolkits.GetValueOrDefault(Str(input, "toolkit")) ?? throw new ContractException("other", $"no toolkit named \"{Str(input, "toolkit")}\" in this session");

    /// <summary>The named toolkit, else an empty one (builtins off): the port's calls take a non-null Toolkit.</summary>
    public async Task<Toolkit> ToolkitFor(Dictionary<string, object?> input)
    {
        if (input.ContainsKey("toolkit")) return ToolkitOf(new Dictionary<string, object?> { ["toolkit"] = input["toolkit"] }).Toolkit;
        return _empty ??= await Toolkit.CreateAsync(new Toolkit.Options { Builtins = false });
    }

    /// <summary>Closes every toolkit (best effort) and drops every handle.</summary>
    public async Task Reset()
    {
        foreach (var entry in Toolkits.Values.Where(e => !e.Closed))
        {
            entry.Closed = true;
            try { await entry.Toolkit.DisposeAsync(); } catch { /* best effort */ }
        }
        if (_empty != null) await _empty.DisposeAsync();
        _empty = null;
        Clients = [];
        Toolkits = [];
    }
}
