package component

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDecideMemoryLimit(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		flag      int64
		envSet    bool
		cgroup    int64
		ratio     float64
		wantLimit int64
		wantFrom  string
	}{
		{"the flag wins", 900 << 20, true, 2 << 30, 0.9, 900 << 20, fromFlag},
		{"GOMEMLIMIT before the cgroup", 0, true, 2 << 30, 0.9, 0, fromEnv},
		{"a share of the cgroup's limit", 0, false, 1000 << 20, 0.9, 900 << 20, fromCgroup},
		{"ratio 0 takes none", 0, false, 1000 << 20, 0, 0, ""},
		{"no cgroup limit, none", 0, false, 0, 0.9, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			limit, from := decideMemoryLimit(c.flag, c.envSet, c.cgroup, c.ratio)
			if limit != c.wantLimit || from != c.wantFrom {
				t.Errorf("decideMemoryLimit = %d, %q; want %d, %q", limit, from, c.wantLimit, c.wantFrom)
			}
		})
	}
}

func TestMemoryOptionsValidate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		o       MemoryOptions
		wantErr bool
	}{
		{"defaults", DefaultMemoryOptions(), false},
		{"a quantity", MemoryOptions{Limit: "900Mi", Ratio: 0.9}, false},
		{"not a quantity", MemoryOptions{Limit: "lots", Ratio: 0.9}, true},
		{"not positive", MemoryOptions{Limit: "0", Ratio: 0.9}, true},
		{"ratio above 1", MemoryOptions{Ratio: 1.5}, true},
		{"ratio below 0", MemoryOptions{Ratio: -0.1}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if err := c.o.Validate(); (err != nil) != c.wantErr {
				t.Errorf("Validate() = %v, want error %t", err, c.wantErr)
			}
		})
	}
}

func TestCgroupMemoryLimit(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		files map[string]string // under the mount root
		self  string
		want  int64
	}{
		{"v2, the process's cgroup", map[string]string{"kubepods/pod1/c1/memory.max": "1073741824\n"}, "0::/kubepods/pod1/c1\n", 1 << 30},
		{"v2, an ancestor's lower limit", map[string]string{"kubepods/pod1/c1/memory.max": "max\n", "kubepods/pod1/memory.max": "536870912\n"}, "0::/kubepods/pod1/c1\n", 512 << 20},
		{"v2, unlimited", map[string]string{"user.slice/memory.max": "max\n"}, "0::/user.slice\n", 0},
		{"v2 inside a cgroup namespace", map[string]string{"memory.max": "268435456\n"}, "0::/\n", 256 << 20},
		{"v2, a path not mounted here", map[string]string{}, "0::/elsewhere\n", 0},
		{"v1 memory controller", map[string]string{"memory/docker/abc/memory.limit_in_bytes": "2147483648\n"}, "12:cpu,cpuacct:/docker/abc\n11:memory:/docker/abc\n", 2 << 30},
		{"v1 without a limit", map[string]string{"memory/memory.limit_in_bytes": "9223372036854771712\n"}, "11:memory:/\n", 0},
		{"no memory controller", map[string]string{}, "12:cpu:/\n", 0},
		{"hybrid: v1's memory controller, whatever the order", map[string]string{"memory/pa/x/memory.limit_in_bytes": "1073741824\n"}, "0::/\n4:memory:/pa/x\n1:cpu:/\n", 1 << 30},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			for name, content := range c.files {
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := CgroupMemoryLimit(root, []byte(c.self))
			if err != nil {
				t.Fatalf("CgroupMemoryLimit: %v", err)
			}
			if got != c.want {
				t.Errorf("CgroupMemoryLimit = %d, want %d", got, c.want)
			}
		})
	}
}

func TestCgroupMemoryLimitMalformed(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "memory.max"), []byte("lots\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CgroupMemoryLimit(root, []byte("0::/\n")); err == nil {
		t.Error("a limit that is no number was accepted")
	}
}
