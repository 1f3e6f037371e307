/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package validation

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/testing/repo"
)

// TestKarmadaExampleClusterIsAccepted decodes Karmada's own example Cluster the way the
// apiserver does (the universal decoder applies scheme defaults), clears the namespace the
// example sets on this cluster-scoped kind (the apiserver drops it too) and validates it.
func TestKarmadaExampleClusterIsAccepted(t *testing.T) {
	t.Parallel()
	path := filepath.Join(repo.RequireKarmadaExamples(t), "cr_cluster.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}

	scheme := runtime.NewScheme()
	if err := clusterv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatalf("AddToScheme: %v", err)
	}
	decoder := serializer.NewCodecFactory(scheme).UniversalDecoder(clusterv1alpha1.SchemeGroupVersion)

	var clusters []*clusterv1alpha1.Cluster
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("split %s: %v", path, err)
		}
		var meta metav1.TypeMeta
		if err := utilyaml.Unmarshal(doc, &meta); err != nil || meta.Kind != clusterv1alpha1.ResourceKindCluster {
			continue
		}
		obj, _, err := decoder.Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("decode Cluster: %v", err)
		}
		clusters = append(clusters, obj.(*clusterv1alpha1.Cluster))
	}
	if len(clusters) != 1 {
		t.Fatalf("found %d Cluster documents in %s, want 1", len(clusters), path)
	}

	cluster := clusters[0]
	cluster.Namespace = ""
	assertErrors(t, ValidateCluster(cluster))
	if cluster.Spec.Zone != "" || len(cluster.Spec.Zones) != 1 || cluster.Spec.Zones[0] != "az-1" {
		t.Errorf("zone was not migrated: zone=%q zones=%v", cluster.Spec.Zone, cluster.Spec.Zones)
	}
	if len(cluster.Spec.ResourceModels) != len(clusterv1alpha1.DefaultResourceModels()) {
		t.Errorf("got %d resource models, want the defaults", len(cluster.Spec.ResourceModels))
	}
}
