using TnJson = Toolnexus.Json;

namespace ToolnexusConformance;

/// <summary>Reading an operation's input, copying values the port may still change, and the caller's cancellation.</summary>
static class Common
{
    public static object? Clone(object? value) => TnJson.ParseLoose(TnJson.Stringify(value));

    public static string Str(Dictionary<string, object?> input, string key) => input.GetValueOrDefault(key)?.ToString() ?? "";

    public static int? Int(Dictionary<string, object?> input, string key) => input.GetValueOrDefault(key) switch
    {
        long l => (int)l, int i => i, double d => (int)d, _ => null,
    };

    /// <summary>abortAfterMs / deadlineMs as a CancellationToken that fires that many ms after the load starts.</summary>
    public static CancellationTokenSource CallerToken(Dictionary<string, object?> input)
    {
        var source = new CancellationTokenSource();
        var after = Int(input, "deadlineMs") ?? Int(input, "abortAfterMs");
        if (after != null) source.CancelAfter(after.Value);
        return source;
    }

    public static Dictionary<string, object?> ToolInfo(string name, string description, object? schema) =>
        new() { ["name"] = name, ["description"] = description, ["inputSchema"] = schema };
}

/// <summary>Captures what the port writes to Console.Error during one operation (still echoed to stderr).</summary>
sealed class Capture : IDisposable
{
    /// <summary>The process's real stderr, kept at start-up (Program.cs) before any capture replaces Console.Error.</summary>
    public static TextWriter RealStderr = Console.Error;
    private readonly StringWriter _buffer = new();
    public Capture() => Console.SetError(TextWriter.Synchronized(new Tee(_buffer, RealStderr)));
    public List<string> Lines()
    {
        lock (_buffer) return _buffer.ToString().Split('\n').Select(l => l.TrimEnd('\r')).Where(l => l.Trim().Length > 0).ToList();
    }
    public void Dispose() => Console.SetError(RealStderr);

    private sealed class Tee(StringWriter buffer, TextWriter echo) : TextWriter
    {
        public override System.Text.Encoding Encoding => System.Text.Encoding.UTF8;
        public override void Write(char value) { lock (buffer) buffer.Write(value); echo.Write(value); }
        public override void Write(string? value) { lock (buffer) buffer.Write(value); echo.Write(value); }
        public override void WriteLine(string? value) { lock (buffer) buffer.WriteLine(value); echo.WriteLine(value); }
    }
}
