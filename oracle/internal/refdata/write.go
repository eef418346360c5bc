package refdata

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

// WriteGoFields writes go-fields.json: one struct a line followed by its fields, one a
// line, sorted by definition name, so that a release's changes read as a line diff.
func WriteGoFields(path string, types map[string]GoType) error {
	var b bytes.Buffer
	b.WriteString("{\n")
	keys := sortedKeys(types)
	for i, key := range keys {
		t := types[key]
		fmt.Fprintf(&b, " %s: {%s: %s, ", jsonText(key), jsonText("source"), jsonText(t.Source))
		if t.DefinedAs != "" {
			fmt.Fprintf(&b, "%s: %s, ", jsonText("defined_as"), jsonText(t.DefinedAs))
		}
		fmt.Fprintf(&b, "%s: [", jsonText("fields"))
		for j, f := range t.Fields {
			b.WriteString("\n  ")
			b.WriteString(jsonText(f))
			if j+1 < len(t.Fields) {
				b.WriteString(",")
			}
		}
		b.WriteString("]}")
		if i+1 < len(keys) {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// WriteProtoFields writes proto-fields.json, indented, sorted by definition name.
func WriteProtoFields(path string, messages map[string]ProtoMessage) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	// encoding/json writes a map's keys sorted.
	if err := enc.Encode(messages); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// jsonText is v as compact JSON, with <, > and & as they are.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	// Encoding strings and these structs cannot fail.
	_ = enc.Encode(v)
	return string(bytes.TrimRight(b.Bytes(), "\n"))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
