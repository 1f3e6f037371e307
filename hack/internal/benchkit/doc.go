// Package benchkit holds what mco's benchmark commands share: counting an
// apiserver's requests from its metrics, the CPU and memory of the
// processes of a local environment, running creates in parallel, and
// rendering the figures.
package benchkit
