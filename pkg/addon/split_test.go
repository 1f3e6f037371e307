package addon

import (
	"fmt"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name  string
		sizes []int
		want  string
	}{
		{name: "nothing makes no Work", want: "[]"},
		{name: "what fits goes in one Work", sizes: []int{10, 20, 30}, want: "[[0 3]]"},
		{name: "exactly the budget fits", sizes: []int{50, 50}, want: "[[0 2]]"},
		{name: "runs break where the next would pass the budget", sizes: []int{60, 30, 20, 90, 10}, want: "[[0 2] [2 3] [3 5]]"},
		{name: "an object over the budget goes alone", sizes: []int{10, 250, 10}, want: "[[0 1] [1 2] [2 3]]"},
		{name: "a first object over the budget goes alone", sizes: []int{250, 10}, want: "[[0 1] [1 2]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Split(tt.sizes, 100)
			if s := fmt.Sprint(got); s != tt.want && !(tt.want == "[]" && len(got) == 0) {
				t.Errorf("Split = %s, want %s", s, tt.want)
			}
		})
	}
}

func TestParts(t *testing.T) {
	tests := []struct {
		name  string
		sizes []int
		keep  []bool
		want  string
	}{
		{name: "nothing to keep is one group", sizes: []int{10, 20}, keep: []bool{false, false}, want: "[{[0 1] false}]"},
		{name: "what stays goes first, in its own Works", sizes: []int{10, 20, 30}, keep: []bool{false, true, false},
			want: "[{[1] true} {[0 2] false}]"},
		{name: "each group is split by the budget", sizes: []int{60, 60, 60, 60}, keep: []bool{true, true, false, false},
			want: "[{[0] true} {[1] true} {[2] false} {[3] false}]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fmt.Sprint(Parts(tt.sizes, tt.keep, 100)); got != tt.want {
				t.Errorf("Parts = %s, want %s", got, tt.want)
			}
		})
	}
}
