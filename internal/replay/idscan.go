package replay

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"
)

// scanFLIDs collects the integer text of every FLID element of a document
// the codec refused, as far as the XML reads.
func scanFLIDs(raw []byte) []int64 {
	d := xml.NewDecoder(bytes.NewReader(raw))
	d.Strict = false
	var flids []int64
	in := false
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			return flids
		}
		switch t := tok.(type) {
		case xml.StartElement:
			in = strings.EqualFold(t.Name.Local, "FLID")
			text.Reset()
		case xml.CharData:
			if in {
				text.Write(t)
			}
		case xml.EndElement:
			if in {
				if n, err := strconv.ParseInt(strings.TrimSpace(text.String()), 10, 64); err == nil && n > 0 {
					flids = append(flids, n)
				}
			}
			in = false
		}
	}
}
