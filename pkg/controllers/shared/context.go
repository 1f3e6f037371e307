// Package shared holds what mco-controller-manager hands every controller:
// clients of mco-apiserver, the shared informer factories, the template
// caches, member clients and metrics.
package shared

import (
	"context"
	"regexp"
	"time"

	apiextensionsinformers "k8s.io/apiextensions-apiserver/pkg/client/informers/externalversions"
	"k8s.io/client-go/dynamic"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"

	"github.com/mco-org/mco/pkg/addon"
	"github.com/mco-org/mco/pkg/binding"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	mcoinformers "github.com/mco-org/mco/pkg/generated/informers/externalversions"
	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/member"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/template"
)

// Context is built once per leadership term and shared by all controllers.
type Context struct {
	// Component is the process's name (mco-controller-manager,
	// mco-agent), the holder of the Leases it renews.
	Component string
	Config    *rest.Config
	MCO       mcoclient.Interface
	Kube      kubernetes.Interface
	Dynamic   dynamic.Interface

	MCOInformers mcoinformers.SharedInformerFactory
	// KubeInformers watches Secrets and Leases in karmada-cluster (member
	// credentials, cluster heartbeats); in mco-agent only its own Lease.
	KubeInformers kubeinformers.SharedInformerFactory
	// Namespaces watches namespaces cluster-wide; nil in mco-agent.
	Namespaces kubeinformers.SharedInformerFactory
	// Revisions watches the ControllerRevisions that hold staged
	// rollouts' revisions (those labelled with their Rollout).
	Revisions kubeinformers.SharedInformerFactory
	Templates *template.Resources
	// CRDInformers watches CustomResourceDefinitions, whose kinds are
	// templates (Templates follows them).
	CRDInformers apiextensionsinformers.SharedInformerFactory
	Bindings     *binding.Store
	// Interpreter answers what mco knows of each template kind: its
	// ResourceInterpreterCustomizations first, then mco's own rules.
	Interpreter *interpreter.Interpreter
	// Customizations keeps Interpreter's customizations current and says
	// which kinds a change touches.
	Customizations *interpreter.Follower
	// Scripts records failing customization scripts on bindings.
	Scripts *ScriptReporter
	Members member.Source
	Metrics *metrics.ControllerManager
	// NewRecorder returns a recorder writing Events to mco-apiserver. Each
	// controller takes its own, as kube-controller-manager's do: one
	// recorder writes its Events one at a time and drops what its queue
	// cannot hold, so a shared one loses Events under load.
	NewRecorder func() record.EventRecorder

	// Workers is the number of workers per controller.
	Workers int
	// ClusterStatusUpdateFrequency is how often member health is probed.
	ClusterStatusUpdateFrequency time.Duration
	// ClusterHealth tunes when Ready changes are published.
	ClusterHealth ClusterHealth
	// GracefulEvictionTimeout is the grace period of eviction tasks that
	// set none.
	GracefulEvictionTimeout time.Duration
	// SkippedPropagatingNamespaces are namespaces (whole-name regexps) the
	// namespace controller does not propagate.
	SkippedPropagatingNamespaces []*regexp.Regexp
	// StatusCoalesceWindow is how long status changes of a workload on its
	// way (not yet settled) are gathered into one write; settled ones are
	// written at once.
	StatusCoalesceWindow time.Duration
	// HeldWorkStatuses carries what applies found to the work status
	// controller, which writes it coalesced.
	HeldWorkStatuses *HeldStatuses

	// Addons is what the controllers of add-ons share; nil in mco-agent,
	// which runs none.
	Addons *Addons
}

// Addons are the add-on settings and records of mco-controller-manager:
// the binding controller renders add-ons (fetching charts within these
// limits) and records what it made of each cluster in Outcomes, which the
// add-on controller turns into status.
type Addons struct {
	// AllowLinkLocal lets chart fetches reach link-local addresses;
	// MaxChart bounds a chart archive, in bytes.
	AllowLinkLocal bool
	MaxChart       int64
	Outcomes       *addon.Outcomes
	Metrics        *metrics.Addons
}

// ClusterHealth tunes when a Cluster's Ready condition changes.
type ClusterHealth struct {
	// FailureThreshold and SuccessThreshold: how long a probe result must
	// hold before a change of Ready away from or to True is published.
	FailureThreshold, SuccessThreshold time.Duration
	// MonitorPeriod is how often Cluster Leases are checked; a Cluster
	// whose Lease was not renewed within MonitorGracePeriod (within
	// StartupGracePeriod of its creation or of this process's start) goes
	// Unknown.
	MonitorPeriod, MonitorGracePeriod, StartupGracePeriod time.Duration
}

// Runner runs a controller until ctx ends.
type Runner func(ctx context.Context) error

// InitFunc builds a controller, registering its informer handlers; the
// informers are started after every controller is built.
type InitFunc func(ctx context.Context, c *Context) (Runner, error)
