// Package refdata reads, from the sources of Kubernetes' Go modules at one release, the
// facts about the API types that the Rust generator (`cargo xtask codegen`) needs and
// that the OpenAPI document does not carry: each Go struct's fields with their Go shapes
// (go-fields.json) and each protobuf message's fields with their numbers, docs and
// markers (proto-fields.json).
//
// Go's own parser reads the Go files (go/parser, go/build's file selection, reflect's
// struct tag rules), so a field's type is what the compiler sees, written as go/printer
// writes it, and its tag options are what encoding/json reads.
package refdata

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Module is one Go module's source tree at a version.
type Module struct {
	// Path is the module path, such as k8s.io/api.
	Path string
	// Version is its version, such as v0.36.3.
	Version string
	// Dir is its extracted source (Go's module cache).
	Dir string
}

// GoField is one field of a Go struct, as go-fields.json records it (the keys are
// written in this, alphabetical, order).
type GoField struct {
	Embedded  bool    `json:"embedded"`
	Go        string  `json:"go"`
	Inline    bool    `json:"inline"`
	JSON      string  `json:"json"`
	Map       bool    `json:"map"`
	OmitEmpty bool    `json:"omitempty"`
	OmitZero  bool    `json:"omitzero"`
	Pointer   bool    `json:"pointer"`
	Protobuf  *string `json:"protobuf"`
	Slice     bool    `json:"slice"`
	Type      string  `json:"type"`
}

// GoType is one named type: a struct with its fields, or a type defined as another
// (DefinedAs, such as "string" or "[]string").
type GoType struct {
	Source    string
	DefinedAs string
	Fields    []GoField
}

// GoPackages lists the packages whose types go-fields.json records, relative to each
// module's root: every group version of k8s.io/api, and the packages of the other
// modules that the API's types are made of.
func GoPackages(m Module) ([]string, error) {
	switch m.Path {
	case "k8s.io/api":
		return apiPackages(m.Dir)
	case "k8s.io/apimachinery":
		return []string{
			"pkg/api/resource", "pkg/apis/meta/v1", "pkg/apis/meta/v1beta1",
			"pkg/runtime", "pkg/util/intstr", "pkg/version",
		}, nil
	case "k8s.io/apiextensions-apiserver":
		return []string{"pkg/apis/apiextensions/v1", "pkg/apis/apiextensions/v1beta1"}, nil
	case "k8s.io/kube-aggregator":
		return []string{"pkg/apis/apiregistration/v1", "pkg/apis/apiregistration/v1beta1"}, nil
	case "k8s.io/kubernetes":
		return InternalPackages, nil
	}
	return nil, fmt.Errorf("module %s: not one whose types are read", m.Path)
}

// InternalPackages are the packages of k8s.io/kubernetes whose internal types
// go-internal-fields.json records: those whose values Go's validation writes with
// `json.Marshal` or `diff.Diff` (a pod's spec, a volume's source, a claim's spec, a job's
// template, a volume attachment's spec, a stateful set's claim templates, a certificate
// signing request's conditions). Their structs
// have no JSON tags, so every exported field is recorded, tagged or not.
var InternalPackages = []string{"pkg/apis/apps", "pkg/apis/batch", "pkg/apis/certificates", "pkg/apis/core", "pkg/apis/storage"}

// apiPackages is every <group>/<version> directory of k8s.io/api: those with a
// generated.proto (each served or unserved group version has one).
func apiPackages(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "generated.proto" {
			rel, err := filepath.Rel(dir, filepath.Dir(path))
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// DefinitionPrefix is the OpenAPI definition name prefix of a package: the import path
// with its domain reversed and slashes as dots (k8s.io/api/apps/v1 is io.k8s.api.apps.v1).
func DefinitionPrefix(module, pkg string) string {
	importPath := module + "/" + pkg
	domain, rest, _ := strings.Cut(importPath, "/")
	labels := strings.Split(domain, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(labels, ".") + "." + strings.ReplaceAll(rest, "/", ".")
}

// ReadGoTypes reads every named struct and defined type of the module's packages, keyed
// by OpenAPI definition name (for k8s.io/kubernetes, by the same rule:
// io.k8s.kubernetes.pkg.apis.core.PodSpec).
func ReadGoTypes(m Module) (map[string]GoType, error) {
	pkgs, err := GoPackages(m)
	if err != nil {
		return nil, err
	}
	// Internal types carry no tags: every exported field is Go's JSON.
	untagged := m.Path == "k8s.io/kubernetes"
	out := map[string]GoType{}
	for _, pkg := range pkgs {
		if err := readGoPackage(m, pkg, untagged, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readGoPackage reads the files Go compiles in pkg (the default build context's choice,
// which honours build constraints such as fieldsv1_string.go's), but tests and the
// generated files (deepcopy, protobuf, swagger docs), which declare no API types.
func readGoPackage(m Module, pkg string, untagged bool, out map[string]GoType) error {
	dir := filepath.Join(m.Dir, filepath.FromSlash(pkg))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	ctx := build.Default
	ctx.CgoEnabled = false
	prefix := DefinitionPrefix(m.Path, pkg)
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") ||
			strings.HasPrefix(name, "zz_generated") || strings.HasPrefix(name, "generated.") {
			continue
		}
		if ok, err := ctx.MatchFile(dir, name); err != nil {
			return err
		} else if !ok {
			continue
		}
		path := filepath.Join(dir, name)
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		source := pkg + "/" + name + "@" + m.Version
		for _, decl := range file.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.TYPE {
				continue
			}
			for _, spec := range gen.Specs {
				ts := spec.(*ast.TypeSpec)
				// Aliases (`type Rule = v1.Rule`) are the other package's type.
				if ts.Assign.IsValid() || ts.TypeParams != nil {
					continue
				}
				t, ok, err := goType(fset, ts.Type, untagged)
				if err != nil {
					return fmt.Errorf("%s: type %s: %w", fset.Position(ts.Pos()), ts.Name.Name, err)
				}
				if !ok {
					continue
				}
				t.Source = source
				key := prefix + "." + ts.Name.Name
				if _, dup := out[key]; dup {
					return fmt.Errorf("%s: type %s declared twice", path, ts.Name.Name)
				}
				out[key] = t
			}
		}
	}
	return nil
}

// goType describes a type declaration's right-hand side; ok is false for types that hold
// no data (interfaces, functions, channels, and anything made of them).
func goType(fset *token.FileSet, expr ast.Expr, untagged bool) (GoType, bool, error) {
	if st, ok := expr.(*ast.StructType); ok {
		fields, err := structFields(fset, st, untagged)
		return GoType{Fields: fields}, true, err
	}
	if !isData(expr) {
		return GoType{}, false, nil
	}
	text, err := exprText(fset, expr)
	return GoType{DefinedAs: text, Fields: []GoField{}}, true, err
}

// isData reports whether a defined type's definition is made of data types only.
func isData(expr ast.Expr) bool {
	switch e := expr.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		return true
	case *ast.StarExpr:
		return isData(e.X)
	case *ast.ArrayType:
		return isData(e.Elt)
	case *ast.MapType:
		return isData(e.Key) && isData(e.Value)
	}
	return false
}

// structFields lists the fields a struct's tags put on the wire or in JSON: fields with
// no tag (internal state such as Quantity's) and fields Go's JSON skips (`json:"-"`) are
// not part of the API type. With untagged (an internal package, whose structs have no
// tags), every exported field is, as encoding/json writes it.
func structFields(fset *token.FileSet, st *ast.StructType, untagged bool) ([]GoField, error) {
	fields := []GoField{}
	for _, f := range st.Fields.List {
		if f.Tag == nil && !untagged {
			continue
		}
		raw := ""
		var err error
		if f.Tag != nil {
			raw, err = strconv.Unquote(f.Tag.Value)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: tag %s: %w", fset.Position(f.Pos()), f.Tag.Value, err)
		}
		tag := reflect.StructTag(raw)
		jsonTag, hasJSON := tag.Lookup("json")
		if jsonTag == "-" {
			continue
		}
		name, options, _ := strings.Cut(jsonTag, ",")
		if !hasJSON {
			name, options = "", ""
		}
		opts := map[string]bool{}
		for _, o := range strings.Split(options, ",") {
			opts[o] = true
		}
		typeText, err := exprText(fset, f.Type)
		if err != nil {
			return nil, err
		}
		field := GoField{
			Inline:    opts["inline"],
			JSON:      name,
			OmitEmpty: opts["omitempty"],
			OmitZero:  opts["omitzero"],
			Type:      typeText,
		}
		if pb, ok := tag.Lookup("protobuf"); ok {
			field.Protobuf = &pb
		}
		switch t := f.Type.(type) {
		case *ast.StarExpr:
			field.Pointer = true
		case *ast.ArrayType:
			field.Slice = t.Len == nil
		case *ast.MapType:
			field.Map = true
		}
		if len(f.Names) == 0 {
			field.Embedded = true
			field.Go = embeddedName(f.Type)
			fields = append(fields, field)
			continue
		}
		for _, n := range f.Names {
			// encoding/json writes only exported fields (an internal struct's
			// unexported ones, if any, are state).
			if untagged && !n.IsExported() {
				continue
			}
			named := field
			named.Go = n.Name
			fields = append(fields, named)
		}
	}
	return fields, nil
}

// embeddedName is an embedded field's name: its type's, without package or pointer.
func embeddedName(expr ast.Expr) string {
	switch e := expr.(type) {
	case *ast.StarExpr:
		return embeddedName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

func exprText(fset *token.FileSet, expr ast.Expr) (string, error) {
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, expr); err != nil {
		return "", err
	}
	return b.String(), nil
}
