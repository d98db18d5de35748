package toolnexus.conformance;

import io.github.muthuishere.toolnexus.LlmClient;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The protocol's error kinds (runners/PROTOCOL.md): what the runner raises, and how a port's exception maps to a kind. */
final class Errors {
    private Errors() {}

    /** The op or option has no counterpart in the port: answered as error kind `unsupported`. */
    static final class Unsupported extends RuntimeException {
        Unsupported(String reason) { super(reason); }
    }

    /** A failure the runner itself detects (unknown handle...), with its protocol kind. */
    static final class ContractError extends RuntimeException {
        final String kind;
        ContractError(String kind, String message) { super(message); this.kind = kind; }
    }

    /** The 0.16.0 port raises a plain RuntimeException("LLM <status>: <body>") for a non-2xx answer. */
    private static final Pattern HTTP_ERROR = Pattern.compile("(?s)^LLM (\\d{3}): (.*)$");

    static Map<String, Object> classify(String op, Throwable error) {
        Map<String, Object> out = new LinkedHashMap<>();
        String kind = "other";
        String message = String.valueOf(error.getMessage());
        if (error instanceof ContractError c) {
            kind = c.kind;
        } else if (error instanceof LlmClient.TimeoutException) {
            kind = "deadline";
        } else if (error instanceof LlmClient.CancelledException || error instanceof CancellationException) {
            // McpSource's CancelSignal cannot tell a cancel from a deadline: cancelled (PROTOCOL.md).
            kind = "cancelled";
        } else {
            Matcher m = HTTP_ERROR.matcher(message);
            if (m.matches()) {
                kind = "http";
                String body = m.group(2);
                out.put("details", Map.of("status", Integer.parseInt(m.group(1)),
                        "bodyExcerpt", body.length() > 500 ? body.substring(0, 500) : body));
            } else if ((op.equals("toolkit.create") || op.startsWith("mcp.")) && message.startsWith("Cannot read MCP config")) {
                kind = "config";
            }
        }
        out.put("kind", kind);
        out.put("type", error.getClass().getName());
        out.put("message", message);
        return out;
    }
}
