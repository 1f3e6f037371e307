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
