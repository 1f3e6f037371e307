package builtin

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mco-org/mco/pkg/registry/resource"
)

func workloadResources() []*resource.Spec {
	apps := appsv1.SchemeGroupVersion

	deploy := newSpec(apps, "deployments", "deployment", "Deployment", true,
		func() runtime.Object { return &appsv1.Deployment{} }, func() runtime.Object { return &appsv1.DeploymentList{} })
	deploy.ShortNames = []string{"deploy"}
	deploy.Categories = []string{"all"}
	deploy.HasStatus = true
	deploy.Columns = deploymentColumns()

	sts := newSpec(apps, "statefulsets", "statefulset", "StatefulSet", true,
		func() runtime.Object { return &appsv1.StatefulSet{} }, func() runtime.Object { return &appsv1.StatefulSetList{} })
	sts.ShortNames = []string{"sts"}
	sts.Categories = []string{"all"}
	sts.HasStatus = true
	sts.Columns = []resource.Column{{Name: "Ready", Type: "string", Description: "Ready replicas out of desired.",
		Cell: func(o runtime.Object) any {
			s := o.(*appsv1.StatefulSet)
			return fmt.Sprintf("%d/%d", s.Status.ReadyReplicas, replicasOf(s.Spec.Replicas))
		}}}

	ds := newSpec(apps, "daemonsets", "daemonset", "DaemonSet", true,
		func() runtime.Object { return &appsv1.DaemonSet{} }, func() runtime.Object { return &appsv1.DaemonSetList{} })
	ds.ShortNames = []string{"ds"}
	ds.Categories = []string{"all"}
	ds.HasStatus = true
	ds.Columns = daemonSetColumns()

	rs := newSpec(apps, "replicasets", "replicaset", "ReplicaSet", true,
		func() runtime.Object { return &appsv1.ReplicaSet{} }, func() runtime.Object { return &appsv1.ReplicaSetList{} })
	rs.ShortNames = []string{"rs"}
	rs.Categories = []string{"all"}
	rs.HasStatus = true
	rs.Columns = replicaSetColumns()

	job := newSpec(batchv1.SchemeGroupVersion, "jobs", "job", "Job", true,
		func() runtime.Object { return &batchv1.Job{} }, func() runtime.Object { return &batchv1.JobList{} })
	job.Categories = []string{"all"}
	job.HasStatus = true
	job.Columns = []resource.Column{{Name: "Completions", Type: "string", Description: "Succeeded pods out of desired completions.",
		Cell: func(o runtime.Object) any {
			j := o.(*batchv1.Job)
			return fmt.Sprintf("%d/%d", j.Status.Succeeded, replicasOf(j.Spec.Completions))
		}}}

	revision := newSpec(apps, "controllerrevisions", "controllerrevision", "ControllerRevision", true,
		func() runtime.Object { return &appsv1.ControllerRevision{} }, func() runtime.Object { return &appsv1.ControllerRevisionList{} })
	revision.Table = kubeTable{}

	cron := newSpec(batchv1.SchemeGroupVersion, "cronjobs", "cronjob", "CronJob", true,
		func() runtime.Object { return &batchv1.CronJob{} }, func() runtime.Object { return &batchv1.CronJobList{} })
	cron.ShortNames = []string{"cj"}
	cron.Categories = []string{"all"}
	cron.HasStatus = true
	cron.Table = kubeTable{}

	return []*resource.Spec{deploy, sts, ds, rs, revision, job, cron}
}

func coordinationResources() []*resource.Spec {
	lease := newSpec(coordinationv1.SchemeGroupVersion, "leases", "lease", "Lease", true,
		func() runtime.Object { return &coordinationv1.Lease{} }, func() runtime.Object { return &coordinationv1.LeaseList{} })
	lease.Columns = []resource.Column{{Name: "Holder", Type: "string", Description: "Current holder of the lease.",
		Cell: func(o runtime.Object) any {
			if h := o.(*coordinationv1.Lease).Spec.HolderIdentity; h != nil {
				return *h
			}
			return ""
		}}}
	return []*resource.Spec{lease}
}

func replicasOf(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

func deploymentColumns() []resource.Column {
	d := func(o runtime.Object) *appsv1.Deployment { return o.(*appsv1.Deployment) }
	return []resource.Column{
		{Name: "Ready", Type: "string", Description: "Ready replicas out of desired.",
			Cell: func(o runtime.Object) any {
				return fmt.Sprintf("%d/%d", d(o).Status.ReadyReplicas, replicasOf(d(o).Spec.Replicas))
			}},
		{Name: "Up-to-date", Type: "integer", Description: "Replicas on the latest template.",
			Cell: func(o runtime.Object) any { return int64(d(o).Status.UpdatedReplicas) }},
		{Name: "Available", Type: "integer", Description: "Available replicas.",
			Cell: func(o runtime.Object) any { return int64(d(o).Status.AvailableReplicas) }},
	}
}

func daemonSetColumns() []resource.Column {
	d := func(o runtime.Object) *appsv1.DaemonSet { return o.(*appsv1.DaemonSet) }
	num := func(name, desc string, f func(*appsv1.DaemonSet) int32) resource.Column {
		return resource.Column{Name: name, Type: "integer", Description: desc,
			Cell: func(o runtime.Object) any { return int64(f(d(o))) }}
	}
	return []resource.Column{
		num("Desired", "Nodes that should run the daemon pod.", func(s *appsv1.DaemonSet) int32 { return s.Status.DesiredNumberScheduled }),
		num("Current", "Nodes running the daemon pod.", func(s *appsv1.DaemonSet) int32 { return s.Status.CurrentNumberScheduled }),
		num("Ready", "Nodes with a ready daemon pod.", func(s *appsv1.DaemonSet) int32 { return s.Status.NumberReady }),
		num("Up-to-date", "Nodes running the latest template.", func(s *appsv1.DaemonSet) int32 { return s.Status.UpdatedNumberScheduled }),
		num("Available", "Nodes with an available daemon pod.", func(s *appsv1.DaemonSet) int32 { return s.Status.NumberAvailable }),
	}
}

func replicaSetColumns() []resource.Column {
	r := func(o runtime.Object) *appsv1.ReplicaSet { return o.(*appsv1.ReplicaSet) }
	return []resource.Column{
		{Name: "Desired", Type: "integer", Description: "Desired replicas.",
			Cell: func(o runtime.Object) any { return int64(replicasOf(r(o).Spec.Replicas)) }},
		{Name: "Current", Type: "integer", Description: "Current replicas.",
			Cell: func(o runtime.Object) any { return int64(r(o).Status.Replicas) }},
		{Name: "Ready", Type: "integer", Description: "Ready replicas.",
			Cell: func(o runtime.Object) any { return int64(r(o).Status.ReadyReplicas) }},
	}
}
