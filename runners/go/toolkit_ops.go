package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

type toolkitEntry struct {
	toolkit  *toolnexus.Toolkit
	warnings []string
	closed   bool
}

// configInput: `{file: PATH}` names a JSON config file (a path string for the port); any other
// object is the config itself. Absent => nil (no MCP source).
func configInput(raw any) any {
	value, ok := raw.(map[string]any)
	if !ok {
		return nil
	}
	if file, isString := value["file"].(string); isString && len(value) == 1 {
		return file
	}
	return value
}

// callerContext is the caller's context for a load: deadlineMs gives it a deadline
// (context.WithTimeout); abortAfterMs cancels it that many ms after the load starts.
func callerContext(input map[string]any) (context.Context, context.CancelFunc) {
	if deadline, ok := input["deadlineMs"].(float64); ok {
		return context.WithTimeout(context.Background(), time.Duration(deadline)*time.Millisecond)
	}
	if after, ok := input["abortAfterMs"].(float64); ok {
		ctx, cancel := context.WithCancel(context.Background())
		timer := time.AfterFunc(time.Duration(after)*time.Millisecond, cancel)
		return ctx, func() {
			timer.Stop()
			cancel()
		}
	}
	return context.Background(), func() {}
}

// extraTool builds an extra tool with the port's NativeTool: `throws` returns an error with that
// message; `result` is returned when given (isError => the port's error path, which yields
// {Output: message, IsError: true}); else the JSON of its arguments.
func extraTool(data map[string]any) toolnexus.Tool {
	var schema toolnexus.JSONSchema
	if given, ok := data["inputSchema"].(map[string]any); ok {
		schema = given
	}
	result, hasResult := data["result"].(map[string]any)
	throws, hasThrows := data["throws"].(string)
	return toolnexus.NativeTool(str(data["name"]), str(data["description"]), schema,
		func(_ context.Context, args map[string]any) (string, error) {
			if hasThrows {
				// A host tool failing the Go way: a returned error (PROTOCOL.md toolkit.create `throws`).
				return "", errors.New(throws)
			}
			if hasResult {
				output := str(result["output"])
				if isError, _ := result["isError"].(bool); isError {
					return "", errors.New(output)
				}
				return output, nil
			}
			var buf bytes.Buffer
			encoder := json.NewEncoder(&buf)
			encoder.SetEscapeHTML(false)
			if err := encoder.Encode(args); err != nil {
				return "", err
			}
			return strings.TrimSuffix(buf.String(), "\n"), nil
		})
}

func (r *Runner) toolkitOf(input map[string]any) (*toolkitEntry, error) {
	entry, ok := r.toolkits[str(input["toolkit"])]
	if !ok {
		return nil, contractf("other", "no toolkit named %q in this session", str(input["toolkit"]))
	}
	return entry, nil
}

func (r *Runner) toolkitCreate(input map[string]any) (any, error) {
	handle := str(input["handle"])
	if _, exists := r.toolkits[handle]; exists {
		return nil, contractf("other", "toolkit %q already exists", handle)
	}
	opts := toolnexus.Options{Builtins: false}
	if config := configInput(input["mcpConfig"]); config != nil {
		opts.McpConfig = config
	}
	if extras, ok := input["extraTools"].([]any); ok {
		for _, raw := range extras {
			if data, ok := raw.(map[string]any); ok {
				opts.ExtraTools = append(opts.ExtraTools, extraTool(data))
			}
		}
	}
	if disable, ok := input["disableTools"].([]any); ok {
		for _, name := range disable {
			opts.DisableTools = append(opts.DisableTools, str(name))
		}
	}
	ctx, cancel := callerContext(input)
	defer cancel()
	stop := captureLog()
	toolkit, err := toolnexus.CreateToolkit(ctx, opts)
	warnings := stop()
	if err != nil {
		return nil, err
	}
	if warnings == nil {
		warnings = []string{}
	}
	r.toolkits[handle] = &toolkitEntry{toolkit: toolkit, warnings: warnings}
	names := []string{}
	for _, tool := range toolkit.Tools() {
		names = append(names, tool.Name)
	}
	return map[string]any{"tools": names, "status": toolkit.McpStatus()}, nil
}

func (r *Runner) toolkitTools(input map[string]any) (any, error) {
	entry, err := r.toolkitOf(input)
	if err != nil {
		return nil, err
	}
	tools := []any{}
	for _, tool := range entry.toolkit.Tools() {
		tools = append(tools, map[string]any{"name": tool.Name, "description": tool.Description, "inputSchema": tool.InputSchema})
	}
	return map[string]any{"tools": tools}, nil
}

func (r *Runner) toolkitExecute(input map[string]any) (any, error) {
	entry, err := r.toolkitOf(input)
	if err != nil {
		return nil, err
	}
	args, _ := input["args"].(map[string]any)
	result, err := entry.toolkit.Execute(context.Background(), str(input["name"]), orEmpty(args))
	if err != nil {
		return nil, contractError{kind: "tool", message: err.Error()}
	}
	return map[string]any{"output": result.Output, "isError": result.IsError}, nil
}

func (r *Runner) toolkitAdapter(input map[string]any) (any, error) {
	entry, err := r.toolkitOf(input)
	if err != nil {
		return nil, err
	}
	switch format := str(input["format"]); format {
	case "openai":
		return map[string]any{"value": entry.toolkit.ToOpenAI()}, nil
	case "anthropic":
		return map[string]any{"value": entry.toolkit.ToAnthropic()}, nil
	case "gemini":
		return map[string]any{"value": entry.toolkit.ToGemini()}, nil
	default:
		return nil, contractf("other", "unknown adapter format %q", format)
	}
}

func (r *Runner) toolkitStatus(input map[string]any) (any, error) {
	entry, err := r.toolkitOf(input)
	if err != nil {
		return nil, err
	}
	return map[string]any{"status": entry.toolkit.McpStatus()}, nil
}

func (r *Runner) toolkitWarnings(input map[string]any) (any, error) {
	entry, err := r.toolkitOf(input)
	if err != nil {
		return nil, err
	}
	return map[string]any{"warnings": append([]string{}, entry.warnings...)}, nil
}

func (r *Runner) toolkitClose(input map[string]any) (any, error) {
	entry, err := r.toolkitOf(input)
	if err != nil {
		return nil, err
	}
	if !entry.closed {
		entry.closed = true
		entry.toolkit.Close()
	}
	return map[string]any{}, nil
}

func (r *Runner) mcpList(input map[string]any) (any, error) {
	ctx, cancel := callerContext(input)
	defer cancel()
	// The inventory has no warnings channel: what the port logs goes to stderr only.
	inventory, err := toolnexus.ListMcpTools(ctx, configInput(input["config"]))
	if err != nil {
		return nil, err
	}
	tools := map[string]any{}
	for server, infos := range inventory.Tools {
		list := []any{}
		for _, info := range infos {
			list = append(list, map[string]any{"name": info.Name, "description": info.Description, "inputSchema": info.InputSchema})
		}
		tools[server] = list
	}
	return map[string]any{"tools": tools, "status": inventory.Status}, nil
}

// mcpParse reports the port's own parse (ParseMcpConfig: wrappers, reserved keys, file reading),
// field by field as the parser left it. The 0.16.0 port resolves the effective type, enabled and
// timeout in unexported methods at connect time, so the parser's output has them only as the config
// gave them: type "" when inferred, enabled/disabled as given, timeout 0 when absent. The runner does
// not redo the port's rules (PROTOCOL.md mcp.parse): what the parser leaves out is reported absent,
// and the scenarios that check normalization fail visibly.
func (r *Runner) mcpParse(input map[string]any) (any, error) {
	config := configInput(input["config"])
	if config == nil {
		return nil, contractf("other", "mcp.parse needs config")
	}
	parsed, err := toolnexus.ParseMcpConfig(config)
	if err != nil {
		return nil, err
	}
	servers := map[string]any{}
	for name, server := range parsed {
		entry := map[string]any{}
		if server.Type != "" {
			entry["type"] = server.Type
		}
		if server.Enabled != nil {
			entry["enabled"] = *server.Enabled
		}
		if server.Timeout > 0 {
			entry["timeout"] = server.Timeout
		}
		if server.Tools != nil {
			entry["tools"] = server.Tools
		}
		servers[name] = entry
	}
	return map[string]any{"servers": servers}, nil
}
