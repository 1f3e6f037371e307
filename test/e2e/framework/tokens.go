package framework

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/join"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// scanLogsForTokens fails when any component's log under dir holds one of
// the member tokens mco keeps (join's and the impersonator's).
func scanLogsForTokens(dir string) error {
	cfg, err := localcluster.RESTConfig(Env.MCO.Kubeconfig)
	if err != nil {
		return fmt.Errorf("token scan: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	secrets, err := kubernetes.NewForConfigOrDie(cfg).CoreV1().Secrets(join.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("token scan: list member credentials: %w", err)
	}
	var tokens [][]byte
	for _, s := range secrets.Items {
		if t := s.Data[clusterv1alpha1.SecretTokenKey]; len(t) >= 16 {
			tokens = append(tokens, t)
		}
	}
	if len(tokens) == 0 {
		return fmt.Errorf("token scan: no member tokens found in %s on mco", join.Namespace)
	}
	var leaks []string
	err = filepath.WalkDir(filepath.Join(dir, "logs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".log") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, t := range tokens {
			if bytes.Contains(data, t) {
				leaks = append(leaks, path)
				break
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("token scan: %w", err)
	}
	if len(leaks) > 0 {
		return fmt.Errorf("a member token appears in %s", strings.Join(leaks, ", "))
	}
	return nil
}
