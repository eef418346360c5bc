// Package protocol is the oracle's request loop: one JSON request a line in, one JSON
// answer a line out, in order, so that a test keeps one process and asks it many
// things. Bytes travel as base64 (Go's encoding of []byte).
package protocol

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/cases"
)

// Request is one question. Op says which; the other fields are its arguments.
//
//	{"op":"fuzz_wire","group":"apps","version":"v1","kind":"Deployment","seed":1}
//	{"op":"fuzz_internal","group":"apps","kind":"Deployment","seed":1}
//	{"op":"convert","input":"<base64>","format":"json","to":"apps/v1"}
//	{"op":"validate","input":"<base64 JSON>","old":"<base64 JSON, for an update>","mode":"store"|"check"}
type Request struct {
	Op      string       `json:"op"`
	Group   string       `json:"group"`
	Version string       `json:"version"`
	Kind    string       `json:"kind"`
	Seed    int64        `json:"seed"`
	Input   []byte       `json:"input"`
	Old     []byte       `json:"old"`
	Format  cases.Format `json:"format"`
	Mode    cases.Mode   `json:"mode"`
	To      string       `json:"to"`
}

// Answer is one answer: the op's result, or the error that stopped it.
type Answer struct {
	Result interface{} `json:"result,omitempty"`
	Error  string      `json:"error,omitempty"`
}

// Serve answers each request of in on out, until in ends.
func Serve(in io.Reader, out *bufio.Writer) error {
	go watchHeap()
	scanner := bufio.NewScanner(in)
	// Objects of several megabytes (a large list, base64) fit on one line.
	scanner.Buffer(make([]byte, 1<<20), 256<<20)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for scanner.Scan() {
		var req Request
		var answer Answer
		if err := json.Unmarshal(scanner.Bytes(), &req); err != nil {
			answer.Error = "request: " + err.Error()
		} else {
			answer = handle(&req)
		}
		if err := enc.Encode(answer); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
	return scanner.Err()
}

func handle(req *Request) (answer Answer) {
	defer func() {
		if r := recover(); r != nil {
			answer = Answer{Error: fmt.Sprintf("panic in Go: %v", r)}
		}
	}()
	var result interface{}
	var err error
	switch req.Op {
	case "fuzz_wire":
		result, err = cases.FuzzWire(schema.GroupVersionKind{Group: req.Group, Version: req.Version, Kind: req.Kind}, req.Seed)
	case "fuzz_internal":
		result, err = cases.FuzzInternal(schema.GroupKind{Group: req.Group, Kind: req.Kind}, req.Seed)
	case "convert":
		gv, perr := schema.ParseGroupVersion(req.To)
		if perr != nil {
			err = perr
			break
		}
		format := req.Format
		if format == "" {
			format = cases.JSON
		}
		result = cases.Convert(req.Input, format, gv)
	case "validate":
		mode := req.Mode
		if mode == "" {
			mode = cases.Store
		}
		result = cases.Validate(req.Input, req.Old, mode)
	default:
		err = fmt.Errorf("unknown op %q", req.Op)
	}
	if err != nil {
		return Answer{Error: err.Error()}
	}
	return Answer{Result: result}
}
