package binding

import (
	"fmt"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	appslisters "k8s.io/client-go/listers/apps/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	rolloutlisters "github.com/mco-org/mco/pkg/generated/listers/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/rollout"
	"github.com/mco-org/mco/pkg/rolloutops"
)

// staged is a template under a staged rollout: each cluster gets the
// revision its Rollout gives it.
type staged struct {
	given    map[string]int64
	contents map[int64]map[string]any
	// live is the revision whose content the template has now (0 when no
	// ControllerRevision holds it yet): clusters given it get the template
	// as it is, with what is not content (its change cause) up to date.
	live int64
}

// stagedOf returns the rollout state of a binding's template, nil when its
// changes are not staged (no Rollout, or none decided yet).
func stagedOf(rollouts rolloutlisters.RolloutLister, revisions appslisters.ControllerRevisionLister, k binding.Key, tmpl *unstructured.Unstructured) (*staged, error) {
	ns := rollout.RecordNamespace(k.Namespace)
	r, err := rollouts.Rollouts(ns).Get(k.Name)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get rollout %s/%s: %w", ns, k.Name, err)
	}
	if r.Status.CurrentRevision == 0 {
		return nil, nil
	}
	list, err := rolloutops.Revisions(revisions, ns, k.Name)
	if err != nil {
		return nil, err
	}
	s := &staged{given: map[string]int64{}, contents: map[int64]map[string]any{}}
	hash, err := rollout.Hash(rollout.Content(tmpl))
	if err != nil {
		return nil, err
	}
	for _, cr := range list {
		if cr.Labels[rolloutv1alpha1.RevisionHashLabel] == hash {
			s.live = cr.Revision
		}
	}
	for _, c := range r.Status.Clusters {
		s.given[c.Name] = c.Revision
		if _, ok := s.contents[c.Revision]; ok {
			continue
		}
		cr := rollout.Find(list, c.Revision)
		if cr == nil {
			return nil, fmt.Errorf("rollout %s/%s gives cluster %s revision %d, which has no ControllerRevision", ns, k.Name, c.Name, c.Revision)
		}
		if s.contents[c.Revision], err = rollout.Decode(cr); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// template is the template as a cluster gets it, with the revision it is
// given; false when the rollout has not placed the cluster yet.
func (s *staged) template(tmpl *unstructured.Unstructured, cluster string) (*unstructured.Unstructured, string, bool) {
	rev, ok := s.given[cluster]
	if !ok {
		return nil, "", false
	}
	if rev == s.live {
		return tmpl.DeepCopy(), strconv.FormatInt(rev, 10), true
	}
	return rollout.WithContent(tmpl, s.contents[rev]), strconv.FormatInt(rev, 10), true
}

// markRevision records on a manifest the revision it was rendered from.
func markRevision(manifest *unstructured.Unstructured, rev string) {
	a := manifest.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[rolloutv1alpha1.RevisionAnnotation] = rev
	manifest.SetAnnotations(a)
}
