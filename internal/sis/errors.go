package sis

import (
	"errors"
	"fmt"
)

// Class is the class of a codec error: MALFORMED, PROTOCOL, CODEC_ERROR or
// UNSUPPORTED. The processing contract's classes (these, INFRA and
// EXHAUSTED) are vocab.Class.
type Class string

const (
	// ClassMalformed: not XML, no META, no TYPE. DEAD, never replayed.
	ClassMalformed Class = "MALFORMED"
	// ClassProtocol: well-formed but violates the contract (RECS mismatch,
	// element outside its FLOP group, a value that cannot be what the field
	// is). DEAD, nothing written.
	ClassProtocol Class = "PROTOCOL"
	// ClassCodec: a construct the codec does not handle yet (mixed content,
	// elements inside a scalar, size or depth limit). FAILED, replayable.
	ClassCodec Class = "CODEC_ERROR"
	// ClassUnsupported: an element or attribute the codec does not know.
	// FAILED, replayable once the codec learns it.
	ClassUnsupported Class = "UNSUPPORTED"
)

// Error is a classified decode failure. Path names the element, in the form
// MSG/FLOP[2]/FDIV@DDIR (an index appears when siblings share the name, an
// @ names an attribute); Value is the offending text, if any.
type Error struct {
	Class  Class
	Path   string
	Value  string
	Reason string
}

// Error gives one line: CLASS: path: reason.
func (e *Error) Error() string { return string(e.Class) + ": " + e.Detail() }

// Detail is the reason with its path, without the class: the text stored
// as the error reason of a processing row.
func (e *Error) Detail() string {
	if e.Path == "" {
		return e.Reason
	}
	return e.Path + ": " + e.Reason
}

// MarshalJSON gives {"class": "...", "reason": "..."} (the shape printed
// by msgx decode on failure).
func (e *Error) MarshalJSON() ([]byte, error) {
	return marshal(struct {
		Class  Class  `json:"class"`
		Reason string `json:"reason"`
	}{e.Class, e.Detail()})
}

// ClassOf returns the class of a codec error, or "" when err is not one.
func ClassOf(err error) Class {
	var e *Error
	if errors.As(err, &e) {
		return e.Class
	}
	return ""
}

func newErr(c Class, path, value, format string, args ...any) *Error {
	return &Error{Class: c, Path: path, Value: value, Reason: fmt.Sprintf(format, args...)}
}
