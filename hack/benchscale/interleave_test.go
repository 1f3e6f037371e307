package main

import "testing"

func TestInterleave(t *testing.T) {
	for _, tc := range []struct{ d, c int }{{10, 0}, {0, 5}, {10, 1}, {10000, 1000}, {3, 7}} {
		order := interleave(tc.d, tc.c)
		var d, c int
		for _, o := range order {
			switch {
			case o.configMap && o.index != c:
				t.Fatalf("%d/%d: ConfigMap %d out of order (want %d)", tc.d, tc.c, o.index, c)
			case o.configMap:
				c++
			case o.index != d:
				t.Fatalf("%d/%d: Deployment %d out of order (want %d)", tc.d, tc.c, o.index, d)
			default:
				d++
			}
		}
		if d != tc.d || c != tc.c {
			t.Errorf("%d/%d: got %d Deployments and %d ConfigMaps", tc.d, tc.c, d, c)
		}
		if tc.d == 10000 && tc.c == 1000 && (!order[10].configMap || order[9].configMap) {
			t.Errorf("ConfigMaps not every 11th object: %v", order[:12])
		}
	}
}
