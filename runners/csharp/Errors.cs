using System.Text.Json;
using System.Text.RegularExpressions;
using Toolnexus;

namespace ToolnexusConformance;

/// <summary>The op or option has no counterpart in the port: answered as error kind `unsupported`.</summary>
sealed class UnsupportedException(string reason) : Exception(reason);

/// <summary>A failure the runner itself detects (unknown handle...), with its protocol kind.</summary>
sealed class ContractException(string kind, string message) : Exception(message)
{
    public string Kind { get; } = kind;
}

/// <summary>How a port's exception maps to the protocol's error kinds (runners/PROTOCOL.md).</summary>
static class Errors
{
    // The 0.16.0 port throws InvalidOperationException("LLM <status>: <body>") for a non-2xx answer.
    private static readonly Regex HttpError = new(@"^LLM (\d{3}): (.*)$", RegexOptions.Singleline);

    public static Dictionary<string, object?> Classify(string op, Exception error)
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
}
