// Package report runs named checks against an API server and writes one JSON line per
// check ({"check", "ok", "detail", "seconds"}): the report client-check and manager-check
// print and the Rust tests read (kapi/tests/integration/go_clients.rs).
package report

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Check is one named check, given the run's environment E.
type Check[E any] struct {
	Name string
	Run  func(ctx context.Context, env E) error
}

// Result is one line of the report.
type Result struct {
	Check  string  `json:"check"`
	OK     bool    `json:"ok"`
	Detail string  `json:"detail,omitempty"`
	Secs   float64 `json:"seconds"`
}

// Run runs the checks in order, each within timeout and with a panic turned into its
// failure, writes one line per check to out, and returns how many failed.
func Run[E any](ctx context.Context, env E, checks []Check[E], timeout time.Duration, out io.Writer) int {
	failed := 0
	enc := json.NewEncoder(out)
	for _, c := range checks {
		start := time.Now()
		cctx, cancel := context.WithTimeout(ctx, timeout)
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			return c.Run(cctx, env)
		}()
		cancel()
		r := Result{Check: c.Name, OK: err == nil, Secs: time.Since(start).Seconds()}
		if err != nil {
			r.Detail = err.Error()
			failed++
		}
		_ = enc.Encode(r)
	}
	return failed
}
