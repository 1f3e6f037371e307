package component

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// unlimited is where cgroup v1 reports no limit: anything this large
// (the largest page-aligned int64) means none.
const unlimited = int64(1) << 62

// CgroupMemoryLimit returns the memory limit that applies to a process in
// the cgroups self lists (the content of /proc/self/cgroup), read from the
// cgroup file system mounted at root: cgroup v2's memory.max or cgroup
// v1's memory.limit_in_bytes, the lowest of the process's cgroup and its
// ancestors; 0 when there is none. Inside a container with a cgroup
// namespace the process's cgroup is the root of the mount.
func CgroupMemoryLimit(root string, self []byte) (int64, error) {
	// On a hybrid host the memory controller is a cgroup v1 hierarchy
	// while the unified one (0::) holds no controller: v1 wins.
	var unified, v1 string
	var hasUnified, hasV1 bool
	sc := bufio.NewScanner(bytes.NewReader(self))
	for sc.Scan() {
		// hierarchy-ID:controllers:path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			unified, hasUnified = parts[2], true
		case hasController(parts[1], "memory"):
			v1, hasV1 = parts[2], true
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("read cgroups: %w", err)
	}
	switch {
	case hasV1:
		return lowestLimit(filepath.Join(root, "memory"), v1, "memory.limit_in_bytes")
	case hasUnified:
		return lowestLimit(root, unified, "memory.max")
	}
	return 0, nil
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// lowestLimit reads file in dir/cgroup and in each of its ancestors up to
// dir, and returns the lowest limit found (0: none). Directories that are
// not there (a path seen from outside the container's namespace) are
// skipped.
func lowestLimit(dir, cgroup, file string) (int64, error) {
	var lowest int64
	for p := path.Clean("/" + cgroup); ; p = path.Dir(p) {
		v, err := readLimit(filepath.Join(dir, filepath.FromSlash(p), file))
		if err != nil {
			return 0, err
		}
		if v > 0 && (lowest == 0 || v < lowest) {
			lowest = v
		}
		if p == "/" {
			return lowest, nil
		}
	}
}

// readLimit reads one limit file: "max", a number, or absent (0: none).
func readLimit(name string) (int64, error) {
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	s := strings.TrimSpace(string(b))
	if s == "max" || s == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	if v >= unlimited {
		return 0, nil
	}
	return v, nil
}
