// Package sis is the codec for the AODB "SIS" XML messages (see
// docs/decode.md and the wire contract sis-wire-format.md).
//
// Decode turns the bytes of one mailbox row into a *Message whose body says
// exactly what the message means for stored state: every scalar as a field
// operation (Unchanged / Set / Clear), every repeated group as Unchanged or
// Replace(list) in input order, payload collections as validated canonical
// XML, and reference records kept whole with their key. Nothing the AODB
// sent is dropped: a value the codec cannot place is an error, never ignored.
//
// Errors are *Error values carrying a Class of the processing contract
// (MALFORMED, PROTOCOL, CODEC_ERROR, UNSUPPORTED) and a reason naming the
// element path and the offending value.
//
// The package is pure: no I/O, no database, no global state besides
// read-only tables. It parses with its own small, strict XML scanner
// (no DTD, no entities beyond the five predefined ones and character
// references) because encoding/xml is several times too slow for the
// 2 000-flight daily download budget.
package sis
