package differential

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// Case is one request sent to both servers.
type Case struct {
	// Name is unique, "<kind folder>/<case>"; known-drifts.txt is keyed by it.
	Name string
	// Source says where the case comes from (file and document, or the seed
	// and edits of a mutation).
	Source string
	Kind   Kind
	// Base, when set, is created for real on both servers first; Patch (a
	// JSON merge patch) is then applied to what each server stored, and the
	// result sent as an update, as a client that reads, edits and writes
	// back. Otherwise Object is sent as a create.
	Base  map[string]any
	Patch []byte
	// BaseKind is the kind Base is created as: Kind, or another version of
	// the same resource (an object written through an older version, then
	// edited through Kind's).
	BaseKind Kind
	// Object is the object sent by a create; for an update, Base with
	// Patch applied: what the user asked for, which tells normalization
	// which fields the user set.
	Object map[string]any
}

// IsUpdate reports whether the case updates a stored base.
func (c Case) IsUpdate() bool { return c.Base != nil }

// document is one YAML document of the corpus: a named create (object) or
// a named update (base, and update: a JSON merge patch applied to base).
type document struct {
	Case   string          `json:"case"`
	Object json.RawMessage `json:"object,omitempty"`
	Base   json.RawMessage `json:"base,omitempty"`
	Update json.RawMessage `json:"update,omitempty"`
}

var caseName = regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$`)

// LoadCorpus reads testdata/corpus/<kind>/*.yaml for every kind.
func LoadCorpus(dir string) ([]Case, error) {
	var out []Case
	for _, k := range Kinds {
		files, err := filepath.Glob(filepath.Join(dir, k.Dir, "*.yaml"))
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		for _, f := range files {
			cases, err := loadCorpusFile(k, f)
			if err != nil {
				return nil, err
			}
			out = append(out, cases...)
		}
	}
	if err := checkCases(out); err != nil {
		return nil, err
	}
	return out, nil
}

func loadCorpusFile(k Kind, file string) ([]Case, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	docs, err := splitDocuments(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var out []Case
	for i, doc := range docs {
		where := fmt.Sprintf("%s#%d", filepath.Base(file), i)
		c, err := parseDocument(k, doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		c.Source = where
		out = append(out, c)
	}
	return out, nil
}

// parseDocument turns one corpus document into a case of kind k.
func parseDocument(k Kind, doc []byte) (Case, error) {
	var d document
	if err := yaml.UnmarshalStrict(doc, &d); err != nil {
		return Case{}, err
	}
	if !caseName.MatchString(d.Case) {
		return Case{}, fmt.Errorf("case name %q: want lower-case words joined by '-'", d.Case)
	}
	c := Case{Name: k.Dir + "/" + d.Case, Kind: k}
	var err error
	switch {
	case d.Object != nil && d.Base == nil && d.Update == nil:
		c.Object, err = decodeObject(d.Object)
	case d.Object == nil && d.Base != nil && d.Update != nil:
		var merged []byte
		if merged, err = jsonpatch.MergePatch(d.Base, d.Update); err != nil {
			return c, fmt.Errorf("case %s: apply update: %w", d.Case, err)
		}
		c.Patch = d.Update
		if c.Base, err = decodeObject(d.Base); err == nil {
			c.Object, err = decodeObject(merged)
		}
	default:
		return c, fmt.Errorf("case %s: want either object, or base and update", d.Case)
	}
	if err != nil {
		return c, fmt.Errorf("case %s: %w", d.Case, err)
	}
	if got, ok := KindOf(str(c.Object["apiVersion"]), str(c.Object["kind"])); !ok || got.Dir != k.Dir {
		return c, fmt.Errorf("case %s: %v/%v is not a %s", d.Case, c.Object["apiVersion"], c.Object["kind"], k.GVK.Kind)
	}
	if c.Base != nil {
		got, ok := KindOf(str(c.Base["apiVersion"]), str(c.Base["kind"]))
		if !ok || got.GVK.Group != k.GVK.Group || got.Resource != k.Resource {
			return c, fmt.Errorf("case %s: base %v/%v is not a %s of any version", d.Case, c.Base["apiVersion"], c.Base["kind"], k.GVK.Kind)
		}
		c.BaseKind = got
	}
	return c, nil
}

// decodeObject decodes JSON with integers as int64, as unstructured
// objects hold them.
func decodeObject(data []byte) (map[string]any, error) {
	var m map[string]any
	if err := utiljson.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("not an object")
	}
	return m, nil
}

// checkCases rejects duplicate case names, and update bases whose name
// another case of the resource (in any version) also uses: bases are
// stored for real, so a create of the same name would meet AlreadyExists.
func checkCases(cases []Case) error {
	names := map[string]bool{}
	objects := map[string]int{}
	key := func(c Case, o map[string]any) string {
		return c.Kind.GVK.Group + "/" + c.Kind.Resource + "/" + metadataName(o)
	}
	for _, c := range cases {
		if names[c.Name] {
			return fmt.Errorf("case %s (%s): duplicate name", c.Name, c.Source)
		}
		names[c.Name] = true
		if c.IsUpdate() {
			objects[key(c, c.Base)] += 1000
		} else {
			objects[key(c, c.Object)]++
		}
	}
	for _, c := range cases {
		if c.IsUpdate() && objects[key(c, c.Base)] != 1000 {
			return fmt.Errorf("case %s (%s): base name %q is used by another case of the kind", c.Name, c.Source, metadataName(c.Base))
		}
	}
	return nil
}

// metadataName returns metadata.name, or "".
func metadataName(o map[string]any) string {
	m, _ := o["metadata"].(map[string]any)
	return str(m["name"])
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
