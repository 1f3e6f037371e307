package builtin

import (
	"context"
	"fmt"
	"net"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/registry/core/service/ipallocator"
	"k8s.io/kubernetes/pkg/registry/core/service/portallocator"
	servicestore "k8s.io/kubernetes/pkg/registry/core/service/storage"

	"github.com/mco-org/mco/pkg/apiserver/kubeapis"
)

// serviceAllocation runs, on the copy of a Service that validation sees,
// what kube-apiserver's Service storage does before it validates: keep
// clusterIP and clusterIPs in step, settle the IP families, allocate
// cluster IPs, node ports and the health-check node port. mco allocates
// nothing for real (each member does), so this is always a dry run, on
// allocators that accept every address of either family and every port:
// mco knows no member's ranges, and serves members of any stack.
type serviceAllocation struct {
	once sync.Once
	rest *servicestore.REST
	err  error
}

var services serviceAllocation

// allocate fills obj (an internal Service) as kube-apiserver's allocation
// would before a create (old nil) or an update. The error is the request's
// answer, as kube-apiserver gives it.
func (a *serviceAllocation) allocate(ctx context.Context, obj, old runtime.Object) error {
	rest, err := a.storage()
	if err != nil {
		return err
	}
	var finish func(context.Context, bool)
	if old == nil {
		finish, err = rest.BeginCreate(ctx, obj, &metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	} else {
		finish, err = rest.BeginUpdate(ctx, obj, old, &metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
	}
	if err != nil {
		return err
	}
	finish(ctx, false)
	return nil
}

// onRead adjusts a Service read back as kube-apiserver's storage does.
func (a *serviceAllocation) onRead(obj runtime.Object) {
	if rest, err := a.storage(); err == nil {
		rest.Decorator(obj)
	}
}

// storage returns Kubernetes' Service storage, built on first use.
func (a *serviceAllocation) storage() (*servicestore.REST, error) {
	a.once.Do(func() { a.rest, a.err = newServiceREST() })
	if a.err != nil {
		return nil, fmt.Errorf("service allocation: %w", a.err)
	}
	return a.rest, nil
}

// newServiceREST builds Kubernetes' Service storage for its create,
// update and read hooks only: it has no backing store.
func newServiceREST() (*servicestore.REST, error) {
	opts := generic.RESTOptions{
		StorageConfig:  &storagebackend.ConfigForResource{},
		ResourcePrefix: "services",
		Decorator:      kubeapis.NoStorage,
	}
	ips := map[api.IPFamily]ipallocator.Interface{
		api.IPv4Protocol: anyAddress{family: api.IPv4Protocol, cidr: "0.0.0.0/0", next: "10.0.0.1"},
		api.IPv6Protocol: anyAddress{family: api.IPv6Protocol, cidr: "::/0", next: "fd00::1"},
	}
	rest, _, _, err := servicestore.NewREST(opts, api.IPv4Protocol, ips, anyPort{}, nil, nil, nil)
	return rest, err
}

// anyAddress accepts every address of its family; AllocateNext gives the
// same placeholder to all.
type anyAddress struct {
	family     api.IPFamily
	cidr, next string
}

var _ ipallocator.Interface = anyAddress{}

func (a anyAddress) Allocate(ip net.IP) error {
	if (ip.To4() != nil) != (a.family == api.IPv4Protocol) {
		return &ipallocator.ErrNotInRange{IP: ip, ValidRange: a.cidr}
	}
	return nil
}
func (a anyAddress) AllocateNext() (net.IP, error) { return net.ParseIP(a.next), nil }
func (a anyAddress) Release(net.IP) error          { return nil }
func (a anyAddress) ForEach(func(net.IP))          {}
func (a anyAddress) CIDR() net.IPNet {
	_, n, _ := net.ParseCIDR(a.cidr)
	return *n
}
func (a anyAddress) IPFamily() api.IPFamily        { return a.family }
func (a anyAddress) Has(net.IP) bool               { return false }
func (a anyAddress) Destroy()                      {}
func (a anyAddress) EnableMetrics()                {}
func (a anyAddress) DryRun() ipallocator.Interface { return a }

// anyPort holds no port: a dry-run allocation takes every port asked for
// and makes up the others.
type anyPort struct{}

var _ portallocator.Interface = anyPort{}

func (anyPort) Allocate(int) error         { return nil }
func (anyPort) AllocateNext() (int, error) { return 0, portallocator.ErrFull }
func (anyPort) Release(int) error          { return nil }
func (anyPort) ForEach(func(int))          {}
func (anyPort) Has(int) bool               { return false }
func (anyPort) Destroy()                   {}
func (anyPort) EnableMetrics()             {}
