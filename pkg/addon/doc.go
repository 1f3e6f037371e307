// Package addon holds the pure decisions about add-ons (Addon objects):
// how an add-on's value layers combine for one cluster, whether it may be
// installed in a cluster now (its dependencies, conflicts and Kubernetes
// version ranges), and how a cluster's rendered objects are split into
// Works. Nothing here does I/O; the addon controller and the renderer
// call it.
package addon
