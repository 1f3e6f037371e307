package options

import (
	"sort"
	"strings"
	"testing"
)

func TestWithDefaultWatchCacheSizes(t *testing.T) {
	tests := []struct {
		name     string
		given    []string
		external bool
		want     string
		wantErr  bool
	}{
		{name: "Events and Works are not cached by default", want: "events#0,events.events.k8s.io#0,works.work.karmada.io#0"},
		{name: "on an external etcd, Works are", external: true, want: "events#0,events.events.k8s.io#0"},
		{name: "the user's size wins", given: []string{"events#100", "works.work.karmada.io#100"}, want: "events#100,events.events.k8s.io#0,works.work.karmada.io#100"},
		{name: "other resources are added", given: []string{"resourcebindings.work.karmada.io#0"}, want: "events#0,events.events.k8s.io#0,resourcebindings.work.karmada.io#0,works.work.karmada.io#0"},
		{name: "malformed", given: []string{"events"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := withDefaultWatchCacheSizes(tt.given, !tt.external)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			sort.Strings(got)
			if s := strings.Join(got, ","); s != tt.want {
				t.Errorf("got %s, want %s", s, tt.want)
			}
		})
	}
}
