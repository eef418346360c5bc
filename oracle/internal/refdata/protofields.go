package refdata

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// ProtoMessage is one message of a generated.proto, as proto-fields.json records it.
type ProtoMessage struct {
	Proto   string       `json:"proto"`
	Fields  []ProtoField `json:"fields"`
	Markers []string     `json:"markers,omitempty"`
	Doc     string       `json:"doc,omitempty"`
}

// ProtoField is one field of a message.
type ProtoField struct {
	Name    string   `json:"name"`
	Number  int      `json:"number"`
	Label   string   `json:"label"`
	Key     string   `json:"key,omitempty"`
	Type    string   `json:"type"`
	Markers []string `json:"markers,omitempty"`
	Doc     string   `json:"doc,omitempty"`
}

// ProtoPackages lists the packages of a module whose generated.proto is read: those
// whose Go types are (GoPackages) and that have one.
func ProtoPackages(m Module) ([]string, error) {
	pkgs, err := GoPackages(m)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, pkg := range pkgs {
		path := filepath.Join(m.Dir, filepath.FromSlash(pkg), "generated.proto")
		if _, err := os.Stat(path); err == nil {
			out = append(out, pkg)
		} else if !os.IsNotExist(err) {
			return nil, err
		}
	}
	return out, nil
}

// ReadProtoMessages reads the messages of every generated.proto of the module, keyed by
// OpenAPI definition name.
func ReadProtoMessages(m Module) (map[string]ProtoMessage, error) {
	pkgs, err := ProtoPackages(m)
	if err != nil {
		return nil, err
	}
	out := map[string]ProtoMessage{}
	for _, pkg := range pkgs {
		path := filepath.Join(m.Dir, filepath.FromSlash(pkg), "generated.proto")
		messages, err := readProtoFile(path)
		if err != nil {
			return nil, err
		}
		prefix := DefinitionPrefix(m.Path, pkg)
		for _, msg := range messages {
			name := msg.Proto[strings.LastIndex(msg.Proto, ".")+1:]
			out[prefix+"."+name] = msg
		}
	}
	return out, nil
}

var (
	messageLine = regexp.MustCompile(`^message (\w+) \{$`)
	fieldLine   = regexp.MustCompile(`^(optional|repeated) ([\w.]+) (\w+) = (\d+);$`)
	mapLine     = regexp.MustCompile(`^map<(\w+), ([\w.]+)> (\w+) = (\d+);$`)
	headerLine  = regexp.MustCompile(`^(syntax = "proto2"|import "[\w./-]+"|option go_package = "[\w./-]+");$`)
	packageLine = regexp.MustCompile(`^package ([\w.]+);$`)
)

// readProtoFile reads a generated.proto as go-to-protobuf writes it: a licence block, a
// header, then top-level messages of optional, repeated and map fields, each preceded
// by its comment. Anything else is an error naming the line, so that a change of
// go-to-protobuf's output is noticed rather than misread.
func readProtoFile(path string) ([]ProtoMessage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		messages []ProtoMessage
		pkg      string
		comment  []string
		current  *ProtoMessage
		inBlock  bool
	)
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; scanner.Scan(); n++ {
		line := strings.TrimSpace(scanner.Text())
		fail := func(what string) error {
			return fmt.Errorf("%s:%d: %s: %q", path, n, what, line)
		}
		switch {
		case inBlock:
			inBlock = !strings.HasSuffix(line, "*/")
		case strings.HasPrefix(line, "/*"):
			inBlock = !strings.HasSuffix(line, "*/")
		case strings.HasPrefix(line, "//"):
			comment = append(comment, commentText(line))
		case line == "":
			// Outside a message, a blank line ends a comment that belongs to nothing (the
			// licence, the generator's notes); inside one, go-to-protobuf may leave a blank
			// line between a Go field's comment and the field (`ExtraValue`'s items).
			if current == nil {
				comment = nil
			}
		case current == nil && headerLine.MatchString(line):
			comment = nil
		case current == nil && packageLine.MatchString(line):
			pkg = packageLine.FindStringSubmatch(line)[1]
			comment = nil
		case current == nil && messageLine.MatchString(line):
			if pkg == "" {
				return nil, fail("message before the package line")
			}
			doc, markers := splitComment(comment)
			current = &ProtoMessage{
				Proto:   pkg + "." + messageLine.FindStringSubmatch(line)[1],
				Fields:  []ProtoField{},
				Markers: markers,
				Doc:     doc,
			}
			comment = nil
		case current != nil && line == "}":
			messages = append(messages, *current)
			current, comment = nil, nil
		case current != nil && fieldLine.MatchString(line):
			m := fieldLine.FindStringSubmatch(line)
			number, err := strconv.Atoi(m[4])
			if err != nil {
				return nil, fail(err.Error())
			}
			doc, markers := splitComment(comment)
			current.Fields = append(current.Fields, ProtoField{
				Name: m[3], Number: number, Label: m[1], Type: m[2], Markers: markers, Doc: doc,
			})
			comment = nil
		case current != nil && mapLine.MatchString(line):
			m := mapLine.FindStringSubmatch(line)
			number, err := strconv.Atoi(m[4])
			if err != nil {
				return nil, fail(err.Error())
			}
			doc, markers := splitComment(comment)
			current.Fields = append(current.Fields, ProtoField{
				Name: m[3], Number: number, Label: "map", Key: m[1], Type: m[2], Markers: markers, Doc: doc,
			})
			comment = nil
		default:
			return nil, fail("not a line go-to-protobuf writes")
		}
	}
	if err := scanner.Err(); err != nil {
		return nil, err
	}
	if current != nil {
		return nil, fmt.Errorf("%s: message %s not closed", path, current.Proto)
	}
	return messages, nil
}

// commentText is a `//` line's text without the marker and without indentation: the
// docs become Rust doc comments, where an indented line would start a code block (and
// rustdoc would compile it as a doctest).
func commentText(line string) string {
	return strings.TrimSpace(strings.TrimPrefix(line, "//"))
}

// splitComment separates a comment's `+` markers (`+optional`, `+listType=map`) from its
// prose, which keeps its line breaks; blank lines at either end of the prose are dropped.
func splitComment(lines []string) (string, []string) {
	var prose, markers []string
	for _, l := range lines {
		if strings.HasPrefix(l, "+") {
			markers = append(markers, l)
		} else {
			prose = append(prose, l)
		}
	}
	return strings.Trim(strings.Join(prose, "\n"), "\n"), markers
}
