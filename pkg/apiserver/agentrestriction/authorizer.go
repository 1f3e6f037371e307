package agentrestriction

import (
	"context"
	"slices"

	"k8s.io/apiserver/pkg/authorization/authorizer"

	"github.com/mco-org/mco/pkg/agent/access"
	"github.com/mco-org/mco/pkg/names"
)

// Authorizer grants each agent the Works of its own execution namespace,
// as Kubernetes' Node authorizer grants kubelets their pods: the right
// follows the identity. A Role in that namespace would go with it when
// the Cluster is deleted, before the agent has withdrawn the last Work,
// and would not come back when the agent registers the Cluster again.
// Every other request gets no opinion (RBAC decides).
type Authorizer struct{}

var _ authorizer.Authorizer = Authorizer{}

var (
	// create and delete only for the slices the agent collects: the
	// admission rule refuses any other Work.
	workVerbs   = []string{"get", "list", "watch", "update", "patch", "create", "delete"}
	statusVerbs = []string{"get", "update", "patch"}
)

// Authorize implements authorizer.Authorizer.
func (Authorizer) Authorize(_ context.Context, a authorizer.Attributes) (authorizer.Decision, string, error) {
	if a.GetUser() == nil || !a.IsResourceRequest() {
		return authorizer.DecisionNoOpinion, "", nil
	}
	cluster, ok := access.AgentCluster(a.GetUser().GetName())
	if !ok || a.GetAPIGroup() != works.Group || a.GetResource() != works.Resource || a.GetNamespace() != names.ExecutionSpace(cluster) {
		return authorizer.DecisionNoOpinion, "", nil
	}
	switch a.GetSubresource() {
	case "":
		if slices.Contains(workVerbs, a.GetVerb()) {
			return authorizer.DecisionAllow, "the works of the agent's own cluster", nil
		}
	case "status":
		if slices.Contains(statusVerbs, a.GetVerb()) {
			return authorizer.DecisionAllow, "the works of the agent's own cluster", nil
		}
	}
	return authorizer.DecisionNoOpinion, "", nil
}

// ConditionsAwareAuthorize gives the same, unconditional answer as Authorize.
func (z Authorizer) ConditionsAwareAuthorize(ctx context.Context, attrs authorizer.Attributes) authorizer.ConditionsAwareDecision {
	return authorizer.ConditionsAwareDecisionFromParts(z.Authorize(ctx, attrs))
}

// EvaluateConditions is never needed: this authorizer sets no conditions.
func (Authorizer) EvaluateConditions(context.Context, authorizer.ConditionsAwareDecision, authorizer.ConditionsData) (authorizer.Decision, string, error) {
	return authorizer.DecisionDeny, "", authorizer.ErrorConditionEvaluationNotSupported
}
