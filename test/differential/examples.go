package differential

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// LoadExamples reads every document of a kind under test in the YAML files
// below dir (recursively), as create cases named
// "karmada/<file without extension>/<kind folder>-<name>". Other kinds
// (Karmada's own) are skipped.
func LoadExamples(dir string) ([]Case, error) {
	var out []Case
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		cases, err := loadExampleFile(dir, path)
		out = append(out, cases...)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := checkCases(out); err != nil {
		return nil, err
	}
	return out, nil
}

func loadExampleFile(dir, path string) ([]Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return nil, err
	}
	rel = strings.TrimSuffix(filepath.ToSlash(rel), filepath.Ext(rel))
	docs, err := splitDocuments(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []Case
	for i, doc := range docs {
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("%s#%d: %w", rel, i, err)
		}
		obj, err := decodeObject(js)
		if err != nil {
			return nil, fmt.Errorf("%s#%d: %w", rel, i, err)
		}
		k, ok := KindOf(str(obj["apiVersion"]), str(obj["kind"]))
		if !ok {
			continue
		}
		out = append(out, Case{
			Name:   fmt.Sprintf("karmada/%s/%s-%s", rel, k.Dir, metadataName(obj)),
			Source: fmt.Sprintf("%s#%d", rel, i),
			Kind:   k,
			Object: obj,
		})
	}
	return out, nil
}

// splitDocuments splits a multi-document YAML file, dropping documents
// that hold only comments and blank lines.
func splitDocuments(data []byte) ([][]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var out [][]byte
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if !onlyComments(doc) {
			out = append(out, doc)
		}
	}
}

func onlyComments(doc []byte) bool {
	for _, line := range strings.Split(string(doc), "\n") {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") && l != "---" {
			return false
		}
	}
	return true
}
