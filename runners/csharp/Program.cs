// The `csharp` runner: drives the C# port of toolnexus (NuGet Toolnexus, pinned in Runner.csproj, or
// the port's source with --source) through the JSON-lines protocol of runners/PROTOCOL.md. stdout
// carries protocol lines only; everything else goes to stderr.
using System.Reflection;
using System.Text;
using System.Text.Json.Nodes;
using Toolnexus;
using ToolnexusConformance;
using TnJson = Toolnexus.Json;

const int Protocol = 2;
var protocolOut = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false)) { AutoFlush = true, NewLine = "\n" };
var stderr = Console.Error;
Capture.RealStderr = stderr;
Console.SetOut(stderr); // the port's Console output never reaches the protocol stream
var ops = new Ops();

void Write(Dictionary<string, object?> message) => protocolOut.WriteLine(TnJson.Stringify(message));

string[] capabilities =
[
    "client.run", "client.stream", "client.ask", "style.openai", "style.anthropic",
    "client.request-params", "client.body-transform", "client.hooks", "client.transport",
    "client.store-accessor", "client.retries", "client.cancel",
    "toolkit.extra-tools", "toolkit.adapters",
    "mcp.stdio", "mcp.http", "mcp.sse", "mcp.cancel", "mcp.allowlist", "mcp.inventory", "mcp.parse", "mcp.config-file",
    "client.suspension",
    "client.hooks-after", "client.metrics",
    "client.in-process", "mcp.elicitation",
];

while (Console.In.ReadLine() is { } line)
{
    if (string.IsNullOrWhiteSpace(line)) continue;
    JsonNode? parsed;
    try { parsed = JsonNode.Parse(line); }
    catch { stderr.WriteLine($"csharp runner: ignoring a line that is not JSON: {line[..Math.Min(200, line.Length)]}"); continue; }
    if (parsed is not JsonObject message) continue;
    if ((string?)message["type"] == "hello")
    {
        var hello = new Dictionary<string, object?> { ["type"] = "hello", ["from"] = "runner", ["protocol"] = Protocol };
        if (message["protocol"]?.GetValue<int>() != Protocol)
            hello["error"] = $"this runner speaks protocol {Protocol}";
        else
        {
            // The port's own assembly version (its package version, or the <Version> of its csproj when
            // built from source), read at runtime; `package` also names the MCP SDK that was loaded, as NuGet
            // resolved it (0.16.0 asks for ModelContextProtocol 1.4.0; a registry without it substitutes).
            var version = VersionOf(typeof(LlmClient).Assembly);
            var mcp = VersionOf(typeof(ModelContextProtocol.Client.McpClient).Assembly);
            if (string.IsNullOrEmpty(version)) hello["unavailable"] = "the Toolnexus assembly carries no informational version";
            else hello["implementation"] = new Dictionary<string, object?>
            {
                ["name"] = "toolnexus", ["language"] = "csharp", ["package"] = $"Toolnexus (ModelContextProtocol {mcp ?? "unknown"})",
                ["version"] = version, ["capabilities"] = capabilities.ToList<object?>(),
            };
        }
        Write(hello);
        continue;
    }
    var input = message["input"] is JsonObject o ? TnJson.ParseLoose(o.ToJsonString()) as Dictionary<string, object?> : null;
    Write(await ops.Answer(message["seq"]?.GetValue<long>() ?? 0, (string?)message["op"] ?? "", input ?? new Dictionary<string, object?>()));
}
await ops.Reset();
return 0;

// An assembly's AssemblyInformationalVersion without the build metadata after '+' (a commit hash).
static string? VersionOf(Assembly assembly) =>
    assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion?.Split('+')[0];
