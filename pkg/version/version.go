// Package version reports the version of mco binaries, set at build time.
package version

import "runtime"

// gitVersion is set with -ldflags "-X github.com/mco-org/mco/pkg/version.gitVersion=...".
var gitVersion = "v0.0.0-dev"

// Info describes the build of the running binary.
type Info struct {
	GitVersion string `json:"gitVersion"`
	GoVersion  string `json:"goVersion"`
	Platform   string `json:"platform"`
}

// Get returns the build information of the running binary.
func Get() Info {
	return Info{
		GitVersion: gitVersion,
		GoVersion:  runtime.Version(),
		Platform:   runtime.GOOS + "/" + runtime.GOARCH,
	}
}

// String returns the version in the form printed by `--version`.
func (i Info) String() string {
	return i.GitVersion
}
