package register

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/mco-org/mco/pkg/agent"
)

func TestInstallAgent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name           string
		image          string
		wantDeployment bool
	}{
		{"with an image the agent's Deployment is created", "ghcr.io/mco-org/mco-agent:v1", true},
		{"without one only its credential and identity are", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			member := kubefake.NewClientset()
			o := Options{Cluster: "edge-1", Namespace: DefaultNamespace, Image: c.image, AgentArgs: []string{"--cluster-region=eu"}}
			for range 2 { // a second run updates, and does not fail
				if err := installAgent(ctx, member, o, []byte("kubeconfig")); err != nil {
					t.Fatal(err)
				}
			}
			s, err := member.CoreV1().Secrets(DefaultNamespace).Get(ctx, AgentName, metav1.GetOptions{})
			if err != nil || string(s.Data[agent.KubeconfigKey]) != "kubeconfig" {
				t.Fatalf("credential secret: %v %v", s, err)
			}
			if _, err := member.RbacV1().ClusterRoleBindings().Get(ctx, AgentName, metav1.GetOptions{}); err != nil {
				t.Errorf("cluster role binding: %v", err)
			}
			d, err := member.AppsV1().Deployments(DefaultNamespace).Get(ctx, AgentName, metav1.GetOptions{})
			if (err == nil) != c.wantDeployment {
				t.Fatalf("deployment: %v, want one: %t", err, c.wantDeployment)
			}
			if d != nil && c.wantDeployment {
				args := strings.Join(d.Spec.Template.Spec.Containers[0].Args, " ")
				for _, want := range []string{"--cluster-name=edge-1", "--mco-kubeconfig-secret=mco-system/mco-agent", "--cluster-region=eu"} {
					if !strings.Contains(args, want) {
						t.Errorf("agent args %q lack %q", args, want)
					}
				}
			}
		})
	}
}
