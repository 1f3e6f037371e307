// Package reserved names the API groups in which mco-apiserver refuses
// CustomResourceDefinitions, and why: the groups of Karmada's that mco
// serves, those it keeps for Karmada kinds it is about to serve, and every
// group of mco's own domain. A CRD in one would share the storage keys of
// mco's kinds (/registry/<group>/<resource>) and shadow its API. Every
// other group is open, Karmada's other groups (operator.karmada.io, whose
// CRDs a user propagates to install Karmada's operator in members)
// included. The list grows with the kinds mco serves.
package reserved

import "strings"

// OwnDomain is mco's domain: every group in it is mco's.
const OwnDomain = "mco-org.github.io"

// karmadaGroup is one of Karmada's groups mco keeps: kinds is what
// Karmada has in it; served tells whether mco serves them now.
type karmadaGroup struct {
	kinds  string
	served bool
}

// karmadaGroups are Karmada's groups mco keeps.
var karmadaGroups = map[string]karmadaGroup{
	"policy.karmada.io":      {"PropagationPolicy, OverridePolicy, their cluster-scoped kinds, FederatedResourceQuota and ClusterTaintPolicy", true},
	"work.karmada.io":        {"Work and the resource bindings", true},
	"cluster.karmada.io":     {"Cluster", true},
	"config.karmada.io":      {"ResourceInterpreterCustomization and ResourceInterpreterWebhookConfiguration", true},
	"apps.karmada.io":        {"WorkloadRebalancer", true},
	"autoscaling.karmada.io": {"FederatedHPA and CronFederatedHPA", true},
	"networking.karmada.io":  {"MultiClusterIngress and MultiClusterService", true},
	"remedy.karmada.io":      {"Remedy", true},
	"search.karmada.io":      {"ResourceRegistry", false},
}

// Reason says why no CustomResourceDefinition may be created in group, or
// "" when one may.
func Reason(group string) string {
	if g, ok := karmadaGroups[group]; ok {
		if g.served {
			return "is served by mco-apiserver itself"
		}
		return "is Karmada's group of " + g.kinds + ", kept for mco to serve"
	}
	if group == OwnDomain || strings.HasSuffix(group, "."+OwnDomain) {
		return "is in the " + OwnDomain + " domain, mco's own"
	}
	return ""
}

// ServedKarmadaGroups are the groups of Karmada's mco serves now.
func ServedKarmadaGroups() []string {
	var groups []string
	for name, g := range karmadaGroups {
		if g.served {
			groups = append(groups, name)
		}
	}
	return groups
}
