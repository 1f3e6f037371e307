package join

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	clienttesting "k8s.io/client-go/testing"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcofake "github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
	joinlib "github.com/mco-org/mco/pkg/join"
)

// member is a fake member whose kube-system namespace has the given uid and
// which issues a token on request.
func member(uid string) *kubefake.Clientset {
	c := kubefake.NewClientset(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "kube-system", UID: types.UID("uid-" + uid)}})
	c.PrependReactor("create", "serviceaccounts", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "token" {
			return false, nil, nil
		}
		return true, &authenticationv1.TokenRequest{Status: authenticationv1.TokenRequestStatus{Token: "token"}}, nil
	})
	return c
}

// readyMCO is a fake mco whose Clusters read back Ready, as if the
// cluster-status controller had checked them.
func readyMCO(objs ...runtime.Object) *mcofake.Clientset {
	c := mcofake.NewSimpleClientset(objs...) //nolint:staticcheck // NewClientset's field-managed tracker has no schema for mco's kinds.
	c.PrependReactor("get", "clusters", func(a clienttesting.Action) (bool, runtime.Object, error) {
		gvr := clusterv1alpha1.SchemeGroupVersion.WithResource("clusters")
		obj, err := c.Tracker().Get(gvr, "", a.(clienttesting.GetAction).GetName())
		if err != nil {
			return true, nil, err
		}
		cl := obj.(*clusterv1alpha1.Cluster).DeepCopy()
		cl.Status = clusterv1alpha1.ClusterStatus{
			KubernetesVersion: "v1.37.2",
			NodeSummary:       &clusterv1alpha1.NodeSummary{TotalNum: 3, ReadyNum: 3},
			Conditions: []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, Reason: "ClusterReady"},
				{Type: "CompleteAPIEnablements", Status: metav1.ConditionTrue, Reason: "CompleteAPIEnablements"}},
		}
		return true, cl, nil
	})
	return c
}

func TestRunPrintsStepsAndReadyState(t *testing.T) {
	t.Parallel()
	ep := endpoint{url: "https://10.0.0.3:6443", ca: []byte("CA")}
	cases := []struct {
		name string
		wait time.Duration
		want string
	}{{
		name: "With a wait the steps are numbered and the last line states the Ready state, version and nodes",
		wait: time.Minute,
		want: `[1/6] Reading the identity of member member3
[2/6] Creating mco's service accounts and roles in the member
[3/6] Waiting for the member to issue tokens
[4/6] Storing the member's credentials on mco (karmada-cluster/member3, karmada-cluster/member3-impersonator)
[5/6] Writing Cluster member3
[6/6] Waiting up to 1m0s for mco to report cluster member3 Ready
Cluster member3 is Ready: Kubernetes v1.37.2, 3/3 nodes Ready
`,
	}, {
		name: "Without a wait the last line says the Cluster is joined",
		want: `[1/5] Reading the identity of member member3
[2/5] Creating mco's service accounts and roles in the member
[3/5] Waiting for the member to issue tokens
[4/5] Storing the member's credentials on mco (karmada-cluster/member3, karmada-cluster/member3-impersonator)
[5/5] Writing Cluster member3
Cluster member3 joined; mco reports it Ready once mco-controller-manager has checked it (kubectl mco get clusters)
`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mco := readyMCO()
			c := joinlib.Clients{MCOKube: kubefake.NewClientset(), MCO: mco, Member: member("3")}
			var out bytes.Buffer
			o := Options{Name: "member3", Region: "cn-south", Zones: []string{"cn-south-a"}, UseTokenRequest: true, Wait: tc.wait}
			cluster, err := run(context.Background(), c, ep, o, &out)
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.want {
				t.Errorf("output:\n%s\nwant:\n%s", out.String(), tc.want)
			}
			if cluster.Spec.APIEndpoint != ep.url || cluster.Spec.Region != "cn-south" {
				t.Errorf("cluster spec %+v", cluster.Spec)
			}
			// Joining again changes nothing and succeeds.
			if _, err := run(context.Background(), c, ep, o, &bytes.Buffer{}); err != nil {
				t.Errorf("second join: %v", err)
			}
		})
	}
}

func TestRunRefusesASecondName(t *testing.T) {
	t.Parallel()
	existing := &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "member3"}, Spec: clusterv1alpha1.ClusterSpec{ID: "uid-3"}}
	c := joinlib.Clients{MCOKube: kubefake.NewClientset(), MCO: readyMCO(existing), Member: member("3")}
	_, err := run(context.Background(), c, endpoint{url: "https://m3"}, Options{Name: "again", UseTokenRequest: true}, &bytes.Buffer{})
	want := "this member is already joined as cluster member3 (id uid-3); unjoin it first"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}

func TestEndpointOf(t *testing.T) {
	t.Parallel()
	ca := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(ca, []byte("FILE CA"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		cfg     rest.Config
		want    endpoint
		wantErr string
	}{{
		name: "The server URL and inline CA are taken as they are",
		cfg:  rest.Config{Host: "https://10.0.0.1:6443", TLSClientConfig: rest.TLSClientConfig{CAData: []byte("DATA CA")}},
		want: endpoint{url: "https://10.0.0.1:6443", ca: []byte("DATA CA")},
	}, {
		name: "A CA file is read",
		cfg:  rest.Config{Host: "https://10.0.0.1:6443/", TLSClientConfig: rest.TLSClientConfig{CAFile: ca}},
		want: endpoint{url: "https://10.0.0.1:6443", ca: []byte("FILE CA")},
	}, {
		name: "insecure-skip-tls-verify carries over, and a bare host gets https",
		cfg:  rest.Config{Host: "10.0.0.1:6443", TLSClientConfig: rest.TLSClientConfig{Insecure: true}},
		want: endpoint{url: "https://10.0.0.1:6443", insecure: true},
	}, {
		name:    "A missing CA file is an error",
		cfg:     rest.Config{Host: "https://x", TLSClientConfig: rest.TLSClientConfig{CAFile: ca + ".missing"}},
		wantErr: "read the member's certificate-authority: open " + ca + ".missing: no such file or directory",
	}, {
		name:    "A context without a server is an error",
		wantErr: "the member's kubeconfig context names no server",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := endpointOf(&tc.cfg)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.url != tc.want.url || string(got.ca) != string(tc.want.ca) || got.insecure != tc.want.insecure {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestRunExplainsMemberFailures goes through rest.Configs: the member is
// an httptest server (or nothing), mco is never reached first.
func TestRunExplainsMemberFailures(t *testing.T) {
	t.Parallel()
	deny := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,`+
			`"message":"namespaces \"kube-system\" is forbidden: User \"viewer\" cannot get resource \"namespaces\" in API group \"\" in the namespace \"kube-system\""}`)
	}))
	t.Cleanup(deny.Close)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + l.Addr().String()
	_ = l.Close()

	cases := []struct{ name, member, want string }{{
		name: "An unreachable member names its URL", member: refused,
		want: "cannot reach member at " + refused + ": dial tcp " + l.Addr().String() + ": connect: connection refused",
	}, {
		name: "A member that denies a request says which permission", member: deny.URL,
		want: "member at " + deny.URL + ` denied a permission: namespaces "kube-system" is forbidden: User "viewer" cannot get resource "namespaces" ` +
			`in API group "" in the namespace "kube-system" (joining needs cluster-admin rights in the member)`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mco := &rest.Config{Host: refused}
			_, err := Run(context.Background(), mco, &rest.Config{Host: tc.member}, Options{Name: "m"}, &bytes.Buffer{})
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error:\n%v\nwant:\n%s", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines")
			}
		})
	}
}
