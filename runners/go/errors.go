package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// unsupportedError answers error kind `unsupported`: the port has no way to perform the operation or option.
type unsupportedError struct{ reason string }

func (e unsupportedError) Error() string { return e.reason }

func unsupportedAnswer(seq any, elapsedMs float64, reason string) map[string]any {
	return map[string]any{"type": "error", "seq": seq, "elapsedMs": elapsedMs, "error": map[string]any{"kind": "unsupported", "message": reason}}
}

// crashError answers `crash`: a bug in the runner itself, not a failure of the port.
type crashError struct{ message string }

func (e crashError) Error() string { return e.message }

// contractError is a failure the runner detects itself (unknown handle, bad input), kind given.
type contractError struct {
	kind    string
	message string
}

func (e contractError) Error() string { return e.message }

func contractf(kind, format string, args ...any) error {
	return contractError{kind: kind, message: fmt.Sprintf(format, args...)}
}

// The 0.16.0 Go port has no typed LLM errors: a non-2xx answer after retries surfaces as
// fmt.Errorf("LLM %d: %s", status, body) (client.go postJSON / the stream paths). This pattern
// recognises exactly that message.
var httpErrorPattern = regexp.MustCompile(`(?s)^LLM (\d{3}): (.*)$`)

// Config errors of the 0.16.0 port (mcp.go ParseMcpConfig / parseMcpBytes), by their fixed prefixes.
var configErrorPrefixes = []string{"parse mcp config", "read mcp config", "unsupported mcp config type"}

const bodyExcerptLimit = 500

// classify maps an error the port returned to the protocol's error object (PROTOCOL.md#error-kinds).
func classify(op string, err error) map[string]any {
	typeName := fmt.Sprintf("%T", err)
	out := map[string]any{"kind": "other", "type": typeName, "message": err.Error()}
	var contract contractError
	switch {
	case errors.As(err, &contract):
		out["kind"] = contract.kind
		out["type"] = "runner"
	// context.DeadlineExceeded: ClientOptions.TimeoutMs (context.WithTimeout inside the port) or the
	// runner's deadlineMs; context.Canceled: the runner's abortAfterMs cancel.
	case errors.Is(err, context.DeadlineExceeded):
		out["kind"] = "deadline"
	case errors.Is(err, context.Canceled):
		out["kind"] = "cancelled"
	default:
		message := err.Error()
		if match := httpErrorPattern.FindStringSubmatch(message); match != nil {
			status, _ := strconv.Atoi(match[1])
			excerpt := match[2]
			if len(excerpt) > bodyExcerptLimit {
				excerpt = excerpt[:bodyExcerptLimit]
			}
			out["kind"] = "http"
			out["details"] = map[string]any{"status": status, "bodyExcerpt": excerpt}
			return out
		}
		// An io.ErrUnexpectedEOF stays kind "other": the port raises no stream error of its own, and
		// the runner must not make it look as if it did.
		if strings.HasPrefix(op, "toolkit.create") || strings.HasPrefix(op, "mcp.") {
			for _, prefix := range configErrorPrefixes {
				if strings.HasPrefix(message, prefix) {
					out["kind"] = "config"
					return out
				}
			}
		}
	}
	return out
}
