// Package tools pins the versions of the programs mco's tests and scripts
// build from Go modules (kubectl, ...). See hack/build-tools.sh.
package tools
