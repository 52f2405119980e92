package sis

import "testing"

// Every glossary code is one the codec reads: a scalar, FLID/FFID/FDEL, a
// structure, a group or one of its item fields.
func TestGlossaryCodesAreSISCodes(t *testing.T) {
	t.Parallel()
	known := map[string]bool{"FLID": true, "FFID": true, "FDEL": true}
	for _, s := range scalarSpecs {
		known[s.name] = true
	}
	for _, s := range structSpecs {
		known[s.name] = true
	}
	for _, g := range groupSpecs {
		known[g.name] = true
		for _, f := range append(append([]fieldSpec{}, g.children...), g.attrs...) {
			known[f.name] = true
		}
	}
	for code := range Glossary {
		if !known[code] {
			t.Errorf("glossary code %s is no element or attribute the codec reads", code)
		}
	}
}
