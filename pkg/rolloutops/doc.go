// Package rolloutops reads and writes staged rollouts through
// mco-apiserver: the pause and resume edits of pkg/rollout applied to a
// Rollout with retries on conflict, the return of a template to an earlier
// revision, and a Rollout's revisions from a cache. kubectl mco rollout,
// the dashboard and the rollout controller share it; pkg/rollout keeps the
// decisions, which do no I/O.
package rolloutops
