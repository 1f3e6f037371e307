package options

import (
	"testing"

	"github.com/mco-org/mco/pkg/apiserver"
)

// TestEveryServedKindIsStoredAsProtobuf: every kind mco-apiserver serves
// from its own table has a protobuf encoding, and exactly mco's own kinds
// (OwnResources) keep their group in their etcd keys.
func TestEveryServedKindIsStoredAsProtobuf(t *testing.T) {
	own := map[string]bool{}
	for _, r := range apiserver.OwnResources() {
		own[r.Resource.String()] = true
	}
	for _, r := range apiserver.Resources() {
		obj := r.New()
		if _, ok := obj.(protoMarshaler); !ok {
			t.Errorf("%s: %T has no protobuf encoding", r.Resource, obj)
		}
		if _, ok := r.NewList().(protoMarshaler); !ok {
			t.Errorf("%s: %T has no protobuf encoding", r.Resource, r.NewList())
		}
		if got, want := ownKind(obj), own[r.Resource.String()]; got != want {
			t.Errorf("%s: ownKind = %v, want %v (keys of mco's own kinds carry their group)", r.Resource, got, want)
		}
	}
}
