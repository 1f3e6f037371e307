package chart

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// pod is one rendered container laid out on this machine: what a kubelet
// would mount is written under root, and its command line points there.
type pod struct {
	name string
	root string
	args []string // binary name first
}

// rewrite turns in-cluster addresses and paths into this machine's.
type rewrite func(s string) string

// layOut materializes the first container of a Deployment or StatefulSet:
// its volumes' files under root (through rw, so that kubeconfigs name
// local paths and ports) and its command line.
func layOut(objs []*unstructured.Unstructured, workload *unstructured.Unstructured, root string, rw rewrite) (*pod, error) {
	containers := objectsAt(workload.Object, "spec.template.spec.containers")
	if len(containers) == 0 {
		return nil, fmt.Errorf("%s has no containers", workload.GetName())
	}
	c := containers[0]
	volumes := map[string]map[string]any{}
	for _, v := range objectsAt(workload.Object, "spec.template.spec.volumes") {
		name, _ := v["name"].(string)
		volumes[name] = v
	}
	// A StatefulSet's claims are a directory here, like an emptyDir.
	for _, claim := range objectsAt(workload.Object, "spec.volumeClaimTemplates") {
		name, _ := lookupPath(claim, "metadata.name")
		volumes[fmt.Sprint(name)] = map[string]any{"emptyDir": map[string]any{}}
	}
	mounts, _ := c["volumeMounts"].([]any)
	for _, m := range mounts {
		mm, _ := m.(map[string]any)
		name, _ := mm["name"].(string)
		path, _ := mm["mountPath"].(string)
		files, err := volumeFiles(objs, volumes[name])
		if err != nil {
			return nil, fmt.Errorf("%s volume %s: %w", workload.GetName(), name, err)
		}
		dir := filepath.Join(root, path)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		for file, content := range files {
			if err := os.WriteFile(filepath.Join(dir, file), []byte(rw(content)), 0o600); err != nil {
				return nil, err
			}
		}
	}
	args := append(stringsOf(c["command"]), stringsOf(c["args"])...)
	if len(stringsOf(c["command"])) == 0 {
		image, _ := c["image"].(string)
		args = append([]string{binaryOf(image)}, args...)
	}
	for i := range args {
		args[i] = rw(strings.ReplaceAll(args[i], "$(POD_NAME)", workload.GetName()+"-0"))
	}
	return &pod{name: workload.GetName(), root: root, args: args}, nil
}

// volumeFiles returns the files a volume holds (none for an emptyDir).
func volumeFiles(objs []*unstructured.Unstructured, volume map[string]any) (map[string]string, error) {
	if volume == nil {
		return nil, fmt.Errorf("not declared")
	}
	files := map[string]string{}
	add := func(kind string, source map[string]any, nameField string) error {
		name, _ := source[nameField].(string)
		data, err := objectData(objs, kind, name)
		if err != nil {
			return err
		}
		items, _ := source["items"].([]any)
		if len(items) == 0 {
			for k, v := range data {
				files[k] = v
			}
			return nil
		}
		for _, it := range items {
			im, _ := it.(map[string]any)
			key, _ := im["key"].(string)
			path, _ := im["path"].(string)
			v, ok := data[key]
			if !ok {
				return fmt.Errorf("%s %s has no key %s", kind, name, key)
			}
			files[path] = v
		}
		return nil
	}
	switch {
	case volume["secret"] != nil:
		return files, add("Secret", volume["secret"].(map[string]any), "secretName")
	case volume["configMap"] != nil:
		return files, add("ConfigMap", volume["configMap"].(map[string]any), "name")
	case volume["projected"] != nil:
		for _, sm := range objectsAt(volume, "projected.sources") {
			var err error
			if sec, ok := sm["secret"].(map[string]any); ok {
				err = add("Secret", sec, "name")
			} else if cm, ok := sm["configMap"].(map[string]any); ok {
				err = add("ConfigMap", cm, "name")
			}
			if err != nil {
				return nil, err
			}
		}
		return files, nil
	case volume["emptyDir"] != nil:
		return files, nil
	}
	return nil, fmt.Errorf("unsupported volume %v", volume)
}

// objectData returns a rendered Secret's or ConfigMap's data, decoded.
func objectData(objs []*unstructured.Unstructured, kind, name string) (map[string]string, error) {
	for _, o := range objs {
		if o.GetKind() != kind || o.GetName() != name {
			continue
		}
		out := map[string]string{}
		data, _ := o.Object["data"].(map[string]any)
		for k, v := range data {
			s, _ := v.(string)
			if kind == "Secret" {
				b, err := base64.StdEncoding.DecodeString(s)
				if err != nil {
					return nil, fmt.Errorf("%s %s key %s: %w", kind, name, k, err)
				}
				s = string(b)
			}
			out[k] = s
		}
		stringData, _ := o.Object["stringData"].(map[string]any)
		for k, v := range stringData {
			out[k], _ = v.(string)
		}
		return out, nil
	}
	return nil, fmt.Errorf("no %s %s rendered", kind, name)
}
