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
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/testing/fielderr"
)

// Expected errors are (type, path) pairs; see package fielderr.
type wantErr = fielderr.Want

func fe(typ field.ErrorType, path string) wantErr { return fielderr.New(typ, path) }

// assertErrors compares the (type, path) pairs of errs with want, ignoring order.
func assertErrors(t *testing.T, errs field.ErrorList, want ...wantErr) {
	t.Helper()
	fielderr.Assert(t, errs, want...)
}

// validCluster returns a Push cluster that passes validation, defaults applied.
func validCluster() *clusterv1alpha1.Cluster {
	c := &clusterv1alpha1.Cluster{
		ObjectMeta: metav1.ObjectMeta{Name: "member-1"},
		Spec: clusterv1alpha1.ClusterSpec{
			SyncMode:              clusterv1alpha1.Push,
			APIEndpoint:           "https://10.10.10.10:6443",
			SecretRef:             &clusterv1alpha1.LocalSecretReference{Namespace: "karmada-cluster", Name: "member-1"},
			ImpersonatorSecretRef: &clusterv1alpha1.LocalSecretReference{Namespace: "karmada-cluster", Name: "member-1-impersonator"},
			ProxyURL:              "socks5://proxy.example.com:1080",
			Provider:              "huaweicloud",
			Region:                "ap-southeast-1",
			Zones:                 []string{"az-1", "AZ_2"},
			Taints: []corev1.Taint{
				{Key: "example.com/dedicated", Value: "gpu", Effect: corev1.TaintEffectNoSchedule},
				{Key: "example.com/dedicated", Value: "gpu", Effect: corev1.TaintEffectNoExecute},
			},
		},
	}
	clusterv1alpha1.SetDefaults_Cluster(c)
	return c
}

func TestValidateCluster(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		mutate func(c *clusterv1alpha1.Cluster)
		want   []wantErr
	}{
		{name: "a fully populated push cluster is valid", mutate: func(*clusterv1alpha1.Cluster) {}},
		{name: "a pull cluster without endpoint, secrets or models is valid", mutate: func(c *clusterv1alpha1.Cluster) {
			c.Spec = clusterv1alpha1.ClusterSpec{SyncMode: clusterv1alpha1.Pull}
		}},
		{name: "a push cluster without an apiEndpoint is valid because Karmada does not require one", mutate: func(c *clusterv1alpha1.Cluster) {
			c.Spec.APIEndpoint = ""
		}},
		{name: "a name of exactly 48 characters is valid", mutate: func(c *clusterv1alpha1.Cluster) {
			c.Name = strings.Repeat("a", 48)
		}},
		{name: "a generateName ending in a dash is valid", mutate: func(c *clusterv1alpha1.Cluster) {
			c.GenerateName = "member-"
		}},
		{name: "an empty taint value is valid", mutate: func(c *clusterv1alpha1.Cluster) {
			c.Spec.Taints = []corev1.Taint{{Key: "k", Effect: corev1.TaintEffectNoSchedule}}
		}},
		{name: "an empty name is required", mutate: func(c *clusterv1alpha1.Cluster) { c.Name = "" },
			want: []wantErr{fe(field.ErrorTypeRequired, "metadata.name")}},
		{name: "a name of 49 characters is too long for the execution namespace", mutate: func(c *clusterv1alpha1.Cluster) {
			c.Name = strings.Repeat("a", 49)
		}, want: []wantErr{fe(field.ErrorTypeInvalid, "metadata.name")}},
		{name: "an upper-case name is not a DNS label", mutate: func(c *clusterv1alpha1.Cluster) { c.Name = "Member" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "metadata.name")}},
		{name: "a dotted name is a subdomain but not a DNS label", mutate: func(c *clusterv1alpha1.Cluster) { c.Name = "member.one" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "metadata.name")}},
		{name: "a namespace is forbidden on the cluster-scoped kind", mutate: func(c *clusterv1alpha1.Cluster) { c.Namespace = "ns" },
			want: []wantErr{fe(field.ErrorTypeForbidden, "metadata.namespace")}},
		{name: "an empty syncMode is required", mutate: func(c *clusterv1alpha1.Cluster) { c.Spec.SyncMode = "" },
			want: []wantErr{fe(field.ErrorTypeRequired, "spec.syncMode")}},
		{name: "a syncMode other than Push or Pull is not supported", mutate: func(c *clusterv1alpha1.Cluster) { c.Spec.SyncMode = "push" },
			want: []wantErr{fe(field.ErrorTypeNotSupported, "spec.syncMode")}},
		{name: "an apiEndpoint without a scheme does not parse", mutate: func(c *clusterv1alpha1.Cluster) { c.Spec.APIEndpoint = "10.10.10.10:6443" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "spec.apiEndpoint")}},
		{name: "an apiEndpoint without a host is invalid", mutate: func(c *clusterv1alpha1.Cluster) { c.Spec.APIEndpoint = "^Invalid" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "spec.apiEndpoint")}},
		{name: "an apiEndpoint with user information is invalid", mutate: func(c *clusterv1alpha1.Cluster) { c.Spec.APIEndpoint = "https://u:p@host:6443" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "spec.apiEndpoint")}},
		{name: "an apiEndpoint with a query and a fragment gets one error for each", mutate: func(c *clusterv1alpha1.Cluster) {
			c.Spec.APIEndpoint = "https://host:6443/?a=b#frag"
		}, want: []wantErr{fe(field.ErrorTypeInvalid, "spec.apiEndpoint"), fe(field.ErrorTypeInvalid, "spec.apiEndpoint")}},
		{name: "a proxyURL with an ftp scheme is invalid", mutate: func(c *clusterv1alpha1.Cluster) { c.Spec.ProxyURL = "ftp://proxy:21" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "spec.proxyURL")}},
		{name: "a proxyURL that does not parse is invalid", mutate: func(c *clusterv1alpha1.Cluster) { c.Spec.ProxyURL = "http://[::1" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "spec.proxyURL")}},
		{name: "an empty secretRef needs a namespace and a name", mutate: func(c *clusterv1alpha1.Cluster) {
			c.Spec.SecretRef = &clusterv1alpha1.LocalSecretReference{}
		}, want: []wantErr{fe(field.ErrorTypeRequired, "spec.secretRef.namespace"), fe(field.ErrorTypeRequired, "spec.secretRef.name")}},
		{name: "an impersonatorSecretRef without a name is incomplete", mutate: func(c *clusterv1alpha1.Cluster) {
			c.Spec.ImpersonatorSecretRef.Name = ""
		}, want: []wantErr{fe(field.ErrorTypeRequired, "spec.impersonatorSecretRef.name")}},
		{name: "a provider with a space is not a label value", mutate: func(c *clusterv1alpha1.Cluster) { c.Spec.Provider = "Invalid Provider" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "spec.provider")}},
		{name: "a region with a space is not a label value", mutate: func(c *clusterv1alpha1.Cluster) { c.Spec.Region = "Invalid Region" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "spec.region")}},
		{name: "a deprecated zone with a space is not a label value", mutate: func(c *clusterv1alpha1.Cluster) {
			c.Spec.Zones, c.Spec.Zone = nil, "Invalid Zone"
		}, want: []wantErr{fe(field.ErrorTypeInvalid, "spec.zone")}},
		{name: "an entry of zones with a space is not a label value", mutate: func(c *clusterv1alpha1.Cluster) {
			c.Spec.Zones = []string{"az-1", "Invalid Zone"}
		}, want: []wantErr{fe(field.ErrorTypeInvalid, "spec.zones[1]")}},
		{name: "zone and zones may not both be set", mutate: func(c *clusterv1alpha1.Cluster) { c.Spec.Zone = "az-3" },
			want: []wantErr{fe(field.ErrorTypeForbidden, "spec.zone")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := validCluster()
			tc.mutate(c)
			assertErrors(t, ValidateCluster(c), tc.want...)
		})
	}
}

func TestValidateClusterTaints(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		taints []corev1.Taint
		want   []wantErr
	}{
		{name: "NoSchedule and NoExecute taints on the same key are valid",
			taints: []corev1.Taint{{Key: "a", Effect: corev1.TaintEffectNoSchedule}, {Key: "a", Effect: corev1.TaintEffectNoExecute}}},
		{name: "a key that is not a qualified name is invalid",
			taints: []corev1.Taint{{Key: "bad key", Effect: corev1.TaintEffectNoSchedule}},
			want:   []wantErr{fe(field.ErrorTypeInvalid, "spec.taints[0].key")}},
		{name: "an empty key fails both qualified-name checks, as in Karmada",
			taints: []corev1.Taint{{Effect: corev1.TaintEffectNoSchedule}},
			want:   []wantErr{fe(field.ErrorTypeInvalid, "spec.taints[0].key"), fe(field.ErrorTypeInvalid, "spec.taints[0].key")}},
		{name: "a value that is not a label value is invalid",
			taints: []corev1.Taint{{Key: "a", Value: "bad value!", Effect: corev1.TaintEffectNoSchedule}},
			want:   []wantErr{fe(field.ErrorTypeInvalid, "spec.taints[0].value")}},
		{name: "an empty effect is required",
			taints: []corev1.Taint{{Key: "a"}},
			want:   []wantErr{fe(field.ErrorTypeRequired, "spec.taints[0].effect")}},
		{name: "PreferNoSchedule is not supported on clusters",
			taints: []corev1.Taint{{Key: "a", Effect: corev1.TaintEffectPreferNoSchedule}},
			want:   []wantErr{fe(field.ErrorTypeNotSupported, "spec.taints[0].effect")}},
		{name: "a second taint with the same key and effect is a duplicate",
			taints: []corev1.Taint{{Key: "a", Value: "x", Effect: corev1.TaintEffectNoSchedule}, {Key: "a", Value: "y", Effect: corev1.TaintEffectNoSchedule}},
			want:   []wantErr{fe(field.ErrorTypeDuplicate, "spec.taints[1]")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := validCluster()
			c.Spec.Taints = tc.taints
			assertErrors(t, ValidateCluster(c), tc.want...)
		})
	}
}

func TestValidateClusterUpdate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		mutate func(c *clusterv1alpha1.Cluster)
		want   []wantErr
	}{
		{name: "changing the spec, the id included, is allowed", mutate: func(c *clusterv1alpha1.Cluster) {
			c.Spec.ID, c.Spec.SyncMode, c.Spec.Region = "new-id", clusterv1alpha1.Pull, "eu-west-1"
		}},
		{name: "renaming a cluster is rejected as an immutable field", mutate: func(c *clusterv1alpha1.Cluster) { c.Name = "member-2" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "metadata.name")}},
		{name: "an update is also held to every create rule", mutate: func(c *clusterv1alpha1.Cluster) { c.Spec.SyncMode = "" },
			want: []wantErr{fe(field.ErrorTypeRequired, "spec.syncMode")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			old := validCluster()
			old.ResourceVersion, old.Spec.ID = "7", "old-id"
			updated := old.DeepCopy()
			tc.mutate(updated)
			assertErrors(t, ValidateClusterUpdate(updated, old), tc.want...)
		})
	}
}

func TestValidateClusterName(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		in     string
		prefix bool
		valid  bool
	}{
		{name: "a short lower-case name is valid", in: "member1", valid: true},
		{name: "an empty name is invalid", in: ""},
		{name: "a 48 character name is valid", in: strings.Repeat("x", 48), valid: true},
		{name: "a 49 character name is invalid", in: strings.Repeat("x", 49)},
		{name: "a name ending in a dash is invalid", in: "member-"},
		{name: "a prefix ending in a dash is valid", in: "member-", prefix: true, valid: true},
		{name: "a prefix starting with a dash is invalid", in: "-member", prefix: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if msgs := ValidateClusterName(tc.in, tc.prefix); (len(msgs) == 0) != tc.valid {
				t.Errorf("ValidateClusterName(%q, %v) = %v, want valid=%v", tc.in, tc.prefix, msgs, tc.valid)
			}
		})
	}
}
