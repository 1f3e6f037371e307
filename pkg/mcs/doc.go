// Package mcs decides what services across clusters need, as pure
// functions under the controllers that act on it: which clusters provide
// and which consume a MultiClusterService, and the EndpointSlices mco
// keeps and dispatches for a member's slice, with the names, labels and
// annotations Karmada gives them so that tools written for Karmada tell
// mco's slices from a member's own.
package mcs
