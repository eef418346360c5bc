package refdata

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestDefinitionPrefixReversesTheDomain(t *testing.T) {
	for _, c := range []struct{ module, pkg, want string }{
		{"k8s.io/api", "apps/v1", "io.k8s.api.apps.v1"},
		{"k8s.io/apimachinery", "pkg/apis/meta/v1", "io.k8s.apimachinery.pkg.apis.meta.v1"},
		{"k8s.io/kube-aggregator", "pkg/apis/apiregistration/v1", "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1"},
	} {
		if got := DefinitionPrefix(c.module, c.pkg); got != c.want {
			t.Errorf("DefinitionPrefix(%q, %q) = %q, want %q", c.module, c.pkg, got, c.want)
		}
	}
}

// A k8s.io/api package in a temporary module tree: the types Go compiles are read with
// their tags; aliases, functions, untagged and `json:"-"` fields, files another build
// would compile and generated files are not.
func TestReadGoTypesReadsWhatTheCompilerSees(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "apps", "v1")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"generated.proto": "syntax = \"proto2\";\npackage k8s.io.api.apps.v1;\n",
		"types.go": `package v1

type Deployment struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\" protobuf:\"bytes,1,opt,name=metadata\"`" + `
	Replicas *int32 ` + "`json:\"replicas,omitempty\" protobuf:\"varint,2,opt,name=replicas\"`" + `
	Labels map[string]string ` + "`json:\"labels\"`" + `
	Names, Aliases []string ` + "`json:\"names,omitzero\"`" + `
	cache int
	Skipped string ` + "`json:\"-\"`" + `
}

type ExtraValue []string

type Other = Deployment

type Callback func()
`,
		"other_build.go":           "//go:build ignore\n\npackage v1\n\ntype NotCompiled struct{}\n",
		"zz_generated.deepcopy.go": "package v1\n\ntype Generated struct{}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	types, err := ReadGoTypes(Module{Path: "k8s.io/api", Version: "v0.0.1", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range types {
		keys = append(keys, k)
	}
	wantKeys := []string{"io.k8s.api.apps.v1.Deployment", "io.k8s.api.apps.v1.ExtraValue"}
	if len(keys) != len(wantKeys) {
		t.Fatalf("types %v, want %v", keys, wantKeys)
	}
	if got := types["io.k8s.api.apps.v1.ExtraValue"]; got.DefinedAs != "[]string" || got.Source != "apps/v1/types.go@v0.0.1" {
		t.Errorf("ExtraValue = %+v", got)
	}
	pb := func(s string) *string { return &s }
	want := []GoField{
		{Embedded: true, Go: "TypeMeta", Inline: true, Type: "metav1.TypeMeta"},
		{Embedded: true, Go: "ObjectMeta", JSON: "metadata", OmitEmpty: true, Protobuf: pb("bytes,1,opt,name=metadata"), Type: "metav1.ObjectMeta"},
		{Go: "Replicas", JSON: "replicas", OmitEmpty: true, Pointer: true, Protobuf: pb("varint,2,opt,name=replicas"), Type: "*int32"},
		{Go: "Labels", JSON: "labels", Map: true, Type: "map[string]string"},
		{Go: "Names", JSON: "names", OmitZero: true, Slice: true, Type: "[]string"},
		{Go: "Aliases", JSON: "names", OmitZero: true, Slice: true, Type: "[]string"},
	}
	if got := types["io.k8s.api.apps.v1.Deployment"].Fields; !reflect.DeepEqual(got, want) {
		t.Errorf("Deployment fields:\n got %+v\nwant %+v", got, want)
	}
}

// An internal struct (k8s.io/kubernetes/pkg/apis/...) has no tags: read untagged, every
// exported field is recorded, embedded ones by their type's name; unexported ones are
// not (encoding/json skips them).
func TestUntaggedStructsKeepEveryExportedField(t *testing.T) {
	fset := token.NewFileSet()
	expr, err := parser.ParseExprFrom(fset, "types.go", "struct {\n\tName string\n\tVolumeSource\n\tSize *resource.Quantity\n\tstate int\n}", 0)
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := goType(fset, expr, true)
	if err != nil || !ok {
		t.Fatalf("goType: %v, %v", ok, err)
	}
	var names []string
	for _, f := range got.Fields {
		names = append(names, f.Go)
	}
	if want := []string{"Name", "VolumeSource", "Size"}; !reflect.DeepEqual(names, want) {
		t.Errorf("fields %v, want %v", names, want)
	}
	if !got.Fields[1].Embedded || !got.Fields[2].Pointer {
		t.Errorf("shapes: %+v", got.Fields)
	}
	// Read as an API package's, untagged fields are not the API's.
	tagged, _, err := goType(fset, expr, false)
	if err != nil || len(tagged.Fields) != 0 {
		t.Errorf("tagged reading: %+v, %v", tagged.Fields, err)
	}
}
