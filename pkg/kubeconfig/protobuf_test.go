package kubeconfig

import (
	"testing"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// TestProtobuf: typed clients ask for protobuf; the config given stays as
// it was; a dynamic client built from the result still speaks JSON.
func TestProtobuf(t *testing.T) {
	base := &rest.Config{Host: "https://127.0.0.1:1", QPS: 5}
	got := Protobuf(base)
	if got.ContentType != "application/vnd.kubernetes.protobuf" ||
		got.AcceptContentTypes != "application/vnd.kubernetes.protobuf,application/json" {
		t.Errorf("content types %q / %q", got.ContentType, got.AcceptContentTypes)
	}
	if base.ContentType != "" || base.AcceptContentTypes != "" {
		t.Errorf("the given config changed: %q / %q", base.ContentType, base.AcceptContentTypes)
	}
	if got.QPS != 5 || got.Host != base.Host {
		t.Errorf("the copy lost settings: %+v", got)
	}
	dyn := dynamic.ConfigFor(got)
	if dyn.ContentType != "application/json" {
		t.Errorf("dynamic client content type %q, want JSON", dyn.ContentType)
	}
}
