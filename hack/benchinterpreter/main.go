// Command benchinterpreter measures what a ResourceInterpreterCustomization
// costs on the propagation path: mco and three bare members, the example
// WebApp CRD carried to them, then -count WebApps of 3 replicas propagated
// over the three, first without a customization (each member gets the
// whole object) and then with the example one (each gets its share of 1,
// through GetReplicas and ReviseReplica, and its status through
// ReflectStatus, AggregateStatus and InterpretHealth; the first run's
// WebApps are divided anew in between). For each run it
// prints the wall time until every member has every WebApp as expected and
// the CPU mco's components used. `make bench-interpreter` runs it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

const examples = "artifacts/examples/interpreter/"

var (
	webapps        = schema.GroupVersionResource{Group: "demo.example.com", Version: "v1", Resource: "webapps"}
	crds           = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	customizations = schema.GroupVersionResource{Group: "config.karmada.io", Version: "v1alpha1", Resource: "resourceinterpretercustomizations"}
	cpps           = schema.GroupVersionResource{Group: "policy.karmada.io", Version: "v1alpha1", Resource: "clusterpropagationpolicies"}
	pps            = schema.GroupVersionResource{Group: "policy.karmada.io", Version: "v1alpha1", Resource: "propagationpolicies"}
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchinterpreter:", err)
		stop()
		os.Exit(1)
	}
}

type options struct {
	dir, binDir string
	count       int
	timeout     time.Duration
	keep        bool
}

func run(ctx context.Context, args []string) error {
	o := options{}
	fs := flag.NewFlagSet("benchinterpreter", flag.ContinueOnError)
	fs.StringVar(&o.dir, "dir", "_output/bench-interpreter", "state, data and logs (emptied at start)")
	fs.StringVar(&o.binDir, "bin-dir", "_output/bin", "mco and member binaries")
	fs.IntVar(&o.count, "count", 100, "WebApps per run")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "give up after this long in all")
	fs.BoolVar(&o.keep, "keep", false, "leave everything running at the end, to look around (stop it with local-down's -dir)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.count < 1 || fs.NArg() != 0 {
		return errors.New("need -count >= 1 and no arguments")
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	dir, err := filepath.Abs(o.dir)
	if err != nil {
		return err
	}
	binDir, err := filepath.Abs(o.binDir)
	if err != nil {
		return err
	}
	if env, err := localcluster.Load(dir); err == nil {
		env.Down()
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	logf("starting mco and three bare members in %s", dir)
	env, err := localcluster.Up(ctx, localcluster.Options{
		Dir: dir, BinDir: binDir, Members: localcluster.DefaultMembers(), ControlPlane: true, BareMembers: true,
	})
	if err != nil {
		return fmt.Errorf("bring up: %w (logs in %s)", err, filepath.Join(dir, "logs"))
	}
	defer func() {
		if o.keep {
			logf("left running: KUBECONFIG=%s; stop with: go run ./hack/localup -dir %s down", env.MCO.Kubeconfig, dir)
			return
		}
		env.Down()
	}()

	b, err := newBench(env)
	if err != nil {
		return err
	}
	if err := b.setUp(ctx); err != nil {
		return err
	}
	plain, err := b.measure(ctx, "bench-plain", o.count, 3)
	if err != nil {
		return fmt.Errorf("without a customization: %w", err)
	}
	// The customization applies to every WebApp: those of the first run
	// are divided anew before the second run starts.
	start := time.Now()
	if err := b.create(ctx, customizations, "", examples+"webapp-customization.yaml"); err != nil {
		return err
	}
	if err := b.waitMembers(ctx, "bench-plain", o.count, 1); err != nil {
		return fmt.Errorf("the first run's WebApps under the customization: %w", err)
	}
	redivided := time.Since(start)
	time.Sleep(3 * time.Second)
	custom, err := b.measure(ctx, "bench-custom", o.count, 1)
	if err != nil {
		return fmt.Errorf("with the customization: %w", err)
	}
	fmt.Printf("%d WebApps (3 replicas) propagated to 3 bare members:\n", o.count)
	plain.print("without a customization (each member gets the whole object)")
	custom.print("with webapp-customization.yaml (each member gets 1 replica)")
	fmt.Printf("  the first run's %d WebApps divided anew once the customization was created: after %s\n", o.count, redivided.Round(time.Millisecond))
	return nil
}

func logf(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, a...)...)
}

type bench struct {
	env     *localcluster.Env
	kube    kubernetes.Interface
	mco     mcoclient.Interface
	dyn     dynamic.Interface
	members map[string]dynamic.Interface
}

func newBench(env *localcluster.Env) (*bench, error) {
	cfg, err := localcluster.RESTConfig(env.MCO.Kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = 200, 400
	b := &bench{env: env, members: map[string]dynamic.Interface{}}
	b.kube = kubernetes.NewForConfigOrDie(cfg)
	b.mco = mcoclient.NewForConfigOrDie(cfg)
	b.dyn = dynamic.NewForConfigOrDie(cfg)
	for _, m := range env.Members {
		mcfg, err := localcluster.RESTConfig(m.Kubeconfig)
		if err != nil {
			return nil, err
		}
		mcfg.QPS, mcfg.Burst = 100, 200
		b.members[m.Spec.Name] = dynamic.NewForConfigOrDie(mcfg)
	}
	return b, nil
}

// setUp waits for the members and carries the WebApp CRD to them.
func (b *bench) setUp(ctx context.Context) error {
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		for name := range b.members {
			c, err := b.mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{})
			if err != nil || !meta.IsStatusConditionTrue(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady) {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("clusters not Ready: %w", err)
	}
	if err := b.create(ctx, crds, "", examples+"webapp-crd.yaml"); err != nil {
		return err
	}
	cpp := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterPropagationPolicy",
		"metadata": map[string]any{"name": "webapp-crd"},
		"spec": map[string]any{
			"resourceSelectors": []any{map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "name": "webapps.demo.example.com"}},
			"placement":         map[string]any{"clusterAffinity": map[string]any{"clusterNames": b.memberNames()}},
		},
	}}
	if _, err := b.dyn.Resource(cpps).Create(ctx, cpp, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create the CRD's policy: %w", err)
	}
	logf("waiting for the WebApp CRD in every member and for mco to see it there")
	return wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		for name, m := range b.members {
			if _, err := m.Resource(webapps).Namespace("default").List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
				return false, nil
			}
			c, err := b.mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{})
			if err != nil || !strings.Contains(fmt.Sprint(c.Status.APIEnablements), "webapps") {
				return false, nil
			}
		}
		return true, nil
	})
}

func (b *bench) memberNames() []any {
	var out []any
	for name := range b.members {
		out = append(out, name)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].(string) < out[j].(string) })
	return out
}

// create creates the object of a YAML file on mco.
func (b *bench) create(ctx context.Context, gvr schema.GroupVersionResource, ns, file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(data, &u.Object); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if _, err := b.dyn.Resource(gvr).Namespace(ns).Create(ctx, u, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create %s: %w", file, err)
	}
	return nil
}

// figures are one run's results.
type figures struct {
	count int
	wall  time.Duration
	cpu   map[string]time.Duration
	// rest is mco's CPU per second over restFor after the run.
	rest float64
	// writes lists mco-apiserver's writes per workload; totalWrites sums them.
	writes      string
	totalWrites float64
}

// restFor is how long CPU at rest is measured after a run.
const restFor = 10 * time.Second

func (f figures) print(what string) {
	fmt.Printf("  %s:\n    all in every member after %s (%.1f ms per WebApp)\n", what, f.wall.Round(time.Millisecond), float64(f.wall.Milliseconds())/float64(f.count))
	var total time.Duration
	for _, name := range []string{"mco-apiserver", "mco-controller-manager", "mco-scheduler"} {
		total += f.cpu[name]
		fmt.Printf("    %-24s CPU %6.2f s, %6.1f ms per WebApp\n", name, f.cpu[name].Seconds(), float64(f.cpu[name].Microseconds())/1000/float64(f.count))
	}
	fmt.Printf("    %-24s CPU %6.2f s, %6.1f ms per WebApp\n", "mco in all", total.Seconds(), float64(total.Microseconds())/1000/float64(f.count))
	fmt.Printf("    mco-apiserver writes per WebApp: %.2f (%s)\n", f.totalWrites, f.writes)
	fmt.Printf("    mco at rest afterwards: %.3f cores\n", f.rest)
}

// mcoCPU sums the CPU of mco's components in a sample.
func mcoCPU(s map[string]time.Duration) time.Duration {
	return s["mco-apiserver"] + s["mco-controller-manager"] + s["mco-scheduler"]
}

// measure creates count WebApps in ns under a Divided policy and waits
// until each member has all of them with spec.replicas want.
func (b *bench) measure(ctx context.Context, ns string, count int, want int64) (figures, error) {
	if _, err := b.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		return figures{}, err
	}
	var weights []any
	for _, name := range b.memberNames() {
		weights = append(weights, map[string]any{"targetCluster": map[string]any{"clusterNames": []any{name}}, "weight": int64(1)})
	}
	pp := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
		"metadata": map[string]any{"name": "webapps", "namespace": ns},
		"spec": map[string]any{
			"resourceSelectors": []any{map[string]any{"apiVersion": "demo.example.com/v1", "kind": "WebApp"}},
			"placement": map[string]any{
				"clusterAffinity": map[string]any{"clusterNames": b.memberNames()},
				"replicaScheduling": map[string]any{"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Weighted",
					"weightPreference": map[string]any{"staticWeightList": weights}},
			},
		},
	}}
	if _, err := b.dyn.Resource(pps).Namespace(ns).Create(ctx, pp, metav1.CreateOptions{}); err != nil {
		return figures{}, err
	}
	time.Sleep(3 * time.Second)
	before := b.env.CPU()
	writesBefore, err := scrape(ctx, b.kube)
	if err != nil {
		return figures{}, err
	}
	start := time.Now()
	logf("%s: creating %d WebApps", ns, count)
	for i := 0; i < count; i++ {
		w := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "demo.example.com/v1", "kind": "WebApp",
			"metadata": map[string]any{"name": fmt.Sprintf("web-%04d", i), "namespace": ns},
			"spec": map[string]any{"replicas": int64(3), "image": "nginx:1.27",
				"resources": map[string]any{"cpu": "100m", "memory": "64Mi"}},
		}}
		if _, err := b.dyn.Resource(webapps).Namespace(ns).Create(ctx, w, metav1.CreateOptions{}); err != nil {
			return figures{}, err
		}
	}
	if err := b.waitMembers(ctx, ns, count, want); err != nil {
		return figures{}, err
	}
	wall := time.Since(start)
	// The status path settles after the members have their copies.
	time.Sleep(3 * time.Second)
	after := b.env.CPU()
	writesAfter, err := scrape(ctx, b.kube)
	if err != nil {
		return figures{}, err
	}
	f := figures{count: count, wall: wall, cpu: map[string]time.Duration{}}
	f.writes, f.totalWrites = perWorkload(writesBefore, writesAfter, count)
	for name, d := range after {
		f.cpu[name] = d - before[name]
	}
	time.Sleep(restFor)
	f.rest = (mcoCPU(b.env.CPU()) - mcoCPU(after)).Seconds() / restFor.Seconds()
	logf("%s: done in %s", ns, wall.Round(time.Millisecond))
	return f, nil
}

// waitMembers waits until every member has count WebApps in ns with
// spec.replicas want.
func (b *bench) waitMembers(ctx context.Context, ns string, count int, want int64) error {
	var missing int
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 5*time.Minute, true, func(ctx context.Context) (bool, error) {
		missing = 0
		for _, m := range b.members {
			list, err := m.Resource(webapps).Namespace(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				missing += count
				continue
			}
			ok := 0
			for _, it := range list.Items {
				if r, _, _ := unstructured.NestedInt64(it.Object, "spec", "replicas"); r == want {
					ok++
				}
			}
			missing += count - ok
		}
		return missing == 0, nil
	})
	if err != nil {
		return fmt.Errorf("%d member copies in %s missing or not at %d replicas: %w", missing, ns, want, err)
	}
	return nil
}
