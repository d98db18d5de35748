package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"

	jsonpatch "github.com/evanphx/json-patch/v5"
	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// clientEntry is a client handle and what client.observations reports about it.
type clientEntry struct {
	client *toolnexus.Client
	// provided is the store passed with `store: "provided"`, to check the accessor returns it.
	provided *toolnexus.InMemoryConversationStore

	mu                sync.Mutex
	warnings          []string
	transformInputs   []any
	hookCalls         []any
	transportRequests []any
	// turn counts body transform calls in the current run/ask/stream (it runs once per LLM request).
	turn int
}

// nextTurn returns the current call's turn and moves on to the next.
func (e *clientEntry) nextTurn() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.turn++
	return e.turn - 1
}

func (e *clientEntry) add(list *[]any, value any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	*list = append(*list, value)
}

func (e *clientEntry) addWarnings(lines []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.warnings = append(e.warnings, lines...)
}

// bodyTransformFor performs `bodyTransform` as data: record a deep copy of the body the port
// hands over, then return nil (returnNull) or the body with the RFC 6902 patch applied; with inPlace
// the patch edits the map the port handed over, which is then returned (or nil).
func bodyTransformFor(data map[string]any, entry *clientEntry) func(map[string]any) map[string]any {
	returnNull, _ := data["returnNull"].(bool)
	onTurns, hasOnTurns := data["onTurns"].([]any)
	var patch jsonpatch.Patch
	if ops, present := data["patch"]; present {
		raw, err := json.Marshal(ops)
		if err == nil {
			patch, err = jsonpatch.DecodePatch(raw)
		}
		if err != nil {
			stderrf("bodyTransform: cannot decode the patch %s: %v", raw, err)
		}
	}
	inPlace, _ := data["inPlace"].(bool)
	return func(body map[string]any) map[string]any {
		entry.add(&entry.transformInputs, jsonClone(body))
		turn := entry.nextTurn()
		onThisTurn := !hasOnTurns
		for _, listed := range onTurns {
			if number, ok := listed.(float64); ok && int(number) == turn {
				onThisTurn = true
			}
		}
		if !onThisTurn {
			return body // not on this turn: sent as built
		}
		if inPlace && patch != nil {
			// inPlace: the patched document's keys replace the received map's own, so the edit lives in it.
			edited := applyPatch(patch, body)
			for key := range body {
				delete(body, key)
			}
			for key, value := range edited {
				body[key] = value
			}
		}
		if returnNull {
			return nil
		}
		if patch == nil || inPlace {
			return body
		}
		return applyPatch(patch, body)
	}
}

// applyPatch returns the body with the RFC 6902 patch applied, or the body as it was (said on stderr)
// when the patch does not apply: the port's BodyTransform cannot fail.
func applyPatch(patch jsonpatch.Patch, body map[string]any) map[string]any {
	doc, err := json.Marshal(body)
	if err != nil {
		stderrf("bodyTransform: cannot encode the body: %v", err)
		return body
	}
	patched, err := patch.Apply(doc)
	if err != nil {
		stderrf("bodyTransform: the patch does not apply: %v", err)
		return body
	}
	var out map[string]any
	if err := json.Unmarshal(patched, &out); err != nil {
		stderrf("bodyTransform: the patched body is not an object: %v", err)
		return body
	}
	return out
}

func hooksFor(data map[string]any, entry *clientEntry) *toolnexus.Hooks {
	hooks := &toolnexus.Hooks{}
	if beforeLLM, ok := data["beforeLLM"].(map[string]any); ok {
		setTools, hasSetTools := beforeLLM["setTools"].([]any)
		onTurns, hasOnTurns := beforeLLM["onTurns"].([]any)
		hooks.BeforeLLM = func(_ context.Context, ev toolnexus.BeforeLLMEvent) (*toolnexus.LLMOverride, error) {
			entry.add(&entry.hookCalls, map[string]any{"hook": "beforeLLM", "input": map[string]any{
				"turn": ev.Turn, "messageCount": len(ev.Messages), "toolCount": len(ev.Tools),
			}})
			onThisTurn := !hasOnTurns
			for _, turn := range onTurns {
				if number, ok := turn.(float64); ok && int(number) == ev.Turn {
					onThisTurn = true
				}
			}
			if !hasSetTools || !onThisTurn {
				return nil, nil
			}
			tools, _ := jsonClone(setTools).([]any)
			if tools == nil {
				tools = []any{} // non-nil: an empty list replaces the tools
			}
			return &toolnexus.LLMOverride{Tools: tools}, nil
		}
	}
	if beforeTool, ok := data["beforeTool"].(map[string]any); ok {
		result, hasResult := beforeTool["result"].(map[string]any)
		args, hasArgs := beforeTool["args"].(map[string]any)
		hooks.BeforeTool = func(_ context.Context, ev toolnexus.BeforeToolEvent) (*toolnexus.ToolOverride, error) {
			entry.add(&entry.hookCalls, map[string]any{"hook": "beforeTool", "input": map[string]any{
				"name": ev.Name, "args": jsonClone(orEmpty(ev.Args)),
			}})
			if hasResult {
				output, _ := result["output"].(string)
				isError, _ := result["isError"].(bool)
				return &toolnexus.ToolOverride{Result: &toolnexus.ToolResult{Output: output, IsError: isError}}, nil
			}
			if hasArgs {
				rewritten, _ := jsonClone(args).(map[string]any)
				return &toolnexus.ToolOverride{Args: rewritten}, nil
			}
			return nil, nil
		}
	}
	return hooks
}

// recordingTransport is the injected HTTP client of `transport: "recording"`: it records every
// request and forwards it to the real network stack.
type recordingTransport struct {
	entry *clientEntry
	next  http.RoundTripper
}

func (t *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	forwarded := req
	var body any
	if req.Body != nil && req.Body != http.NoBody {
		data, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		forwarded = req.Clone(req.Context())
		forwarded.Body = io.NopCloser(bytes.NewReader(data))
		body = decodeBody(data)
	}
	t.entry.add(&t.entry.transportRequests, map[string]any{"method": req.Method, "url": req.URL.String(), "body": body})
	return t.next.RoundTrip(forwarded)
}

func decodeBody(data []byte) any {
	var decoded any
	if err := json.Unmarshal(data, &decoded); err != nil {
		return string(data)
	}
	return decoded
}

func (r *Runner) clientCreate(input map[string]any) (any, error) {
	handle := str(input["handle"])
	if _, exists := r.clients[handle]; exists {
		return nil, contractf("other", "client %q already exists", handle)
	}
	entry := &clientEntry{warnings: []string{}, transformInputs: []any{}, hookCalls: []any{}, transportRequests: []any{}}
	opts := toolnexus.ClientOptions{
		BaseURL:      str(input["baseUrl"]),
		Style:        toolnexus.ClientStyle(str(input["style"])),
		Model:        str(input["model"]),
		APIKey:       apiKeyOf(input),
		SystemPrompt: str(input["systemPrompt"]),
		MaxTurns:     integer(input["maxTurns"]),
		Retries:      integer(input["retries"]),
		RetryBaseMs:  integer(input["retryBaseMs"]),
		TimeoutMs:    integer(input["timeoutMs"]),
	}
	if headers, ok := input["headers"].(map[string]any); ok {
		opts.Headers = map[string]string{}
		for key, value := range headers {
			opts.Headers[key] = str(value)
		}
	}
	if params, ok := input["requestParams"].(map[string]any); ok {
		opts.RequestParams = params
	}
	if transform, ok := input["bodyTransform"].(map[string]any); ok {
		opts.BodyTransform = bodyTransformFor(transform, entry)
	}
	if hooks, ok := input["hooks"].(map[string]any); ok {
		opts.Hooks = hooksFor(hooks, entry)
	}
	if input["transport"] == "recording" {
		opts.HTTPClient = &http.Client{Transport: &recordingTransport{entry: entry, next: http.DefaultTransport}}
	}
	if input["store"] == "provided" {
		entry.provided = toolnexus.NewInMemoryConversationStore()
		opts.Store = entry.provided
	}
	entry.client = toolnexus.CreateClient(opts)
	r.clients[handle] = entry
	return map[string]any{}, nil
}

// placeholderAPIKey is the key of a client created without `apiKey`: the port refuses to call
// without one and otherwise reads OPENROUTER_API_KEY / OPENAI_API_KEY / ANTHROPIC_API_KEY from the
// environment, which would send a developer's real key to a fixture (same as runners/python).
const placeholderAPIKey = "conformance-placeholder-key"

func apiKeyOf(input map[string]any) string {
	if key := str(input["apiKey"]); key != "" {
		return key
	}
	return placeholderAPIKey
}

func (r *Runner) clientOf(input map[string]any) (*clientEntry, error) {
	entry, ok := r.clients[str(input["client"])]
	if !ok {
		return nil, contractf("other", "no client named %q in this session", str(input["client"]))
	}
	return entry, nil
}

// toolkitFor is the toolkit a client call runs against: the named one, else an empty toolkit
// (the 0.16.0 client dereferences its *Toolkit, so nil is not an option).
func (r *Runner) toolkitFor(input map[string]any) (*toolnexus.Toolkit, error) {
	if name, present := input["toolkit"]; present {
		entry, ok := r.toolkits[str(name)]
		if !ok {
			return nil, contractf("other", "no toolkit named %q in this session", str(name))
		}
		return entry.toolkit, nil
	}
	if r.empty == nil {
		empty, err := toolnexus.CreateToolkit(context.Background(), toolnexus.Options{Builtins: false})
		if err != nil {
			return nil, crashError{"cannot create the empty toolkit: " + err.Error()}
		}
		r.empty = empty
	}
	return r.empty, nil
}

func runResult(result toolnexus.RunResult) map[string]any {
	messages := result.Messages
	if messages == nil {
		messages = []any{}
	}
	return map[string]any{
		"text":     result.Text,
		"usage":    map[string]any{"input": result.Usage.PromptTokens, "output": result.Usage.CompletionTokens},
		"messages": messages,
	}
}

// withClient runs one client call with the port's log captured as that client's warnings.
func (r *Runner) withClient(input map[string]any, call func(*clientEntry, *toolnexus.Toolkit) (any, error)) (any, error) {
	entry, err := r.clientOf(input)
	if err != nil {
		return nil, err
	}
	toolkit, err := r.toolkitFor(input)
	if err != nil {
		return nil, err
	}
	entry.mu.Lock()
	entry.turn = 0 // a new call starts at turn 0
	entry.mu.Unlock()
	stop := captureLog()
	value, err := call(entry, toolkit)
	entry.addWarnings(stop())
	return value, err
}

func (r *Runner) clientRun(input map[string]any) (any, error) {
	return r.withClient(input, func(entry *clientEntry, toolkit *toolnexus.Toolkit) (any, error) {
		history, _ := input["history"].([]any)
		ctx, cancel := callerContext(input) // abortAfterMs (client.cancel): the port's calls take a context
		defer cancel()
		result, err := entry.client.RunWithHistory(ctx, str(input["prompt"]), toolkit, history)
		if err != nil {
			return nil, err
		}
		return runResult(result), nil
	})
}

func (r *Runner) clientAsk(input map[string]any) (any, error) {
	return r.withClient(input, func(entry *clientEntry, toolkit *toolnexus.Toolkit) (any, error) {
		ctx, cancel := callerContext(input)
		defer cancel()
		result, err := entry.client.Ask(ctx, str(input["prompt"]), toolkit, str(input["id"]))
		if err != nil {
			return nil, err
		}
		return runResult(result), nil
	})
}

func (r *Runner) clientStream(input map[string]any) (any, error) {
	return r.withClient(input, func(entry *clientEntry, toolkit *toolnexus.Toolkit) (any, error) {
		ctx, cancel := callerContext(input)
		defer cancel()
		channel, err := entry.client.StreamWithID(ctx, str(input["prompt"]), toolkit, str(input["id"]))
		if err != nil {
			return nil, err
		}
		events := []any{}
		var done *toolnexus.RunResult
		var streamErr error
		sawUsage := false
		for event := range channel {
			switch event.Type {
			case "text":
				events = append(events, map[string]any{"type": "text", "delta": event.Delta})
			case "tool_call":
				events = append(events, map[string]any{"type": "tool_call", "id": event.ID, "name": event.Name, "args": orEmpty(event.Args)})
			case "tool_result":
				events = append(events, map[string]any{"type": "tool_result", "id": event.ID, "name": event.Name, "output": event.Output, "isError": event.IsError})
			case "usage":
				// The Go port emits the running total; the protocol wants one usage event with the
				// call's totals just before done, taken from the done result below.
				sawUsage = true
			case "done":
				done = event.Result
			case "error":
				streamErr = event.Err
			}
		}
		if streamErr != nil {
			return nil, streamErr
		}
		if done == nil {
			return nil, contractf("other", "the stream ended without a done event")
		}
		if sawUsage {
			events = append(events, map[string]any{"type": "usage", "input": done.Usage.PromptTokens, "output": done.Usage.CompletionTokens})
		}
		events = append(events, map[string]any{"type": "done"})
		value := runResult(*done)
		value["events"] = events
		return value, nil
	})
}

func (r *Runner) clientObservations(input map[string]any) (any, error) {
	entry, err := r.clientOf(input)
	if err != nil {
		return nil, err
	}
	accessor := entry.client.ConversationStore()
	storeAccessor := "missing"
	switch {
	case entry.provided != nil:
		if accessor == toolnexus.ConversationStore(entry.provided) {
			storeAccessor = "provided"
		}
	case accessor != nil:
		storeAccessor = "default"
	}
	entry.mu.Lock()
	defer entry.mu.Unlock()
	return map[string]any{
		"transformInputs":   jsonClone(entry.transformInputs),
		"hookCalls":         jsonClone(entry.hookCalls),
		"warnings":          append([]string{}, entry.warnings...),
		"transportRequests": jsonClone(entry.transportRequests),
		"storeAccessor":     storeAccessor,
	}, nil
}

func (r *Runner) storeGet(input map[string]any) (any, error) {
	entry, err := r.clientOf(input)
	if err != nil {
		return nil, err
	}
	messages, err := entry.client.ConversationStore().Get(str(input["id"]))
	if err != nil {
		return nil, err
	}
	if messages == nil {
		return map[string]any{"messages": nil}, nil
	}
	return map[string]any{"messages": messages}, nil
}

func (r *Runner) storeSave(input map[string]any) (any, error) {
	entry, err := r.clientOf(input)
	if err != nil {
		return nil, err
	}
	messages, ok := input["messages"].([]any)
	if !ok {
		return nil, contractf("other", "store.save needs messages as a list, got %T", input["messages"])
	}
	if err := entry.client.ConversationStore().Save(str(input["id"]), messages); err != nil {
		return nil, err
	}
	return map[string]any{}, nil
}

// ---- small helpers ----

func jsonClone(value any) any {
	data, err := json.Marshal(value)
	if err != nil {
		return fmt.Sprintf("<not JSON: %v>", err)
	}
	var out any
	_ = json.Unmarshal(data, &out)
	return out
}

func orEmpty(args map[string]any) map[string]any {
	if args == nil {
		return map[string]any{}
	}
	return args
}

func str(value any) string {
	if s, ok := value.(string); ok {
		return s
	}
	return ""
}

func integer(value any) int {
	if number, ok := value.(float64); ok {
		return int(number)
	}
	return 0
}
