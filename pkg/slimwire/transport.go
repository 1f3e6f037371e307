package slimwire

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"mime"
	"net/http"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
)

// maxFrame bounds one frame of a watch stream read here (client-go's own
// reader refuses larger ones too).
const maxFrame = 64 << 20

// Config returns a copy of cfg whose answers in Kubernetes' protobuf reach
// client-go without managedFields (shapes from shapeOf); JSON and other
// answers pass as they are. A WrapTransport cfg already has stays.
func Config(cfg *rest.Config, shapeOf ShapeOf) *rest.Config {
	c := rest.CopyConfig(cfg)
	inner := c.WrapTransport
	c.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		if inner != nil {
			rt = inner(rt)
		}
		return &transport{next: rt, shapeOf: shapeOf}
	}
	return c
}

type transport struct {
	next    http.RoundTripper
	shapeOf ShapeOf
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.Body == nil || resp.Header.Get("Content-Encoding") != "" {
		return resp, err
	}
	mediaType, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || mediaType != runtime.ContentTypeProtobuf {
		return resp, nil
	}
	if params["stream"] == "watch" {
		resp.Body = &watchBody{src: resp.Body, shapeOf: t.shapeOf}
		return resp, nil
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read the answer to %s %s: %w", req.Method, req.URL.Path, err)
	}
	out := Strip(body, t.shapeOf)
	resp.Body = io.NopCloser(bytes.NewReader(out))
	resp.ContentLength = int64(len(out))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// watchBody passes a protobuf watch stream on frame by frame (a 4-byte
// big-endian length, then a WatchEvent), each event's object stripped.
type watchBody struct {
	src     io.ReadCloser
	shapeOf ShapeOf
	pending []byte // the rewritten frame not read yet
}

func (w *watchBody) Read(p []byte) (int, error) {
	if len(w.pending) == 0 {
		var head [4]byte
		if _, err := io.ReadFull(w.src, head[:]); err != nil {
			return 0, err // io.EOF between frames: the stream ended
		}
		size := binary.BigEndian.Uint32(head[:])
		if size > maxFrame {
			return 0, fmt.Errorf("watch frame of %d bytes is larger than %d", size, maxFrame)
		}
		frame := make([]byte, size)
		if _, err := io.ReadFull(w.src, frame); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		event := StripWatchEvent(frame, w.shapeOf)
		w.pending = binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(event)), uint32(len(event)))
		w.pending = append(w.pending, event...)
	}
	n := copy(p, w.pending)
	w.pending = w.pending[n:]
	return n, nil
}

func (w *watchBody) Close() error { return w.src.Close() }
