package interpret

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/cli-runtime/pkg/resource"
	"sigs.k8s.io/yaml"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// readInfos reads the objects of files, directories or URLs, offline.
func readInfos(files resource.FilenameOptions) ([]*resource.Info, error) {
	return resource.NewLocalBuilder().
		Unstructured().
		FilenameParam(false, &files).
		Flatten().
		Do().
		Infos()
}

// asCustomization converts an object read from a file.
func asCustomization(obj runtime.Object) (*configv1alpha1.ResourceInterpreterCustomization, error) {
	u, ok := obj.(*unstructured.Unstructured)
	gvk := obj.GetObjectKind().GroupVersionKind()
	if !ok || gvk != configv1alpha1.SchemeGroupVersion.WithKind("ResourceInterpreterCustomization") {
		return nil, fmt.Errorf("not a ResourceInterpreterCustomization, got %v", gvk)
	}
	var c configv1alpha1.ResourceInterpreterCustomization
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, &c, true); err != nil {
		return nil, fmt.Errorf("ResourceInterpreterCustomization %s: %w", u.GetName(), err)
	}
	return &c, nil
}

// webhookConfigurationKind is the kind of ResourceInterpreterWebhookConfigurations.
var webhookConfigurationKind = configv1alpha1.SchemeGroupVersion.WithKind(configv1alpha1.ResourceKindResourceInterpreterWebhookConfiguration)

// asWebhookConfiguration converts an object read from a file; false when
// it is of another kind.
func asWebhookConfiguration(obj runtime.Object) (*configv1alpha1.ResourceInterpreterWebhookConfiguration, bool, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok || obj.GetObjectKind().GroupVersionKind() != webhookConfigurationKind {
		return nil, false, nil
	}
	var c configv1alpha1.ResourceInterpreterWebhookConfiguration
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, &c, true); err != nil {
		return nil, true, fmt.Errorf("ResourceInterpreterWebhookConfiguration %s: %w", u.GetName(), err)
	}
	return &c, true, nil
}

// readConfigs reads every customization and webhook configuration of
// files.
func readConfigs(files resource.FilenameOptions) ([]*configv1alpha1.ResourceInterpreterCustomization, []*configv1alpha1.ResourceInterpreterWebhookConfiguration, error) {
	infos, err := readInfos(files)
	if err != nil {
		return nil, nil, err
	}
	var customizations []*configv1alpha1.ResourceInterpreterCustomization
	var hooks []*configv1alpha1.ResourceInterpreterWebhookConfiguration
	for _, info := range infos {
		if h, ok, err := asWebhookConfiguration(info.Object); ok {
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", info.Source, err)
			}
			hooks = append(hooks, h)
			continue
		}
		c, err := asCustomization(info.Object)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", info.Source, err)
		}
		customizations = append(customizations, c)
	}
	return customizations, hooks, nil
}

// readObject reads the one object of a file or URL; "" gives nil.
func readObject(file string) (*unstructured.Unstructured, error) {
	if file == "" {
		return nil, nil
	}
	infos, err := readInfos(resource.FilenameOptions{Filenames: []string{file}})
	if err != nil {
		return nil, err
	}
	switch {
	case len(infos) == 0:
		return nil, fmt.Errorf("%s holds no object", file)
	case len(infos) > 1:
		return nil, fmt.Errorf("get %d objects, expect one at most", len(infos))
	}
	u, ok := infos[0].Object.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("%s: not an object", file)
	}
	return u, nil
}

// readStatusItems reads AggregatedStatusItems, one per YAML document, from
// a file, a URL or ("-") stdin; "" gives none.
func readStatusItems(file string, stdin io.Reader) ([]workv1alpha2.AggregatedStatusItem, error) {
	if file == "" {
		return nil, nil
	}
	data, err := readSource(file, stdin)
	if err != nil {
		return nil, err
	}
	var items []workv1alpha2.AggregatedStatusItem
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for n := 1; ; n++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return items, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if len(bytes.TrimSpace(doc)) == 0 || strings.TrimSpace(string(doc)) == "---" {
			continue
		}
		var item workv1alpha2.AggregatedStatusItem
		if err := yaml.UnmarshalStrict(doc, &item); err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", file, n, err)
		}
		items = append(items, item)
	}
}

// readSource reads a file, a URL, or stdin for "-".
func readSource(file string, stdin io.Reader) ([]byte, error) {
	switch {
	case file == "-":
		return io.ReadAll(stdin)
	case strings.HasPrefix(file, "http://") || strings.HasPrefix(file, "https://"):
		client := &http.Client{Timeout: 30 * time.Second}
		resp, err := client.Get(file)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("GET %s: %s", file, resp.Status)
		}
		return io.ReadAll(resp.Body)
	}
	return os.ReadFile(file)
}
