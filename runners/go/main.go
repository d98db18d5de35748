// The `go` runner: drives the published Go port of toolnexus
// (github.com/muthuishere/toolnexus/golang, pinned in go.mod) through the JSON-lines protocol of
// runners/PROTOCOL.md. stdout carries protocol lines only; everything else goes to stderr.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"runtime/debug"
	"strings"
	"time"
)

const protocolVersion = 2

// portModule is the module path of the implementation under test; its version is read from the
// build info at runtime, never from a constant.
const portModule = "github.com/muthuishere/toolnexus/golang"

// capabilities the 0.16.0 API supports (see README.md for the ones left out and why).
var capabilities = []string{
	"client.run", "client.stream", "client.ask", "style.openai", "style.anthropic",
	"client.request-params", "client.body-transform", "client.hooks", "client.transport",
	"client.store-accessor", "client.retries", "client.cancel",
	"toolkit.extra-tools", "toolkit.adapters",
	"mcp.stdio", "mcp.http", "mcp.sse", "mcp.cancel", "mcp.deadline", "mcp.allowlist", "mcp.inventory",
	"mcp.config-file",
	// ParseMcpConfig parses a config (object or file) without connecting (see README.md mcp.parse).
	"mcp.parse",
}

var stdout = bufio.NewWriter(os.Stdout)

func write(message map[string]any) {
	line, err := json.Marshal(message)
	if err != nil {
		// A value the runner cannot encode is a runner bug: say so on the protocol.
		line, _ = json.Marshal(map[string]any{"type": "crash", "seq": message["seq"], "message": "cannot encode answer: " + err.Error()})
	}
	stdout.Write(line)
	stdout.WriteByte('\n')
	stdout.Flush()
}

func stderrf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "go runner: "+format+"\n", args...)
}

// Set at link time by install-source.sh (-ldflags -X): buildMode is "source" when the port module
// is replaced by a source checkout; sourceVersion is the version the checkout declares in a file,
// when it has one. Both are empty in a build against the published module (install.sh).
var (
	buildMode     string
	sourceVersion string
)

// portVersion is the version of the port module linked into this binary, from the build info.
// Published build: the module's version. Source build (install-source.sh): the version the source
// declares, else what the build info says of the replacement, "(devel)" for a folder.
func portVersion() (string, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", errors.New("no build info in this binary (build it with `go build` in module mode)")
	}
	for _, dep := range info.Deps {
		if dep.Path != portModule {
			continue
		}
		if dep.Replace == nil {
			if buildMode == "source" {
				return "", fmt.Errorf("built from source, but %s %s is not replaced by the source", portModule, dep.Version)
			}
			return dep.Version, nil
		}
		if buildMode != "source" {
			return "", fmt.Errorf("%s is replaced by %s %s: not the published package", portModule, dep.Replace.Path, dep.Replace.Version)
		}
		if sourceVersion != "" {
			return sourceVersion, nil
		}
		if dep.Replace.Version != "" {
			return dep.Replace.Version, nil
		}
		return "(devel)", nil
	}
	return "", fmt.Errorf("%s is not linked into this binary", portModule)
}

type incoming struct {
	Type     string         `json:"type"`
	Protocol *int           `json:"protocol"`
	Seq      int64          `json:"seq"`
	Op       string         `json:"op"`
	Input    map[string]any `json:"input"`
}

func hello(message incoming) {
	if message.Protocol == nil || *message.Protocol != protocolVersion {
		write(map[string]any{"type": "hello", "from": "runner", "protocol": protocolVersion, "error": fmt.Sprintf("this runner speaks protocol %d", protocolVersion)})
		return
	}
	version, err := portVersion()
	if err != nil {
		write(map[string]any{"type": "hello", "from": "runner", "protocol": protocolVersion, "unavailable": err.Error()})
		return
	}
	write(map[string]any{"type": "hello", "from": "runner", "protocol": protocolVersion, "implementation": map[string]any{
		"name": "toolnexus", "language": "go", "package": portModule, "version": version, "capabilities": capabilities,
	}})
}

// captureLog routes the standard logger (where the port writes its warnings) into a buffer for
// the duration of one operation, still echoing it to stderr. The returned function restores
// stderr and returns the captured lines.
func captureLog() func() []string {
	var buf bytes.Buffer
	log.SetOutput(io.MultiWriter(&buf, os.Stderr))
	return func() []string {
		log.SetOutput(os.Stderr)
		var lines []string
		for _, line := range strings.Split(buf.String(), "\n") {
			if strings.TrimSpace(line) != "" {
				lines = append(lines, line)
			}
		}
		return lines
	}
}

func answer(runner *Runner, message incoming) {
	seq := message.Seq
	input := message.Input
	if input == nil {
		input = map[string]any{}
	}
	handler, ok := runner.ops()[message.Op]
	if !ok {
		write(unsupportedAnswer(seq, 0, fmt.Sprintf("the go runner has no operation %q", message.Op)))
		return
	}
	var (
		value   any
		opErr   error
		elapsed float64
	)
	func() {
		started := time.Now()
		defer func() {
			elapsed = float64(time.Since(started).Microseconds()) / 1000
			if recovered := recover(); recovered != nil {
				opErr = crashError{fmt.Sprintf("panic in %s: %v\n%s", message.Op, recovered, debug.Stack())}
			}
		}()
		value, opErr = handler(input)
	}()
	var unsupported unsupportedError
	var crash crashError
	switch {
	case opErr == nil:
		if value == nil {
			value = map[string]any{}
		}
		write(map[string]any{"type": "result", "seq": seq, "elapsedMs": elapsed, "value": value})
	case errors.As(opErr, &unsupported):
		write(unsupportedAnswer(seq, elapsed, unsupported.reason))
	case errors.As(opErr, &crash):
		write(map[string]any{"type": "crash", "seq": seq, "message": crash.message})
	default:
		write(map[string]any{"type": "error", "seq": seq, "elapsedMs": elapsed, "error": classify(message.Op, opErr)})
	}
}

func main() {
	// The port logs warnings through the standard logger: no timestamps, so captured text is the
	// port's message itself; outside an operation it goes to stderr.
	log.SetFlags(0)
	log.SetOutput(os.Stderr)
	runner := newRunner()
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for scanner.Scan() {
		line := scanner.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var message incoming
		if err := json.Unmarshal(line, &message); err != nil {
			stderrf("ignoring a line that is not JSON: %.200s", line)
			continue
		}
		if message.Type == "hello" {
			hello(message)
			continue
		}
		answer(runner, message)
	}
	if err := scanner.Err(); err != nil {
		stderrf("reading stdin: %v", err)
	}
	runner.reset()
}
