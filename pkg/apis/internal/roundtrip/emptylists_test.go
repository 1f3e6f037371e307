package roundtrip_test

import (
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
	appsvalidation "github.com/mco-org/mco/pkg/apis/apps/validation"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	configvalidation "github.com/mco-org/mco/pkg/apis/config/validation"
	"github.com/mco-org/mco/pkg/apis/internal/roundtrip"
	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	networkingvalidation "github.com/mco-org/mco/pkg/apis/networking/validation"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	policyvalidation "github.com/mco-org/mco/pkg/apis/policy/validation"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	rolloutvalidation "github.com/mco-org/mco/pkg/apis/rollout/validation"
)

// emptyField is a list or map field written without omitempty: JSON keeps
// `[]` apart from a missing field (null on the way out), protobuf does not
// unless the field's type is a nullable list (+protobuf.nullable).
type emptyField struct {
	// doc is a whole object of the kind with the field empty; the field
	// is then also removed (path) for the missing case.
	doc  string
	path []string
	// kept: the type keeps empty and missing apart in protobuf too.
	kept bool
	// refused (when not kept): validation refuses the empty field, so no
	// stored object has it empty and protobuf loses nothing.
	refused func(runtime.Object) field.ErrorList
	want    string // the refused field's path
}

// emptyFields lists every such field of mco's kinds, keyed by package,
// type and JSON name; TestEveryEmptyableFieldIsListed keeps it complete.
var emptyFields = map[string]emptyField{
	"apps/v1alpha1.WorkloadRebalancerSpec.workloads": {
		doc:  `{"kind":"WorkloadRebalancer","metadata":{"name":"r"},"spec":{"workloads":[]}}`,
		path: []string{"spec", "workloads"}, want: "spec.workloads",
		refused: func(o runtime.Object) field.ErrorList {
			return appsvalidation.ValidateWorkloadRebalancer(o.(*appsv1alpha1.WorkloadRebalancer))
		},
	},
	"cluster/v1alpha1.ResourceModel.ranges": {
		doc:  `{"kind":"Cluster","metadata":{"name":"m"},"spec":{"syncMode":"Push","resourceModels":[{"grade":0,"ranges":[]}]}}`,
		path: []string{"spec", "resourceModels", "0", "ranges"}, kept: true,
	},
	"config/v1alpha1.ResourceInterpreterWebhook.interpreterContextVersions": {
		doc:  webhookDoc(`"interpreterContextVersions":[]`, `"operations":["*"],"apiGroups":["*"],"apiVersions":["*"],"kinds":["*"]`),
		path: []string{"webhooks", "0", "interpreterContextVersions"}, want: "webhooks[0].interpreterContextVersions",
		refused: validateWebhooks,
	},
	"config/v1alpha1.ResourceInterpreterWebhookConfiguration.webhooks": {
		doc:  `{"kind":"ResourceInterpreterWebhookConfiguration","metadata":{"name":"w"},"webhooks":[]}`,
		path: []string{"webhooks"}, kept: true,
	},
	"config/v1alpha1.Rule.apiGroups": {
		doc:  webhookDoc(`"interpreterContextVersions":["v1alpha1"]`, `"operations":["*"],"apiGroups":[],"apiVersions":["*"],"kinds":["*"]`),
		path: []string{"webhooks", "0", "rules", "0", "apiGroups"}, want: "webhooks[0].rules[0].apiGroups",
		refused: validateWebhooks,
	},
	"config/v1alpha1.Rule.apiVersions": {
		doc:  webhookDoc(`"interpreterContextVersions":["v1alpha1"]`, `"operations":["*"],"apiGroups":["*"],"apiVersions":[],"kinds":["*"]`),
		path: []string{"webhooks", "0", "rules", "0", "apiVersions"}, want: "webhooks[0].rules[0].apiVersions",
		refused: validateWebhooks,
	},
	"config/v1alpha1.Rule.kinds": {
		doc:  webhookDoc(`"interpreterContextVersions":["v1alpha1"]`, `"operations":["*"],"apiGroups":["*"],"apiVersions":["*"],"kinds":[]`),
		path: []string{"webhooks", "0", "rules", "0", "kinds"}, want: "webhooks[0].rules[0].kinds",
		refused: validateWebhooks,
	},
	"config/v1alpha1.RuleWithOperations.operations": {
		doc:  webhookDoc(`"interpreterContextVersions":["v1alpha1"]`, `"operations":[],"apiGroups":["*"],"apiVersions":["*"],"kinds":["*"]`),
		path: []string{"webhooks", "0", "rules", "0", "operations"}, want: "webhooks[0].rules[0].operations",
		refused: validateWebhooks,
	},
	"networking/v1alpha1.MultiClusterServiceSpec.types": {
		doc:  `{"kind":"MultiClusterService","metadata":{"name":"s","namespace":"d"},"spec":{"types":[]}}`,
		path: []string{"spec", "types"}, want: "spec.types",
		refused: func(o runtime.Object) field.ErrorList {
			return networkingvalidation.ValidateMultiClusterService(o.(*networkingv1alpha1.MultiClusterService))
		},
	},
	"policy/v1alpha1.ClusterTaintPolicySpec.taints": {
		doc:  `{"kind":"ClusterTaintPolicy","metadata":{"name":"t"},"spec":{"taints":[]}}`,
		path: []string{"spec", "taints"}, want: "spec.taints",
		refused: validateTaintPolicy,
	},
	"policy/v1alpha1.FederatedResourceQuotaSpec.overall": {
		doc:  `{"kind":"FederatedResourceQuota","metadata":{"name":"q","namespace":"d"},"spec":{"overall":{}}}`,
		path: []string{"spec", "overall"}, kept: true,
	},
	"policy/v1alpha1.LabelAnnotationOverrider.value": {
		doc:  `{"kind":"OverridePolicy","metadata":{"name":"o","namespace":"d"},"spec":{"resourceSelectors":[{"apiVersion":"v1","kind":"ConfigMap"}],"overrideRules":[{"overriders":{"labelsOverrider":[{"operator":"remove","value":{}}]}}]}}`,
		path: []string{"spec", "overrideRules", "0", "overriders", "labelsOverrider", "0", "value"}, kept: true,
	},
	"policy/v1alpha1.MatchCondition.statusValues": {
		doc:  `{"kind":"ClusterTaintPolicy","metadata":{"name":"t"},"spec":{"taints":[{"key":"k","effect":"NoSchedule"}],"addOnConditions":[{"conditionType":"Ready","operator":"In","statusValues":[]}]}}`,
		path: []string{"spec", "addOnConditions", "0", "statusValues"}, want: "spec.addOnConditions[0].statusValues",
		refused: validateTaintPolicy,
	},
	"policy/v1alpha1.PropagationSpec.resourceSelectors": {
		doc:  `{"kind":"PropagationPolicy","metadata":{"name":"p","namespace":"d"},"spec":{"resourceSelectors":[]}}`,
		path: []string{"spec", "resourceSelectors"}, want: "spec.resourceSelectors",
		refused: func(o runtime.Object) field.ErrorList {
			return policyvalidation.ValidatePropagationPolicy(o.(*policyv1alpha1.PropagationPolicy))
		},
	},
	"policy/v1alpha1.StatePreservation.rules": {
		doc:  `{"kind":"PropagationPolicy","metadata":{"name":"p","namespace":"d"},"spec":{"resourceSelectors":[{"apiVersion":"v1","kind":"ConfigMap"}],"failover":{"application":{"statePreservation":{"rules":[]}}}}}`,
		path: []string{"spec", "failover", "application", "statePreservation", "rules"}, kept: true,
	},
	"policy/v1alpha1.StaticClusterAssignment.hard": {
		doc:  `{"kind":"FederatedResourceQuota","metadata":{"name":"q","namespace":"d"},"spec":{"overall":{"cpu":"1"},"staticAssignments":[{"clusterName":"member1","hard":{}}]}}`,
		path: []string{"spec", "staticAssignments", "0", "hard"}, kept: true,
	},
	"rollout/v1alpha1.RolloutPolicySpec.resourceSelectors": {
		doc:  `{"kind":"RolloutPolicy","metadata":{"name":"r","namespace":"d"},"spec":{"resourceSelectors":[],"waves":[{"name":"a"}]}}`,
		path: []string{"spec", "resourceSelectors"}, want: "spec.resourceSelectors",
		refused: func(o runtime.Object) field.ErrorList {
			return rolloutvalidation.ValidateRolloutPolicy(o.(*rolloutv1alpha1.RolloutPolicy))
		},
	},
	"rollout/v1alpha1.RolloutPolicySpec.waves": {
		doc:  `{"kind":"RolloutPolicy","metadata":{"name":"r","namespace":"d"},"spec":{"resourceSelectors":[{"apiVersion":"v1","kind":"ConfigMap"}],"waves":[]}}`,
		path: []string{"spec", "waves"}, want: "spec.waves",
		refused: func(o runtime.Object) field.ErrorList {
			return rolloutvalidation.ValidateRolloutPolicy(o.(*rolloutv1alpha1.RolloutPolicy))
		},
	},
}

func webhookDoc(hook, rule string) string {
	return `{"kind":"ResourceInterpreterWebhookConfiguration","metadata":{"name":"w"},"webhooks":[{"name":"w.example.com",` +
		`"clientConfig":{"url":"https://w.example.com"},"rules":[{` + rule + `}],` + hook + `}]}`
}

func validateWebhooks(o runtime.Object) field.ErrorList {
	return configvalidation.ValidateResourceInterpreterWebhookConfiguration(o.(*configv1alpha1.ResourceInterpreterWebhookConfiguration))
}

func validateTaintPolicy(o runtime.Object) field.ErrorList {
	return policyvalidation.ValidateClusterTaintPolicy(o.(*policyv1alpha1.ClusterTaintPolicy), policyvalidation.TaintPolicyOptions{})
}

// kinds maps a document's kind to a new object of it.
var kinds = map[string]func() runtime.Object{
	"WorkloadRebalancer": func() runtime.Object { return &appsv1alpha1.WorkloadRebalancer{} },
	"Cluster":            func() runtime.Object { return &clusterv1alpha1.Cluster{} },
	"ResourceInterpreterWebhookConfiguration": func() runtime.Object { return &configv1alpha1.ResourceInterpreterWebhookConfiguration{} },
	"MultiClusterService":                     func() runtime.Object { return &networkingv1alpha1.MultiClusterService{} },
	"ClusterTaintPolicy":                      func() runtime.Object { return &policyv1alpha1.ClusterTaintPolicy{} },
	"FederatedResourceQuota":                  func() runtime.Object { return &policyv1alpha1.FederatedResourceQuota{} },
	"OverridePolicy":                          func() runtime.Object { return &policyv1alpha1.OverridePolicy{} },
	"PropagationPolicy":                       func() runtime.Object { return &policyv1alpha1.PropagationPolicy{} },
	"RolloutPolicy":                           func() runtime.Object { return &rolloutv1alpha1.RolloutPolicy{} },
}

// TestEmptyAndMissing: a list or map written without omitempty reads back
// through protobuf as JSON alone gives it back, empty (`[]`, `{}`) or
// missing (null); where protobuf cannot tell them apart, validation
// refuses the empty field, so no stored object has one.
func TestEmptyAndMissing(t *testing.T) {
	for key, f := range emptyFields {
		t.Run(key, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal([]byte(f.doc), &doc); err != nil {
				t.Fatalf("document: %v", err)
			}
			newObj := kinds[doc["kind"].(string)]
			if f.kept {
				for _, variant := range []map[string]any{doc, without(doc, f.path)} {
					viaJSON, viaProto := throughJSON(t, newObj, variant), throughProtobuf(t, newObj, variant)
					if diff := cmp.Diff(viaJSON, viaProto); diff != "" {
						t.Errorf("protobuf gives back %s otherwise than JSON (-JSON +protobuf):\n%s", describe(variant, f.path), diff)
					}
				}
				return
			}
			obj := decode(t, newObj, doc)
			errs := f.refused(obj)
			found := false
			for _, e := range errs {
				found = found || e.Field == f.want
			}
			if !found {
				t.Errorf("an empty %s is not refused (errors: %v); protobuf would read it back as missing", f.want, errs)
			}
		})
	}
}

// TestEveryEmptyableFieldIsListed walks mco's kinds for list and map fields
// without omitempty: each must be in emptyFields, and nothing else.
func TestEveryEmptyableFieldIsListed(t *testing.T) {
	found := map[string]bool{}
	seen := map[reflect.Type]bool{}
	for _, newObj := range kinds {
		walk(reflect.TypeOf(newObj()), seen, found)
	}
	for _, newObj := range allKinds(t) {
		walk(reflect.TypeOf(newObj()), seen, found)
	}
	var missing, stale []string
	for k := range found {
		if _, ok := emptyFields[k]; !ok {
			missing = append(missing, k)
		}
	}
	for k := range emptyFields {
		if !found[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	if len(missing) > 0 {
		t.Errorf("list or map fields without omitempty not in emptyFields (make the type +protobuf.nullable, or show validation refuses it empty): %v", missing)
	}
	if len(stale) > 0 {
		t.Errorf("emptyFields entries that are no such field: %v", stale)
	}
}

const apisPrefix = "github.com/mco-org/mco/pkg/apis/"

func walk(tp reflect.Type, seen map[reflect.Type]bool, found map[string]bool) {
	for tp.Kind() == reflect.Pointer || tp.Kind() == reflect.Slice || tp.Kind() == reflect.Map {
		tp = tp.Elem()
	}
	if tp.Kind() != reflect.Struct || !strings.HasPrefix(tp.PkgPath(), apisPrefix) || seen[tp] {
		return
	}
	seen[tp] = true
	for i := 0; i < tp.NumField(); i++ {
		f := tp.Field(i)
		tag := f.Tag.Get("json")
		k := f.Type.Kind()
		list := (k == reflect.Slice && f.Type.Elem().Kind() != reflect.Uint8) || k == reflect.Map
		if list && tag != "-" && !strings.Contains(tag, ",omitempty") && !strings.HasSuffix(tp.Name(), "List") {
			found[strings.TrimPrefix(tp.PkgPath(), apisPrefix)+"."+tp.Name()+"."+strings.Split(tag, ",")[0]] = true
		}
		walk(f.Type, seen, found)
	}
}

func decode(t *testing.T, newObj func() runtime.Object, doc map[string]any) runtime.Object {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	obj := newObj()
	if err := json.Unmarshal(data, obj); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	return obj
}

// throughJSON is what the object reads back as when stored as JSON.
func throughJSON(t *testing.T, newObj func() runtime.Object, doc map[string]any) any {
	t.Helper()
	return generic(t, decode(t, newObj, doc))
}

// throughProtobuf is what it reads back as when stored as protobuf.
func throughProtobuf(t *testing.T, newObj func() runtime.Object, doc map[string]any) any {
	t.Helper()
	data, err := decode(t, newObj, doc).(roundtrip.Message).Marshal()
	if err != nil {
		t.Fatalf("encode protobuf: %v", err)
	}
	out := newObj()
	if err := out.(roundtrip.Message).Unmarshal(data); err != nil {
		t.Fatalf("decode protobuf: %v", err)
	}
	return generic(t, out)
}

func generic(t *testing.T, obj runtime.Object) any {
	t.Helper()
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	// TypeMeta travels in protobuf's envelope, not in the message.
	delete(out, "kind")
	delete(out, "apiVersion")
	return out
}

// without returns a copy of doc with the field at path removed.
func without(doc map[string]any, path []string) map[string]any {
	data, _ := json.Marshal(doc)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	var cur any = out
	for i, p := range path {
		last := i == len(path)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				delete(c, p)
				return out
			}
			cur = c[p]
		case []any:
			cur = c[indexOf(p)]
		}
	}
	return out
}

func indexOf(s string) int {
	n, _ := strconv.Atoi(s) // the table's paths hold only valid indexes
	return n
}

func describe(doc map[string]any, path []string) string {
	var cur any = doc
	for _, p := range path {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[p]
			if !ok {
				return strings.Join(path, ".") + " missing"
			}
			cur = v
		case []any:
			cur = c[indexOf(p)]
		}
	}
	return strings.Join(path, ".") + " empty"
}
