package differential

import (
	"reflect"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mco-org/mco/pkg/apis/reserved"
)

// Deliberate is a field where mco deliberately differs from a member's
// kube-apiserver. Normalization removes it from both servers' answers.
type Deliberate struct {
	// Kind is the kind it applies to ("" for every kind).
	Kind string
	// Path leads to the field; "*" stands for every item of a list.
	Path []string
	// Value, when set, removes only the items equal to it from the list at
	// Path (and the list when it ends up empty).
	Value any
	// ItemField and ItemPrefix, when set, remove only the items whose
	// field ItemField starts with ItemPrefix from the list at Path (and the
	// list when it ends up empty): items a server names with a random
	// suffix, or a controller's entry.
	ItemField, ItemPrefix string
	// UnlessSet keeps the field where the request itself set it: only what
	// the server filled in is ignored. A zero value ("", 0) asks the server
	// to fill it in, as no value does.
	UnlessSet bool
	Reason    string
}

// PerRequest are the fields that differ between any two requests, to the
// same server too; the comparison ignores them. managedFields are compared
// but for their time.
var PerRequest = []Deliberate{
	{Path: []string{"metadata", "uid"}, Reason: "generated per object"},
	{Path: []string{"metadata", "creationTimestamp"}, Reason: "time of the request"},
	{Path: []string{"metadata", "resourceVersion"}, Reason: "per-server storage revision"},
	{Path: []string{"metadata", "managedFields", "*", "time"}, Reason: "time of the request"},
	{Path: []string{"metadata", "name"}, UnlessSet: true, Reason: "generated from metadata.generateName with a random suffix"},
	{Kind: "PersistentVolume", Path: []string{"status", "lastPhaseTransitionTime"}, Reason: "time of the request"},
	{Kind: "Pod", Path: []string{"status", "conditions", "*", "lastTransitionTime"}, Reason: "time of the request (a gated Pod's PodScheduled condition)"},
	{Kind: "CustomResourceDefinition", Path: []string{"status", "conditions", "*", "lastTransitionTime"}, Reason: "time the server's controllers established the stored CRD"},
}

// DeliberateDifferences are where mco differs from a member's
// kube-apiserver on purpose; the README lists them.
var DeliberateDifferences = []Deliberate{
	{Kind: "Service", Path: []string{"spec", "clusterIP"}, UnlessSet: true,
		Reason: "mco allocates no cluster IP: each member allocates its own"},
	{Kind: "Service", Path: []string{"spec", "clusterIPs"}, UnlessSet: true,
		Reason: "mco allocates no cluster IP: each member allocates its own"},
	{Kind: "Service", Path: []string{"spec", "ipFamilies"}, UnlessSet: true,
		Reason: "IP families follow the member's service CIDRs, unknown to mco"},
	{Kind: "Service", Path: []string{"spec", "ipFamilyPolicy"}, UnlessSet: true,
		Reason: "IP families follow the member's service CIDRs, unknown to mco"},
	{Kind: "Service", Path: []string{"spec", "ports", "*", "nodePort"}, UnlessSet: true,
		Reason: "node ports are allocated by each member"},
	{Kind: "Service", Path: []string{"spec", "healthCheckNodePort"}, UnlessSet: true,
		Reason: "node ports are allocated by each member"},
	{Kind: "Job", Path: []string{"spec", "selector"}, UnlessSet: true,
		Reason: "the generated selector holds the Job's uid on the member, so the member generates it"},
	{Kind: "Job", Path: []string{"spec", "template", "metadata", "labels", "controller-uid"}, UnlessSet: true,
		Reason: "generated from the Job's uid on the member"},
	{Kind: "Job", Path: []string{"spec", "template", "metadata", "labels", "batch.kubernetes.io/controller-uid"}, UnlessSet: true,
		Reason: "generated from the Job's uid on the member"},
	{Kind: "Job", Path: []string{"spec", "template", "metadata", "labels", "job-name"}, UnlessSet: true,
		Reason: "generated with the selector, by the member"},
	{Kind: "Job", Path: []string{"spec", "template", "metadata", "labels", "batch.kubernetes.io/job-name"}, UnlessSet: true,
		Reason: "generated with the selector, by the member"},
	// Kubernetes copies the template's labels to a Job without labels.
	{Kind: "Job", Path: []string{"metadata", "labels", "controller-uid"}, UnlessSet: true,
		Reason: "copied from the generated template labels, which hold the Job's uid on the member"},
	{Kind: "Job", Path: []string{"metadata", "labels", "batch.kubernetes.io/controller-uid"}, UnlessSet: true,
		Reason: "copied from the generated template labels, which hold the Job's uid on the member"},
	{Kind: "PersistentVolumeClaim", Path: []string{"metadata", "finalizers"}, Value: "kubernetes.io/pvc-protection",
		Reason: "added by the member's StorageObjectInUseProtection admission; a template is in use by no pod"},
	{Kind: "PersistentVolume", Path: []string{"metadata", "finalizers"}, Value: "kubernetes.io/pv-protection",
		Reason: "added by the member's StorageObjectInUseProtection admission; a template is bound to no claim"},
	{Kind: "VolumeAttributesClass", Path: []string{"metadata", "finalizers"}, Value: "kubernetes.io/vac-protection",
		Reason: "added by the member's StorageObjectInUseProtection admission; a template is used by no volume"},
	// mco runs no Pod: what a member's admission plugins add to a Pod it
	// runs is the member's to add.
	{Kind: "Pod", Path: []string{"spec", "serviceAccountName"}, UnlessSet: true,
		Reason: "the member's ServiceAccount admission names the namespace's default account"},
	{Kind: "Pod", Path: []string{"spec", "serviceAccount"}, UnlessSet: true,
		Reason: "the member's ServiceAccount admission names the namespace's default account (deprecated alias)"},
	{Kind: "Pod", Path: []string{"spec", "volumes"}, ItemField: "name", ItemPrefix: "kube-api-access-",
		Reason: "the token volume the member's ServiceAccount admission adds, with a random name"},
	{Kind: "Pod", Path: []string{"spec", "containers", "*", "volumeMounts"}, ItemField: "name", ItemPrefix: "kube-api-access-",
		Reason: "the token volume the member's ServiceAccount admission mounts in every container"},
	{Kind: "Pod", Path: []string{"spec", "initContainers", "*", "volumeMounts"}, ItemField: "name", ItemPrefix: "kube-api-access-",
		Reason: "the token volume the member's ServiceAccount admission mounts in every container"},
	{Kind: "Pod", Path: []string{"spec", "tolerations"}, Value: defaultToleration("node.kubernetes.io/not-ready"),
		Reason: "added by the member's DefaultTolerationSeconds admission"},
	{Kind: "Pod", Path: []string{"spec", "tolerations"}, Value: defaultToleration("node.kubernetes.io/unreachable"),
		Reason: "added by the member's DefaultTolerationSeconds admission"},
	{Kind: "Pod", Path: []string{"spec", "priority"}, UnlessSet: true,
		Reason: "the member's Priority admission sets it from the member's PriorityClasses"},
	{Kind: "Pod", Path: []string{"spec", "preemptionPolicy"}, UnlessSet: true,
		Reason: "the member's Priority admission sets it from the member's PriorityClasses"},
	{Kind: "FlowSchema", Path: []string{"status", "conditions"},
		Reason: "written by the member's priority and fairness controller; mco's FlowSchemas configure no server"},
	{Kind: "FlowSchema", Path: []string{"metadata", "managedFields"}, ItemField: "manager", ItemPrefix: "api-priority-and-fairness-config-consumer",
		Reason: "the member's priority and fairness controller's write of the status"},
	// A server's own CRD controllers (names, establishing) write a stored
	// CRD's status as the server, under its binary's name.
	{Kind: "CustomResourceDefinition", Path: []string{"metadata", "managedFields"}, ItemField: "manager", ItemPrefix: "kube-apiserver",
		Reason: "kube-apiserver's CRD controllers' write of the status, under kube-apiserver's name"},
	{Kind: "CustomResourceDefinition", Path: []string{"metadata", "managedFields"}, ItemField: "manager", ItemPrefix: "mco-apiserver",
		Reason: "mco's CRD controllers' write of the same status, under mco-apiserver's name"},
}

// defaultToleration is a toleration the member's DefaultTolerationSeconds
// admission adds to a Pod that has none for the taint.
func defaultToleration(key string) map[string]any {
	return map[string]any{"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": int64(300)}
}

// DeliberateOutcomes are requests kube-apiserver and mco answer
// differently on purpose: each returns the reason when it applies to a
// request of kind with body input and the two outcomes, "" otherwise.
var DeliberateOutcomes = []func(kind string, input map[string]any, kube, mco Outcome) string{
	serviceFamiliesOfAnyStack,
	podAdmission,
	crdInMCOGroup,
	selectableFieldsWithoutStructuralSchema,
}

// deliberateOutcome returns the reason of the first deliberate outcome
// that applies, or "".
func deliberateOutcome(kind string, input map[string]any, kube, mco Outcome) string {
	for _, d := range DeliberateOutcomes {
		if r := d(kind, input, kube, mco); r != "" {
			return r
		}
	}
	return ""
}

// serviceFamiliesOfAnyStack: the member under test is single-stack IPv4
// and refuses Services that ask for IPv6 or for dual stack; mco serves
// members of any stack and accepts them (the member decides).
func serviceFamiliesOfAnyStack(kind string, input map[string]any, kube, mco Outcome) string {
	if kind != "Service" || kube.Accepted() || !mco.Accepted() {
		return ""
	}
	policy, _, _ := unstructured.NestedString(input, "spec", "ipFamilyPolicy")
	families, _, _ := unstructured.NestedStringSlice(input, "spec", "ipFamilies")
	if policy != "RequireDualStack" && !slices.Contains(families, "IPv6") {
		return ""
	}
	for _, c := range kube.Causes {
		if c.Field != "spec.ipFamilies" && c.Field != "spec.ipFamilyPolicy" && !strings.HasPrefix(c.Field, "spec.ipFamilies[") {
			return ""
		}
	}
	return "mco serves members of any IP stack; a single-stack member refuses what it cannot serve"
}

// podRefusals are the messages of a member's Pod admission plugins that
// refuse a Pod for what the member holds, by plugin.
var podRefusals = map[string][]string{
	"Priority":       {"no PriorityClass with name", "priority admission controller computed"},
	"ServiceAccount": {"error looking up service account"},
	"RuntimeClass":   {"pod rejected: ", "conflict: runtimeClass."},
}

// podAdmission: a member's admission refuses a Pod whose PriorityClass,
// ServiceAccount or RuntimeClass it lacks (or whose priority disagrees
// with the class), before validation; mco runs no Pod and none of these
// plugins, and accepts or validates it.
func podAdmission(kind string, _ map[string]any, kube, mco Outcome) string {
	if kind != "Pod" || kube.Code != 403 || (!mco.Accepted() && mco.Code != 422) {
		return ""
	}
	for plugin, messages := range podRefusals {
		for _, m := range messages {
			if strings.Contains(kube.Message, m) {
				return "refused by the member's " + plugin + " admission, which mco, running no Pod, does not run"
			}
		}
	}
	return ""
}

// crdInMCOGroup: mco refuses a CustomResourceDefinition in a group it
// serves or keeps (a built-in group under test, or a group package
// reserved names), on spec.group only; kube-apiserver accepts it. On mco
// such a CRD would shadow mco's own API.
func crdInMCOGroup(kind string, input map[string]any, kube, mco Outcome) string {
	if kind != "CustomResourceDefinition" || !kube.Accepted() || mco.Code != 422 {
		return ""
	}
	if len(mco.Causes) != 1 || mco.Causes[0] != (Cause{Field: "spec.group", Type: "FieldValueForbidden"}) {
		return ""
	}
	group, _, _ := unstructured.NestedString(input, "spec", "group")
	if !mcoGroup(group) {
		return ""
	}
	return "mco serves or keeps the CRD's group and refuses CRDs in it"
}

// mcoGroup reports whether mco serves or keeps group: a group package
// reserved names, or the group of a built-in kind under test.
func mcoGroup(group string) bool {
	if reserved.Reason(group) != "" {
		return true
	}
	for _, k := range BuiltinKinds {
		if k.GVK.Group == group {
			return true
		}
	}
	return false
}

// Ignored is every rule normalization applies.
func Ignored() []Deliberate {
	return append(append([]Deliberate{}, PerRequest...), DeliberateDifferences...)
}

// normalize returns a copy of the object a server returned for input,
// without the fields of rules that apply to kind.
func normalize(rules []Deliberate, kind string, input, output map[string]any) map[string]any {
	out := runtime.DeepCopyJSON(output)
	for _, r := range rules {
		if r.Kind == "" || r.Kind == kind {
			removeField(out, input, r.Path, r)
		}
	}
	sortManagedFields(out)
	return out
}

// sortManagedFields orders metadata.managedFields by what is left of an
// entry's key once its time is ignored. A server orders entries by
// operation, then time to the second, then manager, API version and
// subresource: two updates a moment apart come in either order depending
// on whether a second began between them, on either server.
func sortManagedFields(obj map[string]any) {
	meta, _ := obj["metadata"].(map[string]any)
	entries, _ := meta["managedFields"].([]any)
	key := func(e any) string {
		m, _ := e.(map[string]any)
		var parts []string
		for _, f := range []string{"operation", "manager", "apiVersion", "subresource"} {
			s, _ := m[f].(string)
			parts = append(parts, s)
		}
		return strings.Join(parts, "\x00")
	}
	sort.SliceStable(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
}

// removeField removes path from node, walking input alongside to know what
// the request set.
func removeField(node, input any, path []string, r Deliberate) {
	seg := path[0]
	if seg == "*" {
		list, _ := node.([]any)
		inList, _ := input.([]any)
		for i, item := range list {
			var in any
			if i < len(inList) {
				in = inList[i]
			}
			removeField(item, in, path[1:], r)
		}
		return
	}
	m, ok := node.(map[string]any)
	if !ok {
		return
	}
	inMap, _ := input.(map[string]any)
	inValue, inHas := inMap[seg]
	if len(path) > 1 {
		removeField(m[seg], inValue, path[1:], r)
		return
	}
	if r.Value != nil || r.ItemPrefix != "" {
		if _, ok := m[seg]; !ok {
			return
		}
		m[seg] = withoutItems(m[seg], r)
		if l, ok := m[seg].([]any); ok && len(l) == 0 {
			delete(m, seg)
		}
		return
	}
	if r.UnlessSet && inHas && !zero(inValue) {
		return
	}
	delete(m, seg)
}

// zero reports whether a request's value is the JSON zero of its type.
func zero(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case string:
		return t == ""
	case int64:
		return t == 0
	case float64:
		return t == 0
	}
	return false
}

// withoutItems returns list without the items rule r matches: equal to
// its Value, or with its ItemPrefix in the field ItemField.
func withoutItems(list any, r Deliberate) any {
	l, ok := list.([]any)
	if !ok {
		return list
	}
	out := []any{}
	for _, item := range l {
		if r.Value != nil && reflect.DeepEqual(item, r.Value) {
			continue
		}
		fields, _ := item.(map[string]any)
		if v, _ := fields[r.ItemField].(string); r.ItemPrefix != "" && strings.HasPrefix(v, r.ItemPrefix) {
			continue
		}
		out = append(out, item)
	}
	return out
}

// selectableFieldsWithoutStructuralSchema: Kubernetes' validation of a CRD
// whose selectableFields come with a schema it cannot build dereferences
// that schema and the request ends in a reset connection; mco refuses such
// a CRD first, 422 on the version's selectableFields.
func selectableFieldsWithoutStructuralSchema(kind string, _ map[string]any, kube, mco Outcome) string {
	if kind != "CustomResourceDefinition" || kube.Code != 0 || mco.Code != 422 {
		return ""
	}
	for _, c := range mco.Causes {
		if !strings.HasSuffix(c.Field, ".selectableFields") {
			return ""
		}
	}
	return "kube-apiserver resets the request (its validation dereferences the schema it could not build); mco refuses the CRD"
}
