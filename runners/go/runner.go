package main

import (
	toolnexus "github.com/muthuishere/toolnexus/golang"
)

type opHandler func(input map[string]any) (any, error)

// Runner holds the handles of one session (until session.reset).
type Runner struct {
	clients  map[string]*clientEntry
	toolkits map[string]*toolkitEntry
	// empty is the toolkit of client calls that name none.
	empty *toolnexus.Toolkit
}

func newRunner() *Runner {
	return &Runner{clients: map[string]*clientEntry{}, toolkits: map[string]*toolkitEntry{}}
}

func (r *Runner) ops() map[string]opHandler {
	return map[string]opHandler{
		"session.reset": func(map[string]any) (any, error) {
			r.reset()
			return map[string]any{}, nil
		},
		"runner.echo": func(input map[string]any) (any, error) {
			return map[string]any{"value": input["value"]}, nil
		},
		"client.create":       r.clientCreate,
		"client.run":          r.clientRun,
		"client.ask":          r.clientAsk,
		"client.stream":       r.clientStream,
		"client.observations": r.clientObservations,
		"store.get":           r.storeGet,
		"store.save":          r.storeSave,
		"toolkit.create":      r.toolkitCreate,
		"toolkit.tools":       r.toolkitTools,
		"toolkit.execute":     r.toolkitExecute,
		"toolkit.adapter":     r.toolkitAdapter,
		"toolkit.status":      r.toolkitStatus,
		"toolkit.warnings":    r.toolkitWarnings,
		"toolkit.close":       r.toolkitClose,
		"toolkit.introspect": func(map[string]any) (any, error) {
			return nil, unsupportedError{"the 0.16.0 Go port has no registry of open toolkits"}
		},
		"mcp.list":  r.mcpList,
		"mcp.parse": r.mcpParse,
	}
}

// reset closes every toolkit and drops every client created since the last reset.
func (r *Runner) reset() {
	for _, entry := range r.toolkits {
		if !entry.closed {
			entry.closed = true
			entry.toolkit.Close()
		}
	}
	if r.empty != nil {
		r.empty.Close()
	}
	r.clients = map[string]*clientEntry{}
	r.toolkits = map[string]*toolkitEntry{}
	r.empty = nil
}
