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

// Package clustervalues lets an override policy take values from the
// cluster it renders for: a policy carrying Annotation "true" may write
// ${cluster.name}, ${cluster.region}, ${cluster.provider} and
// ${cluster.labels['KEY']} in its overriders' string values, and each is
// replaced by the target cluster's own value when its Work is rendered.
// Without the annotation values are literal, as in Karmada.
package clustervalues

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// Annotation turns substitution on for an OverridePolicy or a
// ClusterOverridePolicy when its value is "true".
const Annotation = "policy.mco-org.github.io/cluster-values"

// Enabled tells whether a policy with these annotations substitutes.
func Enabled(annotations map[string]string) bool {
	return annotations[Annotation] == "true"
}

// attribute is what a placeholder reads from the cluster.
type attribute int

const (
	attrName attribute = iota
	attrRegion
	attrProvider
	attrLabel
)

// part is a piece of a value: literal text, or a placeholder.
type part struct {
	literal string
	attr    attribute
	key     string // the label key of attrLabel
	source  string // the placeholder as written, for errors
	isRef   bool
}

const known = "${cluster.name}, ${cluster.region}, ${cluster.provider} and ${cluster.labels['KEY']}"

// parse splits s into literals and placeholders. "$${" stands for a
// literal "${"; any other "$" is literal.
func parse(s string) ([]part, error) {
	var parts []part
	var lit strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$${"):
			lit.WriteString("${")
			i += 3
		case strings.HasPrefix(s[i:], "${"):
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("%q has no closing }", s[i:])
			}
			p, err := placeholder(s[i : i+end+1])
			if err != nil {
				return nil, err
			}
			if lit.Len() > 0 {
				parts = append(parts, part{literal: lit.String()})
				lit.Reset()
			}
			parts = append(parts, p)
			i += end + 1
		default:
			lit.WriteByte(s[i])
			i++
		}
	}
	if lit.Len() > 0 {
		parts = append(parts, part{literal: lit.String()})
	}
	return parts, nil
}

// placeholder reads one "${...}".
func placeholder(src string) (part, error) {
	expr := src[2 : len(src)-1]
	p := part{source: src, isRef: true}
	switch expr {
	case "cluster.name":
		p.attr = attrName
		return p, nil
	case "cluster.region":
		p.attr = attrRegion
		return p, nil
	case "cluster.provider":
		p.attr = attrProvider
		return p, nil
	case "cluster.zone", "cluster.zones":
		return p, fmt.Errorf("unknown placeholder %s: a cluster may span several zones; use ${cluster.labels['topology.kubernetes.io/zone']}", src)
	}
	if key, ok := labelKey(expr); ok {
		if errs := validation.IsQualifiedName(key); len(errs) > 0 {
			return p, fmt.Errorf("placeholder %s: label key %q: %s", src, key, strings.Join(errs, "; "))
		}
		p.attr, p.key = attrLabel, key
		return p, nil
	}
	return p, fmt.Errorf("unknown placeholder %s: the known ones are %s", src, known)
}

// labelKey reads cluster.labels['KEY'] or cluster.labels["KEY"].
func labelKey(expr string) (string, bool) {
	rest, ok := strings.CutPrefix(expr, "cluster.labels[")
	if !ok || len(rest) < 3 || rest[len(rest)-1] != ']' {
		return "", false
	}
	quoted := rest[:len(rest)-1]
	q := quoted[0]
	if (q != '\'' && q != '"') || quoted[len(quoted)-1] != q || len(quoted) < 2 {
		return "", false
	}
	key := quoted[1 : len(quoted)-1]
	if strings.ContainsAny(key, `'"`) {
		return "", false
	}
	return key, true
}

// Check reports a value that does not parse: an unknown placeholder, a
// bad label key, or a "${" without "}".
func Check(s string) error {
	_, err := parse(s)
	return err
}

// Expand replaces the placeholders in s with the cluster's values. A
// placeholder whose value is empty or missing is an error, never an
// empty string.
func Expand(s string, cluster *clusterv1alpha1.Cluster) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	parts, err := parse(s)
	if err != nil {
		return "", err
	}
	var out strings.Builder
	for _, p := range parts {
		if !p.isRef {
			out.WriteString(p.literal)
			continue
		}
		v, err := value(p, cluster)
		if err != nil {
			return "", err
		}
		out.WriteString(v)
	}
	return out.String(), nil
}

func value(p part, c *clusterv1alpha1.Cluster) (string, error) {
	var v, what string
	switch p.attr {
	case attrName:
		v, what = c.Name, "name"
	case attrRegion:
		v, what = c.Spec.Region, "spec.region"
	case attrProvider:
		v, what = c.Spec.Provider, "spec.provider"
	case attrLabel:
		var ok bool
		if v, ok = c.Labels[p.key]; !ok {
			return "", fmt.Errorf("%s: cluster %s has no label %q", p.source, c.Name, p.key)
		}
		what = fmt.Sprintf("label %q", p.key)
	}
	if v == "" {
		return "", fmt.Errorf("%s: cluster %s has an empty %s", p.source, c.Name, what)
	}
	return v, nil
}

// StandIn returns s with every placeholder replaced by "x", so that the
// rest of a value (a label value, say) can be checked before any cluster
// is known. A value that does not parse comes back as "x": Check reports
// it, once.
func StandIn(s string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	parts, err := parse(s)
	if err != nil {
		return "x"
	}
	var out strings.Builder
	for _, p := range parts {
		if p.isRef {
			out.WriteString("x")
		} else {
			out.WriteString(p.literal)
		}
	}
	return out.String()
}
