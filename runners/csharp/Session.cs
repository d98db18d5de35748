using Toolnexus;
using static ToolnexusConformance.Common;

namespace ToolnexusConformance;

/// <summary>The handles of one session: the clients and toolkits created since the last session.reset.</summary>
sealed class Session
{
    public Dictionary<string, ClientEntry> Clients = [];
    public Dictionary<string, ToolkitEntry> Toolkits = [];
    private Toolkit? _empty;

    /// <summary>What the runner substituted to perform the request in flight (the answer's `notes`); requests come one at a time.</summary>
    public List<string> Notes = [];

    /// <summary>Each toolkit's close on reset is bounded by this, inside the harness's reset timeout (10 s): PROTOCOL.md, "A bounded close".</summary>
    static readonly TimeSpan CloseBound = TimeSpan.FromSeconds(10);

    public ClientEntry ClientOf(Dictionary<string, object?> input) =>
        Clients.GetValueOrDefault(Str(input, "client")) ?? throw new ContractException("other", $"no client named \"{Str(input, "client")}\" in this session");

    public ToolkitEntry ToolkitOf(Dictionary<string, object?> input) =>
        Toolkits.GetValueOrDefault(Str(input, "toolkit")) ?? throw new ContractException("other", $"no toolkit named \"{Str(input, "toolkit")}\" in this session");

    /// <summary>The named toolkit, else an empty one (builtins off), said in the answer's notes: the port's calls take a non-null Toolkit.</summary>
    public async Task<Toolkit> ToolkitFor(Dictionary<string, object?> input)
    {
        if (input.ContainsKey("toolkit")) return ToolkitOf(new Dictionary<string, object?> { ["toolkit"] = input["toolkit"] }).Toolkit;
        Notes.Add("passed an empty toolkit (Toolkit.CreateAsync, builtins off): this release's RunAsync, AskAsync and StreamAsync take a non-null Toolkit");
        return _empty ??= await Toolkit.CreateAsync(new Toolkit.Options { Builtins = false });
    }

    /// <summary>Closes every toolkit side by side, each bounded by CloseBound (best effort), and drops every handle.</summary>
    public async Task Reset()
    {
        var closes = Toolkits.Where(pair => !pair.Value.Closed).Select(pair =>
        {
            pair.Value.Closed = true;
            return CloseBounded($"toolkit \"{pair.Key}\"", pair.Value.Toolkit);
        }).ToList();
        if (_empty != null) closes.Add(CloseBounded("the empty toolkit", _empty));
        await Task.WhenAll(closes);
        _empty = null;
        Clients = [];
        Toolkits = [];
    }

    /// <summary>A close that has not finished within CloseBound is left running, and said on stderr.</summary>
    static async Task CloseBounded(string name, Toolkit toolkit)
    {
        var close = Task.Run(async () =>
        {
            try { await toolkit.DisposeAsync(); } catch { /* best effort */ }
        });
        if (await Task.WhenAny(close, Task.Delay(CloseBound)) != close)
            await Capture.RealStderr.WriteLineAsync($"session.reset: {name} did not finish closing within {CloseBound.TotalSeconds} s; left closing");
    }
}
