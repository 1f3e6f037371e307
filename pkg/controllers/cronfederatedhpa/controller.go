/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Package cronfederatedhpa runs CronFederatedHPA rules: at each slot of a
// rule's schedule it sets a template's replicas (through its scale
// subresource) or a FederatedHPA's bounds, and records the run in the
// CronFederatedHPA's status.
package cronfederatedhpa

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	autoscalinglisters "github.com/mco-org/mco/pkg/generated/listers/autoscaling/v1alpha1"
)

// Event reasons, as Karmada's.
const (
	reasonScaleFailed        = "ScaleFailed"
	reasonUpdateStatusFailed = "UpdateStatusFailed"
)

// Controller runs the rules of every CronFederatedHPA.
type Controller struct {
	scaler
	crons    autoscalinglisters.CronFederatedHPALister
	loop     *controller.Controller[cache.ObjectName]
	recorder record.EventRecorder
	clock    clock.Clock
	// loc reads the schedules of rules without a time zone.
	loc *time.Location
}

// New builds the CronFederatedHPA controller.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	crons := c.MCOInformers.Autoscaling().V1alpha1().CronFederatedHPAs()
	fhpas := c.MCOInformers.Autoscaling().V1alpha1().FederatedHPAs()
	ctl := &Controller{
		scaler: scaler{mco: c.MCO, dynamic: c.Dynamic, templates: c.Templates, fhpas: fhpas.Lister()},
		crons:  crons.Lister(), recorder: c.NewRecorder(), clock: clock.RealClock{}, loc: time.Local,
	}
	ctl.loop = controller.New("cronFederatedHPA", ctl.sync)
	ctl.loop.WaitFor(crons.Informer().HasSynced, fhpas.Informer().HasSynced, c.Templates.HasSynced)
	enqueue := func(obj any) {
		if k, err := cache.DeletionHandlingObjectToName(obj); err == nil {
			ctl.loop.Enqueue(k)
		}
	}
	if _, err := crons.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: enqueue, UpdateFunc: func(_, n any) { enqueue(n) },
	}); err != nil {
		return nil, fmt.Errorf("cronFederatedHPA controller: %w", err)
	}
	return func(ctx context.Context) error { return ctl.loop.Run(ctx, c.Workers) }, nil
}

// sync runs the rules of one CronFederatedHPA that are due, writes its
// status when it changed, and comes back at the next slot.
func (c *Controller) sync(ctx context.Context, key cache.ObjectName) error {
	cached, err := c.crons.CronFederatedHPAs(key.Namespace).Get(key.Name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	logger := klog.FromContext(ctx).WithValues("cronFederatedHPA", key.String())
	histories := map[string]*autoscalingv1alpha1.ExecutionHistory{}
	for i := range cached.Status.ExecutionHistories {
		h := &cached.Status.ExecutionHistories[i]
		histories[h.RuleName] = h
	}
	now := c.clock.Now()
	var out []autoscalingv1alpha1.ExecutionHistory
	var wake *time.Time
	for _, rule := range cached.Spec.Rules {
		step, err := Plan(rule, histories[rule.Name], now, c.loc)
		if err != nil {
			logger.Error(err, "Rule cannot be planned")
			continue
		}
		var outcome Outcome
		if step.Due != nil {
			outcome = c.run(ctx, cached, rule)
			if outcome.Err != nil {
				c.recorder.Event(cached, corev1.EventTypeWarning, reasonScaleFailed, outcome.Err.Error())
			}
			logger.V(2).Info("Rule ran", "rule", rule.Name, "slot", step.Due, "error", outcome.Err)
		}
		var history autoscalingv1alpha1.ExecutionHistory
		if h := histories[rule.Name]; h != nil {
			history = *h
		}
		out = append(out, Record(rule, history, step, now, outcome))
		if step.Next != nil && (wake == nil || step.Next.Before(*wake)) {
			wake = step.Next
		}
	}
	if wake != nil {
		c.loop.EnqueueAfter(key, wake.Sub(c.clock.Now()))
	}
	if equality.Semantic.DeepEqual(out, cached.Status.ExecutionHistories) {
		return nil
	}
	updated := cached.DeepCopy()
	updated.Status.ExecutionHistories = out
	if _, err := c.mco.AutoscalingV1alpha1().CronFederatedHPAs(key.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		c.recorder.Event(cached, corev1.EventTypeWarning, reasonUpdateStatusFailed, err.Error())
		return fmt.Errorf("update status of CronFederatedHPA %s: %w", key, err)
	}
	return nil
}
