package workload

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func obj(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func strs(paths []FieldPath) []string {
	var out []string
	for _, p := range paths {
		out = append(out, p.String())
	}
	return out
}

func TestDroppedFields(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		sent, kept string
		want       []string
	}{
		{
			name: "A pod template field an older member has behind a gate that is off is listed by its path.",
			sent: `{"kind":"Deployment","spec":{"replicas":2,"template":{"spec":{"hostnameOverride":"web","containers":[{"name":"web","image":"nginx"}]}}}}`,
			kept: `{"kind":"Deployment","spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"web","image":"nginx","imagePullPolicy":"Always"}],"dnsPolicy":"ClusterFirst"}}}}`,
			want: []string{"spec.template.spec.hostnameOverride"},
		},
		{
			name: "A container field is listed at the container's position in the applied list, whatever its place in the member's.",
			sent: `{"spec":{"containers":[{"name":"a","image":"x"},{"name":"b","image":"y","restartPolicyRules":[{"action":"Restart"}]}]}}`,
			kept: `{"spec":{"containers":[{"name":"b","image":"y"},{"name":"side","image":"z"},{"name":"a","image":"x"}]}}`,
			want: []string{"spec.containers[1].restartPolicyRules"},
		},
		{
			name: "Zero values, which servers omit, are not listed.",
			sent: `{"spec":{"hostNetwork":false,"priority":0,"subdomain":"","tolerations":[],"nodeSelector":{},"securityContext":{"runAsNonRoot":false},"x":null}}`,
			kept: `{"spec":{}}`,
			want: nil,
		},
		{
			name: "Values the member rewrote are kept, not dropped.",
			sent: `{"spec":{"resources":{"limits":{"cpu":"1000m"}},"port":"http"}}`,
			kept: `{"spec":{"resources":{"limits":{"cpu":"1"}},"port":8080}}`,
			want: nil,
		},
		{
			name: "Metadata, status and a Secret's stringData are the server's to change.",
			sent: `{"metadata":{"name":"a","resourceVersion":"5"},"status":{"replicas":3},"stringData":{"k":"v"},"data":{"k":"dg=="}}`,
			kept: `{"metadata":{"name":"a"},"data":{"k":"dg=="}}`,
			want: nil,
		},
		{
			name: "Unnamed items are matched by position only when the lists are of one length.",
			sent: `{"spec":{"a":[{"x":1,"y":2}],"b":[{"x":1,"y":2}]}}`,
			kept: `{"spec":{"a":[{"x":1}],"b":[{"x":1},{"x":3}]}}`,
			want: []string{"spec.a[0].y"},
		},
		{
			name: "A named item the member does not have is not guessed at.",
			sent: `{"spec":{"containers":[{"name":"a","image":"x"}]}}`,
			kept: `{"spec":{"containers":[{"name":"b","image":"x"}]}}`,
			want: nil,
		},
		{
			name: "A whole block a custom resource's older schema prunes is listed once, and every top-level field too.",
			sent: `{"spec":{"size":3,"tls":{"enabled":true,"secret":"s"}},"extra":"x"}`,
			kept: `{"spec":{"size":3}}`,
			want: []string{"extra", "spec.tls"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := strs(DroppedFields(obj(t, tc.sent), obj(t, tc.kept)))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("DroppedFields (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzDroppedFields: an object answered unchanged drops nothing.
func FuzzDroppedFields(f *testing.F) {
	f.Add(`{"spec":{"a":[1,{"name":"x","b":true}],"c":{"d":"e"}}}`)
	f.Add(`{"spec":{"a":[{"name":"x"},{"name":"x","b":true}]}}`)
	f.Fuzz(func(t *testing.T, s string) {
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) != nil {
			return
		}
		if got := DroppedFields(m, m); len(got) != 0 {
			t.Errorf("an unchanged object dropped %v", got)
		}
	})
}

func TestLookupRemoveSame(t *testing.T) {
	t.Parallel()
	o := obj(t, `{"spec":{"template":{"spec":{"hostnameOverride":"web","containers":[{"name":"app","ports":[{"containerPort":80}]}]}}}}`)
	port := FieldPath{"spec", "template", "spec", "containers", "[0]", "ports", "[0]", "containerPort"}
	if v, ok := Lookup(o, port); !ok || !Same(v, int64(80)) {
		t.Errorf("Lookup %s = %v, %t; want 80 (a float64 decoded, the same as int64 80)", port, v, ok)
	}
	for _, p := range []FieldPath{{"spec", "nothing"}, {"spec", "template", "spec", "containers", "[3]"}, {"spec", "template", "spec", "hostnameOverride", "x"}} {
		if _, ok := Lookup(o, p); ok {
			t.Errorf("Lookup %s found something", p)
		}
	}
	host := FieldPath{"spec", "template", "spec", "hostnameOverride"}
	Remove(o, host)
	Remove(o, FieldPath{"spec", "template", "spec", "containers", "[0]"}) // list items stay
	if _, ok := Lookup(o, host); ok {
		t.Errorf("%s not removed", host)
	}
	if _, ok := Lookup(o, port); !ok {
		t.Errorf("a list item was removed")
	}
	if Same("1", int64(1)) || !Same(map[string]any{"a": 1.0}, map[string]any{"a": int64(1)}) {
		t.Error("Same compares values, numbers whatever their Go type")
	}
}
