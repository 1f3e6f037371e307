package agentrestriction

import (
	"context"
	"testing"

	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
)

func TestAuthorizer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                 string
		user                 string
		group, resource, sub string
		namespace, verb      string
		want                 authorizer.Decision
	}{
		{"an agent watches its own works", agent3, "work.karmada.io", "works", "", "karmada-es-member3", "watch", authorizer.DecisionAllow},
		{"an agent updates its own works", agent3, "work.karmada.io", "works", "", "karmada-es-member3", "update", authorizer.DecisionAllow},
		{"an agent writes its own works' status", agent3, "work.karmada.io", "works", "status", "karmada-es-member3", "patch", authorizer.DecisionAllow},
		// Only the Works reporting its slices: the admission rule refuses others.
		{"an agent creates works in its namespace", agent3, "work.karmada.io", "works", "", "karmada-es-member3", "create", authorizer.DecisionAllow},
		{"an agent deletes works in its namespace", agent3, "work.karmada.io", "works", "", "karmada-es-member3", "delete", authorizer.DecisionAllow},
		{"an agent may not delete works elsewhere", agent3, "work.karmada.io", "works", "", "karmada-es-member1", "delete", authorizer.DecisionNoOpinion},
		{"an agent may not delete collections of works", agent3, "work.karmada.io", "works", "", "karmada-es-member3", "deletecollection", authorizer.DecisionNoOpinion},
		{"another cluster's works are RBAC's to decide", agent3, "work.karmada.io", "works", "", "karmada-es-member1", "list", authorizer.DecisionNoOpinion},
		{"works across namespaces are RBAC's to decide", agent3, "work.karmada.io", "works", "", "", "list", authorizer.DecisionNoOpinion},
		{"other kinds are RBAC's to decide", agent3, "apps", "deployments", "", "karmada-es-member3", "list", authorizer.DecisionNoOpinion},
		{"other users are RBAC's to decide", "alice", "work.karmada.io", "works", "", "karmada-es-member3", "list", authorizer.DecisionNoOpinion},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a := authorizer.AttributesRecord{User: &user.DefaultInfo{Name: c.user}, ResourceRequest: true, APIGroup: c.group,
				Resource: c.resource, Subresource: c.sub, Namespace: c.namespace, Verb: c.verb}
			got, _, err := Authorizer{}.Authorize(context.Background(), a)
			if err != nil || got != c.want {
				t.Errorf("Authorize = %v, %v; want %v", got, err, c.want)
			}
		})
	}
}
