package addon

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/pkg/addon/chart"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

// SecretCredentials reads an Addon's repository credentials
// (spec.chart.secretRef) from sources.
func SecretCredentials(sources Sources) Credentials {
	return func(a *addonsv1alpha1.Addon) (*chart.Credentials, error) {
		r := a.Spec.Chart.SecretRef
		if r == nil {
			return nil, nil
		}
		sec, err := sources.Secret(r.Namespace, r.Name)
		if err != nil {
			return nil, fmt.Errorf("spec.chart.secretRef: %w", err)
		}
		return CredentialsFrom(sec), nil
	}
}

// sourcesTTL is how long a read ConfigMap or Secret serves the renders of
// every cluster before it is read again.
const sourcesTTL = 10 * time.Second

// CachedSources reads the ConfigMaps and Secrets add-ons name from
// mco-apiserver, each at most once per sourcesTTL: mco watches none of
// them (an informer on every ConfigMap and Secret of the control plane
// would hold them all), and the binding controller passes over add-ons
// that name some every minute. It is safe for concurrent use.
type CachedSources struct {
	kube kubernetes.Interface
	now  func() time.Time

	mu   sync.Mutex
	read map[string]sourceEntry
}

type sourceEntry struct {
	obj any
	err error
	at  time.Time
}

// NewCachedSources returns sources read with kube.
func NewCachedSources(kube kubernetes.Interface) *CachedSources {
	return &CachedSources{kube: kube, now: time.Now, read: map[string]sourceEntry{}}
}

// ConfigMap returns a ConfigMap on mco.
func (s *CachedSources) ConfigMap(namespace, name string) (*corev1.ConfigMap, error) {
	obj, err := s.get("configmap/"+namespace+"/"+name, func(ctx context.Context) (any, error) {
		return s.kube.CoreV1().ConfigMaps(namespace).Get(ctx, name, metav1.GetOptions{})
	})
	if err != nil {
		return nil, err
	}
	return obj.(*corev1.ConfigMap), nil
}

// Secret returns a Secret on mco.
func (s *CachedSources) Secret(namespace, name string) (*corev1.Secret, error) {
	obj, err := s.get("secret/"+namespace+"/"+name, func(ctx context.Context) (any, error) {
		return s.kube.CoreV1().Secrets(namespace).Get(ctx, name, metav1.GetOptions{})
	})
	if err != nil {
		return nil, err
	}
	return obj.(*corev1.Secret), nil
}

// get returns what key read, reading it again once it is older than
// sourcesTTL; a failed read is remembered as long (a missing optional
// ConfigMap is read once per period too).
func (s *CachedSources) get(key string, read func(context.Context) (any, error)) (any, error) {
	now := s.now()
	s.mu.Lock()
	e, ok := s.read[key]
	s.mu.Unlock()
	if ok && now.Sub(e.at) < sourcesTTL {
		return e.obj, e.err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	obj, err := read(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, old := range s.read { // the map holds what add-ons name now, and little else
		if now.Sub(old.at) >= sourcesTTL {
			delete(s.read, k)
		}
	}
	s.read[key] = sourceEntry{obj: obj, err: err, at: now}
	return obj, err
}
