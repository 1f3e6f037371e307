// Package slimwire drops managedFields from the protobuf answers mco's
// components read, before client-go decodes them. No controller of mco reads
// managedFields (every informer drops them, controller.SlimMetadata), yet
// decoding them was the largest part of decoding an object's metadata: an
// object written by several managers carries one field set per manager, and
// a status write's set is as large as the status. Skipping them is a pass
// over the bytes that copies what stays.
//
// Only objects whose Go type has ObjectMeta as protobuf field 1 (and lists
// of them, items at field 2) are touched; anything else, and anything that
// does not parse, is passed on unchanged.
package slimwire

import (
	"bytes"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// protobufMagic starts every object Kubernetes' protobuf serializer writes
// (runtime.Unknown follows).
var protobufMagic = []byte{0x6b, 0x38, 0x73, 0x00}

// Field numbers of the messages walked (k8s.io/apimachinery's generated.proto).
const (
	unknownTypeMeta    = 1 // runtime.Unknown.typeMeta
	unknownRaw         = 2 // runtime.Unknown.raw
	typeMetaAPIVersion = 1 // runtime.TypeMeta.apiVersion
	typeMetaKind       = 2 // runtime.TypeMeta.kind
	objectMetadata     = 1 // every object's metadata
	listItems          = 2 // every list's items
	metaManagedFields  = 17
	watchEventObject   = 2 // metav1.WatchEvent.object
	rawExtensionRaw    = 1 // runtime.RawExtension.raw
)

// Shape says how to reach the ObjectMeta of a kind's protobuf message.
type Shape int

const (
	// Other kinds are left alone.
	Other Shape = iota
	// Object has its ObjectMeta at field 1.
	Object
	// List has its items, each an Object, at field 2.
	List
)

// ShapeOf tells the Shape of a kind by its apiVersion and kind (as read off
// the wire).
type ShapeOf func(apiVersion, kind []byte) Shape

// Strip returns data, an object as Kubernetes' protobuf serializer writes
// it, without the managedFields of its metadata (or of its items' for a
// list), in one new slice. data itself is never modified; it is returned as
// it is when there is nothing to drop or it does not parse.
func Strip(data []byte, shapeOf ShapeOf) []byte {
	es := make(edits, 0, 8)
	shrink, err := es.envelope(data, 0, shapeOf)
	if err != nil || shrink == 0 {
		return data
	}
	return es.apply(data, len(data)-shrink)
}

// StripWatchEvent returns a protobuf metav1.WatchEvent (one frame of a watch
// stream) with its object stripped as Strip does.
func StripWatchEvent(event []byte, shapeOf ShapeOf) []byte {
	es := make(edits, 0, 8)
	shrink := 0
	err := eachField(event, func(f field) error {
		if f.num != watchEventObject || f.typ != protowire.BytesType {
			return nil
		}
		inner := 0
		err := eachField(f.v, func(r field) error {
			if r.num != rawExtensionRaw || r.typ != protowire.BytesType {
				return nil
			}
			d, err := es.envelope(r.v, f.valueStart+r.valueStart, shapeOf)
			inner += es.resize(r, f.valueStart, d)
			return err
		})
		shrink += es.resize(f, 0, inner)
		return err
	})
	if err != nil || shrink == 0 {
		return event
	}
	return es.apply(event, len(event)-shrink)
}

// field is one field of a message; offsets are within the message.
type field struct {
	num   protowire.Number
	typ   protowire.Type
	v     []byte // a length-delimited field's content, else its encoded value
	start int    // where its tag starts
	// tagEnd and valueStart bound a length-delimited field's length.
	tagEnd, valueStart int
	end                int
}

// eachField calls fn with every field of msg in order.
func eachField(msg []byte, fn func(field) error) error {
	for i := 0; i < len(msg); {
		num, typ, n := protowire.ConsumeTag(msg[i:])
		if n < 0 {
			return protowire.ParseError(n)
		}
		f := field{num: num, typ: typ, start: i, tagEnd: i + n, valueStart: i + n}
		if typ == protowire.BytesType {
			size, m := protowire.ConsumeVarint(msg[f.tagEnd:])
			if m < 0 {
				return protowire.ParseError(m)
			}
			f.valueStart += m
			if size > uint64(len(msg)-f.valueStart) {
				return protowire.ParseError(-1)
			}
			f.end = f.valueStart + int(size)
		} else {
			m := protowire.ConsumeFieldValue(num, typ, msg[f.tagEnd:])
			if m < 0 {
				return protowire.ParseError(m)
			}
			f.end = f.tagEnd + m
		}
		f.v = msg[f.valueStart:f.end]
		if err := fn(f); err != nil {
			return err
		}
		i = f.end
	}
	return nil
}

// edit drops data[start:end], or replaces it with the varint n.
type edit struct {
	start, end int
	varint     bool
	n          uint64
}

// edits are the changes Strip makes to one message, at offsets in it: the
// managedFields dropped and the lengths of the fields around them.
type edits []edit

// envelope records the edits of an object as the protobuf serializer
// writes it (magic, then runtime.Unknown), at off, and returns how many
// bytes they take off.
func (es *edits) envelope(data []byte, off int, shapeOf ShapeOf) (int, error) {
	if !bytes.HasPrefix(data, protobufMagic) {
		return 0, nil
	}
	unknown, base := data[len(protobufMagic):], off+len(protobufMagic)
	var apiVersion, kind []byte
	var raw field
	found := false
	err := eachField(unknown, func(f field) error {
		if f.typ != protowire.BytesType {
			return nil
		}
		switch f.num {
		case unknownTypeMeta:
			return eachField(f.v, func(t field) error {
				if t.typ == protowire.BytesType && t.num == typeMetaAPIVersion {
					apiVersion = t.v
				} else if t.typ == protowire.BytesType && t.num == typeMetaKind {
					kind = t.v
				}
				return nil
			})
		case unknownRaw:
			raw, found = f, true
		}
		return nil
	})
	if err != nil || !found {
		return 0, err
	}
	var d int
	switch shapeOf(apiVersion, kind) {
	case Object:
		d, err = es.object(raw.v, base+raw.valueStart)
	case List:
		err = eachField(raw.v, func(item field) error {
			if item.num != listItems || item.typ != protowire.BytesType {
				return nil
			}
			di, err := es.object(item.v, base+raw.valueStart+item.valueStart)
			d += es.resize(item, base+raw.valueStart, di)
			return err
		})
	}
	return es.resize(raw, base, d), err
}

// object records the edits that drop the managedFields of the object at
// off (its metadata is field 1) and returns how many bytes they take off.
func (es *edits) object(obj []byte, off int) (int, error) {
	d := 0
	err := eachField(obj, func(meta field) error {
		if meta.num != objectMetadata || meta.typ != protowire.BytesType {
			return nil
		}
		dropped := 0
		err := eachField(meta.v, func(f field) error {
			if f.num == metaManagedFields {
				at := off + meta.valueStart
				*es = append(*es, edit{start: at + f.start, end: at + f.end})
				dropped += f.end - f.start
			}
			return nil
		})
		d += es.resize(meta, off, dropped)
		return err
	})
	return d, err
}

// resize records the new length of f, a length-delimited field of the
// message at off whose content loses d bytes, and returns how many bytes
// the field loses with its length's encoding.
func (es *edits) resize(f field, off, d int) int {
	if d == 0 {
		return 0
	}
	n := uint64(len(f.v) - d)
	*es = append(*es, edit{start: off + f.tagEnd, end: off + f.valueStart, varint: true, n: n})
	return d + (f.valueStart - f.tagEnd) - protowire.SizeVarint(n)
}

// apply writes data with the edits made, into a slice of size bytes.
func (es edits) apply(data []byte, size int) []byte {
	slices.SortFunc(es, func(a, b edit) int { return a.start - b.start })
	out := make([]byte, 0, size)
	last := 0
	for _, e := range es {
		out = append(out, data[last:e.start]...)
		if e.varint {
			out = protowire.AppendVarint(out, e.n)
		}
		last = e.end
	}
	return append(out, data[last:]...)
}
