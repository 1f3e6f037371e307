package framework

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// scanLogsForForbidden fails when mco's own components were refused by
// mco-apiserver: each runs as its own least-privileged identity, and a
// refusal means its role misses a rule the suite needed.
func scanLogsForForbidden(dir string) error {
	var found []string
	for _, name := range []string{"mco-scheduler", "mco-controller-manager"} {
		path := filepath.Join(dir, "logs", "mco", name+".log")
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("forbidden scan: %w", err)
		}
		s := bufio.NewScanner(f)
		s.Buffer(make([]byte, 1<<20), 1<<20)
		for s.Scan() {
			if line := s.Text(); strings.Contains(line, "forbidden: User \"system:mco-") {
				found = append(found, fmt.Sprintf("%s: %.300s", name, line))
			}
		}
		f.Close()
	}
	if len(found) > 0 {
		return fmt.Errorf("components were refused by mco-apiserver (%d lines), first: %s", len(found), found[0])
	}
	return nil
}
