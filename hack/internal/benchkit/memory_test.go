package benchkit

import (
	"strings"
	"testing"
)

// TestParseSmaps: resident pages summed, the mapped file's apart, and a
// mapping smaps lists twice (read while the process maps memory) counted
// once.
func TestParseSmaps(t *testing.T) {
	const smaps = `00400000-01000000 r-xp 00000000 fd:00 123 /usr/bin/mco-apiserver
Size:              12288 kB
Rss:                2048 kB
Pss:                2048 kB
7f0000000000-7f0010000000 r--s 00000000 fd:00 456 /data/mco/etcd/member/snap/db
Size:             262144 kB
Rss:               10240 kB
7f0010000000-7f0020000000 rw-p 00000000 00:00 0 
Rss:                4096 kB
VmFlags: rd wr mr mw me ac
7f0020000000-7f0020001000 rw-p 00000000 00:00 0                          [stack]
Rss:                   4 kB
7f0000000000-7f0010000000 r--s 00000000 fd:00 456 /data/mco/etcd/member/snap/db
Rss:               10240 kB
7f0010000000-7f0020000000 rw-p 00000000 00:00 0 
Rss:                4096 kB
`
	for _, tc := range []struct {
		name          string
		file          string
		total, mapped float64
	}{
		{"database apart", EtcdDatabase, (2048 + 10240 + 4096 + 4) / 1024.0, 10},
		{"no such file", "/nothing", (2048 + 10240 + 4096 + 4) / 1024.0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			total, mapped, err := parseSmaps(strings.NewReader(smaps), tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if total != tc.total || mapped != tc.mapped {
				t.Errorf("total, mapped = %v, %v; want %v, %v", total, mapped, tc.total, tc.mapped)
			}
		})
	}
	if _, _, err := parseSmaps(strings.NewReader("00-01 r 0 0 0 /x\nRss: many kB\n"), "/x"); err == nil {
		t.Error("a malformed Rss line is not refused")
	}
}

// TestParseSmapsRollup: smaps_rollup's single summary gives the total.
func TestParseSmapsRollup(t *testing.T) {
	const rollup = `00400000-7fff00000000 ---p 00000000 00:00 0                              [rollup]
Rss:              524288 kB
Pss:              500000 kB
`
	total, mapped, err := parseSmaps(strings.NewReader(rollup), EtcdDatabase)
	if err != nil || total != 512 || mapped != 0 {
		t.Errorf("total, mapped = %v, %v, %v; want 512, 0", total, mapped, err)
	}
}
