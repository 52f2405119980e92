package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
	_ "time/tzdata" // the airport zone must load on hosts without tzdata

	"github.com/msgx-aodb/msgx/internal/decode"
	"github.com/msgx-aodb/msgx/internal/sis"
)

func init() {
	register("decode", "decode one SIS message (file or -) and print it as JSON", runDecode)
}

const decodeUsage = `usage: msgx decode [--tz ZONE] [--max-size BYTES] [FILE|-]

Decodes one SIS message from FILE (or stdin for - or no argument) exactly as
the pump does and prints it as JSON (docs/decode.md): the kind, the META, the
identity and every record with its field operations. A message the pump
would refuse prints {"class","reason"} instead. Nothing is written anywhere.

Exit codes: 0 decoded; 1 the input could not be read; 2 the message was
rejected (MALFORMED, PROTOCOL, CODEC_ERROR, UNSUPPORTED) or bad flags.`

// runDecode reads one message from FILE (or stdin for "-" or no argument)
// and prints the decoded message as JSON (docs/decode.md). A rejected
// message prints {"class","reason"} and exits 2; an I/O failure exits 1.
func runDecode(_ context.Context, args []string, s streams) int {
	fs := newFlags("decode", decodeUsage)
	tzDefault := os.Getenv("MSGX_AIRPORT_TZ")
	if tzDefault == "" {
		tzDefault = sis.DefaultZone
	}
	tz := fs.String("tz", tzDefault, "airport time zone of all SIS times (env MSGX_AIRPORT_TZ)")
	maxSize := fs.Int("max-size", sis.DefaultMaxSize, "largest accepted message in bytes")
	if code, ok := parseFlags(fs, args, s); !ok {
		return code
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(s.err, "msgx decode: at most one FILE")
		return exitUsage
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		fmt.Fprintf(s.err, "msgx decode: --tz %q: %v\n", *tz, err)
		return exitUsage
	}
	if *maxSize <= 0 {
		fmt.Fprintln(s.err, "msgx decode: --max-size must be positive")
		return exitUsage
	}

	in, name := s.in, "stdin"
	if f := fs.Arg(0); f != "" && f != "-" {
		file, err := os.Open(f)
		if err != nil {
			fmt.Fprintf(s.err, "msgx decode: %v\n", err)
			return exitFailure
		}
		defer file.Close()
		in, name = file, f
	}
	// One byte over the limit is enough for the codec to refuse the size.
	raw, err := io.ReadAll(io.LimitReader(in, int64(*maxSize)+1))
	if err != nil {
		fmt.Fprintf(s.err, "msgx decode: reading %s: %v\n", name, err)
		return exitFailure
	}

	opt := sis.DefaultOptions()
	opt.Location, opt.MaxSize = loc, *maxSize
	msg, err := decode.Message(raw, opt) // the pump's decode: the codec, then the column widths
	if err != nil {
		var se *sis.Error
		if !errors.As(err, &se) {
			se = &sis.Error{Class: sis.ClassCodec, Reason: err.Error()}
		}
		if werr := sis.WriteJSON(s.out, se); werr != nil {
			fmt.Fprintf(s.err, "msgx decode: %v\n", werr)
			return exitFailure
		}
		return exitUsage
	}
	if err := sis.WriteJSON(s.out, msg); err != nil {
		fmt.Fprintf(s.err, "msgx decode: %v\n", err)
		return exitFailure
	}
	return exitOK
}
