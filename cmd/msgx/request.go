package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/app"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func init() {
	register("request", "ask the AODB for a day's flights or a reference list (RQFD/RQRD); list the requests", runRequest)
}

const requestUsage = `usage: msgx request flights --from YYYY-MM-DDTHH:MM --to YYYY-MM-DDTHH:MM [--utc] [--config FILE]
       msgx request ref LIST [--utc] [--config FILE]
       msgx request list [--json] [--limit N] [--utc] [--config FILE]

flights asks the AODB for the flights whose SODT lies in [--from, --to]
(airport local time, whole minutes; at most request.max-days operation
days, default 7): an RQFD request. ref asks for one
reference list (AIRL, GLST, ...): an RQRD request. Either registers the
request in REQ_TRACK (expiring the open one of its kind), writes it to the
outbound mailbox coutmsgs and marks it SENT, then prints
"REQUEST_ID<TAB>COUTMSGS_ID". The AODB answers with a RESP, which the
service applies only while the request is open (request.timeout); see
docs/requests.md. Shadow mode never sends.

list prints the requests, newest first: status, times (airport time with its
offset; --utc: in UTC), coutmsgs id, the message that answered and how it
matched. --json prints them as JSON (the shape of GET /admin/requests'
"requests"; times in UTC). --utc also shows the expiry flights and ref print
in UTC.

Exit codes: 0 sent / listed; 1 the request could not be sent or the
database read (a request left REGISTERED is superseded by the next one or
expires); 2 bad arguments or invalid configuration.`

func runRequest(ctx context.Context, args []string, s streams) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) == 0 {
			fmt.Fprintln(s.err, requestUsage)
			return exitUsage
		}
		fmt.Fprintln(s.out, requestUsage)
		return exitOK
	}
	sub, args := args[0], args[1:]
	fs := newFlags("request "+sub, requestUsage)
	configPath := configFlag(fs)
	utc := utcFlag(fs)
	var from, to *string
	var asJSON *bool
	var limit *int
	switch sub {
	case "flights":
		from = fs.String("from", "", "start of the SODT range, airport local time YYYY-MM-DDTHH:MM")
		to = fs.String("to", "", "end of the SODT range, airport local time YYYY-MM-DDTHH:MM")
	case "ref":
	case "list":
		asJSON = fs.Bool("json", false, "print JSON")
		limit = fs.Int("limit", 20, "most requests shown")
	default:
		fmt.Fprintf(s.err, "msgx request: unknown subcommand %q (flights, ref or list)\n", sub)
		return exitUsage
	}
	// Flags may follow the list: msgx request ref AIRL --config FILE.
	var pos []string
	for {
		if code, ok := parseFlags(fs, args, s); !ok {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		pos, args = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	wantArgs := map[string]int{"flights": 0, "ref": 1, "list": 0}[sub]
	if len(pos) != wantArgs {
		if sub == "ref" {
			fmt.Fprintln(s.err, "msgx request ref: name one reference list, e.g. msgx request ref AIRL")
		} else {
			fmt.Fprintf(s.err, "msgx request %s: unexpected argument %q\n", sub, pos[0])
		}
		return exitUsage
	}
	if limit != nil && (*limit < 1 || *limit > 500) {
		fmt.Fprintln(s.err, "msgx request list: --limit from 1 to 500")
		return exitUsage
	}
	cfg, ok := loadConfig("request", *configPath, s)
	if !ok {
		return exitUsage
	}

	// Arguments are checked before any connection.
	var begin, end time.Time
	var list string
	switch sub {
	case "flights":
		if *from == "" || *to == "" {
			fmt.Fprintln(s.err, "msgx request flights: --from and --to are required (airport local time YYYY-MM-DDTHH:MM)")
			return exitUsage
		}
		var err error
		if begin, err = aodbrequest.ParseLocal(*from, cfg.Location); err == nil {
			if end, err = aodbrequest.ParseLocal(*to, cfg.Location); err == nil {
				err = aodbrequest.CheckRange(begin, end, cfg.Request.MaxDays)
			}
		}
		if err != nil {
			fmt.Fprintf(s.err, "msgx request flights: --from/--to: %s\n", strings.TrimPrefix(err.Error(), aodbrequest.ErrInvalid.Error()+": "))
			return exitUsage
		}
	case "ref":
		var err error
		if list, err = aodbrequest.CheckList(pos[0]); err != nil {
			fmt.Fprintf(s.err, "msgx request ref: %s\n", strings.TrimPrefix(err.Error(), aodbrequest.ErrInvalid.Error()+": "))
			return exitUsage
		}
	}
	if cfg.Shadow && sub != "list" {
		fmt.Fprintf(s.err, "msgx request %s: %s\n", sub, aodbrequest.ErrShadow)
		return exitFailure
	}

	st, err := openStore(ctx, cfg)
	if err != nil {
		fmt.Fprintf(s.err, "msgx request %s: %s\n", sub, err)
		return exitFailure
	}
	defer st.Close()
	var mb aodbrequest.OutboundMailbox = noOutboundMailbox{}
	if sub != "list" {
		m, db, err := openMailbox(ctx, cfg)
		if err != nil {
			fmt.Fprintf(s.err, "msgx request %s: %s\n", sub, err)
			return exitFailure
		}
		defer db.Close()
		mb = m
	}
	svc := aodbrequest.New(st, mb, clock.Real{}, slog.New(slog.NewTextHandler(io.Discard, nil)), app.RequestConfig(cfg), nil)

	var req vocab.Request
	switch sub {
	case "list":
		reqs, err := svc.List(ctx, 0, *limit)
		if err != nil {
			fmt.Fprintf(s.err, "msgx request list: %s\n", oneline.Err(err))
			return exitFailure
		}
		for i := range reqs {
			reqs[i] = aodbrequest.UTC(reqs[i])
		}
		if err := printRequests(s.out, reqs, *asJSON, cfg.Location, shownIn(cfg.Location, *utc)); err != nil {
			fmt.Fprintf(s.err, "msgx request list: %s\n", oneline.Err(err))
			return exitFailure
		}
		return exitOK
	case "flights":
		req, err = svc.Flights(ctx, begin, end)
	case "ref":
		req, err = svc.Reference(ctx, list)
	}
	if err != nil {
		fmt.Fprintf(s.err, "msgx request %s: %s\n", sub, oneline.Err(err))
		return exitFailure
	}
	fmt.Fprintf(s.out, "%d\t%d\n", req.ID, *req.OutboundID)
	fmt.Fprintf(s.err, "msgx request %s: request %d (%s, SEQN %d) sent as coutmsgs %d; expires %s\n",
		sub, req.ID, req.Key, req.Seqn, *req.OutboundID, status.Stamp(req.ExpiresAt, shownIn(cfg.Location, *utc)))
	return exitOK
}

// noOutboundMailbox: list never touches the mailbox.
type noOutboundMailbox struct{}

func (noOutboundMailbox) InsertOutbound(context.Context, mailbox.InsertOutboundParams) (int64, error) {
	return 0, errors.New("no mailbox")
}

func (noOutboundMailbox) FindOutbound(context.Context, mailbox.FindOutboundParams) ([]mailbox.Outbound, error) {
	return nil, errors.New("no mailbox")
}

// printRequests writes requests as a table or as JSON; the table's times in
// shown, its ranges in airport time (as asked) with the airport's offset.
func printRequests(w io.Writer, reqs []vocab.Request, asJSON bool, airport, shown *time.Location) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(reqs)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tORIGIN\tSTATUS\tRANGE\tREGISTERED\tSENT\tEXPIRES\tDONE\tCOUTMSGS\tANSWER\tNOTE")
	for _, r := range reqs {
		rng := "-"
		if r.RangeBegin != nil && r.RangeEnd != nil {
			rng = r.RangeBegin.In(airport).Format(aodbrequest.LocalLayout) + ".." + r.RangeEnd.In(airport).Format(aodbrequest.LocalLayout+" -07:00")
		}
		answer := "-"
		if r.ResponseMsgID != nil {
			answer = strconv.FormatInt(*r.ResponseMsgID, 10) + " (" + r.MatchRule + ")"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Key, dash(r.Origin), r.Status, rng,
			status.Stamp(r.RegisteredAt, shown), stamp(r.SentAt, shown), status.Stamp(r.ExpiresAt, shown), stamp(r.DoneAt, shown),
			optInt(r.OutboundID), answer, dash(r.Note))
	}
	return tw.Flush()
}

func stamp(t *time.Time, loc *time.Location) string {
	if t == nil {
		return "-"
	}
	return status.Stamp(*t, loc)
}

func optInt(n *int64) string {
	if n == nil {
		return "-"
	}
	return strconv.FormatInt(*n, 10)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
