package main

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/mco-org/mco/hack/internal/benchkit"
	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

const (
	namespace = "mcs"
	service   = "backend"
	// perSlice is how many endpoints kube-controller-manager puts in a
	// slice by default.
	perSlice = 100
	// mcoServer names mco-apiserver among the scraped servers.
	mcoServer = "mco"
	// quiet is how long mco must see no writes before and after the
	// changes.
	quiet = 5 * time.Second
)

// bench holds the clients of one run.
type bench struct {
	o       *options
	env     *localcluster.Env
	logf    func(string, ...any)
	kube    kubernetes.Interface // mco-apiserver
	mco     mcoclient.Interface
	members map[string]kubernetes.Interface
	// slices are each provider's slices as last written.
	slices map[string][]*discoveryv1.EndpointSlice
}

func newBench(env *localcluster.Env, o *options, logf func(string, ...any)) (*bench, error) {
	cfg, err := benchkit.RESTConfig(env.MCO.Kubeconfig)
	if err != nil {
		return nil, err
	}
	b := &bench{o: o, env: env, logf: logf, members: map[string]kubernetes.Interface{}, slices: map[string][]*discoveryv1.EndpointSlice{}}
	if b.kube, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if b.mco, err = mcoclient.NewForConfig(cfg); err != nil {
		return nil, err
	}
	for _, m := range env.Members {
		mcfg, err := benchkit.RESTConfig(m.Kubeconfig)
		if err != nil {
			return nil, err
		}
		if b.members[m.Spec.Name], err = kubernetes.NewForConfig(mcfg); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// run sets the Service up, waits until every consumer holds every
// endpoint, then changes one endpoint at a time.
func (b *bench) run(ctx context.Context) (*result, error) {
	r := &result{o: b.o}
	if err := benchkit.WaitClustersReady(ctx, b.mco, b.o.providers+b.o.consumers, 3*time.Minute); err != nil {
		return nil, err
	}
	if err := b.setUp(ctx); err != nil {
		return nil, err
	}
	start := time.Now()
	for p, list := range b.split() {
		for _, s := range list {
			if _, err := b.members[p].DiscoveryV1().EndpointSlices(namespace).Create(ctx, s, metav1.CreateOptions{}); err != nil {
				return nil, fmt.Errorf("create EndpointSlice %s in %s: %w", s.Name, p, err)
			}
		}
		b.slices[p] = list
	}
	if err := b.waitConsumers(ctx, 3*time.Minute, func(got []discoveryv1.EndpointSlice) bool { return countEndpoints(got) == b.o.endpoints }); err != nil {
		return nil, err
	}
	r.setUp = time.Since(start)
	b.logf("every consumer holds the %d endpoints %s after the providers' slices were written; waiting until mco sees no writes for %s",
		b.o.endpoints, r.setUp.Round(time.Millisecond), quiet)
	if err := benchkit.WaitQuiet(ctx, b.kube, mcoServer, quiet, 2*time.Minute); err != nil {
		return nil, err
	}
	servers := map[string]kubernetes.Interface{mcoServer: b.kube}
	for _, c := range b.o.consumerNames() {
		servers[c] = b.members[c]
	}
	before, err := benchkit.ScrapeServers(ctx, servers)
	if err != nil {
		return nil, err
	}
	b.logf("changing %d endpoints one at a time", b.o.changes)
	for i := 0; i < b.o.changes; i++ {
		d, err := b.change(ctx, i)
		if err != nil {
			return nil, err
		}
		r.latencies = append(r.latencies, d)
	}
	if err := benchkit.WaitQuiet(ctx, b.kube, mcoServer, quiet, 2*time.Minute); err != nil {
		return nil, err
	}
	after, err := benchkit.ScrapeServers(ctx, servers)
	if err != nil {
		return nil, err
	}
	r.writes = benchkit.Diff(before, after, mcoServer)
	return r, ctx.Err()
}

// setUp creates the namespace, the Service and the MultiClusterService on
// mco and waits for the namespace in every provider.
func (b *bench) setUp(ctx context.Context) error {
	if _, err := b.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create namespace %s on mco: %w", namespace, err)
	}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: service, Namespace: namespace},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": service}, Ports: []corev1.ServicePort{{Name: "http", Port: 80}}}}
	if _, err := b.kube.CoreV1().Services(namespace).Create(ctx, svc, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create Service: %w", err)
	}
	m := &networkingv1alpha1.MultiClusterService{ObjectMeta: metav1.ObjectMeta{Name: service, Namespace: namespace},
		Spec: networkingv1alpha1.MultiClusterServiceSpec{Types: []networkingv1alpha1.ExposureType{networkingv1alpha1.ExposureTypeCrossCluster}}}
	for _, p := range b.o.providerNames() {
		m.Spec.ProviderClusters = append(m.Spec.ProviderClusters, networkingv1alpha1.ClusterSelector{Name: p})
	}
	for _, c := range b.o.consumerNames() {
		m.Spec.ConsumerClusters = append(m.Spec.ConsumerClusters, networkingv1alpha1.ClusterSelector{Name: c})
	}
	if _, err := b.mco.NetworkingV1alpha1().MultiClusterServices(namespace).Create(ctx, m, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create MultiClusterService: %w", err)
	}
	for _, p := range b.o.providerNames() {
		err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			_, err := b.members[p].CoreV1().Namespaces().Get(ctx, namespace, metav1.GetOptions{})
			return err == nil, nil
		})
		if err != nil {
			return fmt.Errorf("namespace %s in %s: %w", namespace, p, err)
		}
	}
	return nil
}

// split spreads the endpoints over the providers' slices, perSlice each.
func (b *bench) split() map[string][]*discoveryv1.EndpointSlice {
	out := map[string][]*discoveryv1.EndpointSlice{}
	providers := b.o.providerNames()
	for i, p := range providers {
		n := b.o.endpoints / len(providers)
		if i < b.o.endpoints%len(providers) {
			n++
		}
		for j := 0; j*perSlice < n; j++ {
			s := &discoveryv1.EndpointSlice{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", service, j), Namespace: namespace, Labels: map[string]string{
					discoveryv1.LabelServiceName: service, discoveryv1.LabelManagedBy: "endpointslice-controller.k8s.io"}},
				AddressType: discoveryv1.AddressTypeIPv4,
				Ports:       []discoveryv1.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8080), Protocol: ptr.To(corev1.ProtocolTCP)}},
			}
			for k := j * perSlice; k < min(n, (j+1)*perSlice); k++ {
				s.Endpoints = append(s.Endpoints, discoveryv1.Endpoint{Addresses: []string{fmt.Sprintf("10.%d.%d.%d", i+1, k/250, k%250+1)},
					Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)}})
			}
			out[p] = append(out[p], s)
		}
	}
	return out
}

// change flips the readiness of one endpoint (providers in turn) and
// returns how long until every consumer holds the change.
func (b *bench) change(ctx context.Context, i int) (time.Duration, error) {
	p := b.o.providerNames()[i%b.o.providers]
	s := b.slices[p][0]
	e := &s.Endpoints[(i/b.o.providers)%len(s.Endpoints)]
	ready := !*e.Conditions.Ready
	e.Conditions.Ready = ptr.To(ready)
	start := time.Now()
	updated, err := b.members[p].DiscoveryV1().EndpointSlices(namespace).Update(ctx, s, metav1.UpdateOptions{})
	if err != nil {
		return 0, fmt.Errorf("update EndpointSlice %s in %s: %w", s.Name, p, err)
	}
	b.slices[p][0] = updated
	address, dispatched := e.Addresses[0], p+"-"+s.Name
	err = b.waitConsumers(ctx, time.Minute, func(got []discoveryv1.EndpointSlice) bool {
		for _, g := range got {
			if g.Name != dispatched {
				continue
			}
			for _, ge := range g.Endpoints {
				if ge.Addresses[0] == address {
					return ge.Conditions.Ready != nil && *ge.Conditions.Ready == ready
				}
			}
		}
		return false
	})
	return time.Since(start), err
}

// waitConsumers polls every consumer's dispatched slices until ok holds
// for each.
func (b *bench) waitConsumers(ctx context.Context, timeout time.Duration, ok func([]discoveryv1.EndpointSlice) bool) error {
	for _, c := range b.o.consumerNames() {
		var last int
		err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
			list, err := b.members[c].DiscoveryV1().EndpointSlices(namespace).List(ctx, metav1.ListOptions{
				LabelSelector: discoveryv1.LabelManagedBy + "=" + mcs.ManagedByDispatch})
			if apierrors.IsNotFound(err) || err != nil {
				return false, nil
			}
			last = countEndpoints(list.Items)
			return ok(list.Items), nil
		})
		if err != nil {
			return fmt.Errorf("consumer %s (holding %d endpoints): %w", c, last, err)
		}
	}
	return nil
}

func countEndpoints(slices []discoveryv1.EndpointSlice) int {
	n := 0
	for _, s := range slices {
		n += len(s.Endpoints)
	}
	return n
}
