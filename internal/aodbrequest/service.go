package aodbrequest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Config is the request.* configuration (docs/config.md).
type Config struct {
	Sender    string         // META SNDR of our requests
	RoutingID string         // coutmsgs ROUTINGID
	Timeout   time.Duration  // sent_at + Timeout = expires_at; default DefaultTimeout
	Location  *time.Location // airport zone of DTTM, STDB and STDE
	Shadow    bool           // shadow mode: never send
	OnStart   bool           // at leader start, request today when it has no generation
	DailyAt   string         // HH:MM local: request the next day daily; "" = off
	MaxDays   int            // most operation days a flights request spans; default DefaultMaxDays
}

// DefaultTimeout is request.timeout's default.
const DefaultTimeout = 10 * time.Minute

// DefaultMaxDays is request.max-days' default.
const DefaultMaxDays = 7

// Observer counts what the service does (internal/metrics implements it).
type Observer interface {
	RequestSent(kind string)
	RequestsExpired(n int)
}

// Service registers and sends requests, recovers interrupted sends and
// expires requests nobody answered.
type Service struct {
	st  Store[Tx]
	mb  OutboundMailbox
	clk clock.Clock
	log *slog.Logger
	cfg Config
	obs Observer
}

// New builds the service on st (a store.Store, or any Store); obs may be nil.
func New[T Tx](st Store[T], mb OutboundMailbox, clk clock.Clock, log *slog.Logger, cfg Config, obs Observer) *Service {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxDays <= 0 {
		cfg.MaxDays = DefaultMaxDays
	}
	if cfg.Location == nil {
		cfg.Location = sis.DefaultOptions().Location
	}
	if log == nil {
		log = slog.Default()
	}
	return &Service{st: narrowed[T]{st}, mb: mb, clk: clk, log: log, cfg: cfg, obs: obs}
}

// Flights is an operator's request for the flights whose SODT lies in
// [from, to] (airport local time, whole minutes); it supersedes the open
// request of its kind.
func (s *Service) Flights(ctx context.Context, from, to time.Time) (vocab.Request, error) {
	return s.flights(ctx, from, to, vocab.OriginOperator)
}

func (s *Service) flights(ctx context.Context, from, to time.Time, origin string) (vocab.Request, error) {
	if err := CheckRange(from.In(s.cfg.Location), to.In(s.cfg.Location), s.cfg.MaxDays); err != nil {
		return vocab.Request{}, err
	}
	return s.submit(ctx, store.NewRequest{Type: respmatch.TypeFlights, Key: respmatch.KeyFlights, RangeBegin: &from, RangeEnd: &to, Origin: origin})
}

// Reference requests one reference list.
func (s *Service) Reference(ctx context.Context, list string) (vocab.Request, error) {
	code, err := CheckList(list)
	if err != nil {
		return vocab.Request{}, err
	}
	return s.submit(ctx, store.NewRequest{Type: respmatch.TypeReference, Key: respmatch.RefKey(code), List: code})
}

// submit registers a request and sends it: an operator's expires the open
// one of its kind in the same transaction, an automatic one registers
// nothing when it is held (ErrHeld). A send that fails leaves it
// REGISTERED, to be superseded or expired; the error says so.
func (s *Service) submit(ctx context.Context, nr store.NewRequest) (vocab.Request, error) {
	if s.cfg.Shadow {
		return vocab.Request{}, ErrShadow
	}
	if err := s.Recover(ctx); err != nil {
		return vocab.Request{}, fmt.Errorf("recovering interrupted sends first: %w", err)
	}
	req, err := s.register(ctx, nr)
	if err != nil {
		return vocab.Request{}, err
	}
	return s.send(ctx, req)
}

// ErrHeld: an automatic trigger registered nothing, because a request of
// its kind is open or was answered within request.timeout.
var ErrHeld = errors.New("held by another request of its kind")

func (s *Service) register(ctx context.Context, nr store.NewRequest) (vocab.Request, error) {
	now := s.clk.Now()
	tx, err := s.st.Begin(ctx)
	if err != nil {
		return vocab.Request{}, err
	}
	defer tx.Rollback(ctx)
	var old []int64
	if vocab.RequestOrigin(nr.Origin) == vocab.OriginOperator {
		old, err = tx.ExpireRequestKey(ctx, store.ExpireRequestKeyParams{Key: nr.Key, Note: "superseded by a new request", Now: now})
	} else {
		old, err = s.held(ctx, tx, nr.Key, now)
	}
	if err != nil {
		return vocab.Request{}, err
	}
	if nr.Seqn, err = tx.NextRequestSeqn(ctx); err != nil {
		return vocab.Request{}, err
	}
	nr.Sender, nr.Now, nr.ExpiresAt = s.cfg.Sender, now, now.Add(s.cfg.Timeout)
	req, err := tx.InsertRequest(ctx, nr)
	if errors.Is(err, store.ErrDuplicate) && vocab.RequestOrigin(nr.Origin) != vocab.OriginOperator {
		return vocab.Request{}, fmt.Errorf("%w: a request of kind %s was registered meanwhile", ErrHeld, nr.Key)
	}
	if err != nil {
		return vocab.Request{}, err
	}
	if err := tx.Commit(ctx); err != nil {
		return vocab.Request{}, err
	}
	if len(old) > 0 {
		s.log.Info("request superseded", "req_id", old[0], "by", req.ID, "kind", req.Key)
	}
	return req, nil
}

// held is an automatic trigger's check, in its registering transaction
// (docs/requests.md): a request of the kind still waiting for its answer
// (open, not past expires_at: locked, so nothing answers or supersedes it
// meanwhile) or answered within request.timeout holds the trigger
// (ErrHeld). An open request past expires_at is expired here, as the expiry
// job would, and returned. A request registered after the check makes the
// insert fail (one open per kind): held too, never superseded.
func (s *Service) held(ctx context.Context, tx Tx, key string, now time.Time) ([]int64, error) {
	open, err := tx.OpenRequestForUpdate(ctx, key)
	switch {
	case err == nil && now.Before(open.ExpiresAt):
		return nil, fmt.Errorf("%w: request %d (%s, %s) waits for its answer until %s", ErrHeld, open.ID, open.Origin, open.Status,
			open.ExpiresAt.In(s.cfg.Location).Format(time.DateTime))
	case err == nil:
		note := "timed out: no answer by expires_at"
		if open.Status == vocab.RequestRegistered {
			note = "never sent: no outbound row by expires_at"
		}
		return tx.ExpireRequestKey(ctx, store.ExpireRequestKeyParams{Key: key, Note: note, Now: now})
	case !errors.Is(err, store.ErrNotFound):
		return nil, err
	}
	last, err := tx.LastAnsweredRequest(ctx, key)
	switch {
	case err == nil && last.DoneAt != nil && now.Sub(*last.DoneAt) < s.cfg.Timeout:
		return nil, fmt.Errorf("%w: request %d (%s) was answered at %s, within request.timeout", ErrHeld, last.ID, last.Origin,
			last.DoneAt.In(s.cfg.Location).Format(time.DateTime))
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return nil, err
	}
	return nil, nil
}

// send writes the request to coutmsgs and marks it SENT with that row.
func (s *Service) send(ctx context.Context, req vocab.Request) (vocab.Request, error) {
	body := s.encode(req)
	insertedAt := s.clk.Now()
	id, err := s.mb.InsertOutbound(ctx, mailbox.InsertOutboundParams{Body: body, InsertedAt: insertedAt, RoutingID: s.cfg.RoutingID})
	if err != nil {
		return req, fmt.Errorf("request %d registered but not sent: %w", req.ID, err)
	}
	failpoint(failAfterInsert)
	if err := s.markSent(ctx, req, id, insertedAt); err != nil {
		return req, fmt.Errorf("request %d inserted as coutmsgs %d but not marked SENT (recovered before the next send): %w", req.ID, id, err)
	}
	s.log.Info("request sent", "req_id", req.ID, "kind", req.Key, "seqn", req.Seqn, "coutmsgs_id", id)
	if s.obs != nil {
		s.obs.RequestSent(req.Type)
	}
	return s.st.Request(ctx, req.ID)
}

func (s *Service) markSent(ctx context.Context, req vocab.Request, outboundID int64, at time.Time) error {
	return s.st.MarkRequestSent(ctx, store.MarkRequestSentParams{ID: req.ID, OutboundID: outboundID, SentAt: at, ExpiresAt: at.Add(s.cfg.Timeout)})
}

// encode is the request's XML: META DTTM is its registration time.
func (s *Service) encode(req vocab.Request) []byte {
	meta := sis.RequestMeta{Sender: req.Sender, Seq: req.Seqn, Sent: req.RegisteredAt, Location: s.cfg.Location}
	if req.Type == respmatch.TypeFlights {
		return sis.EncodeRQFD(meta, *req.RangeBegin, *req.RangeEnd)
	}
	return sis.EncodeRQRD(meta, req.List)
}

// Recover finishes interrupted sends: a REGISTERED request whose row is in
// coutmsgs (found by our SNDR and its SEQN, inserted since it was
// registered) is marked SENT with that row. One without a row was never
// sent; it stays REGISTERED until superseded or expired. Never resends.
func (s *Service) Recover(ctx context.Context) error {
	open, err := s.st.OpenRequests(ctx)
	if err != nil {
		return err
	}
	opt := sis.DefaultOptions()
	opt.Location = s.cfg.Location
	for _, req := range open {
		if req.Status != vocab.RequestRegistered {
			continue
		}
		rows, err := s.mb.FindOutbound(ctx, mailbox.FindOutboundParams{Sender: req.Sender, Seqn: req.Seqn, Since: req.RegisteredAt, Limit: 10})
		if err != nil {
			return err
		}
		for _, r := range rows {
			if !ours(r, req, opt) {
				continue
			}
			err := s.markSent(ctx, req, r.ID, r.InsertedAt)
			if err != nil && !errors.Is(err, store.ErrNotFound) { // ErrNotFound: no longer REGISTERED
				return err
			}
			s.log.Warn("request send recovered: its coutmsgs row exists, marked SENT without resending",
				"req_id", req.ID, "kind", req.Key, "seqn", req.Seqn, "coutmsgs_id", r.ID)
			break
		}
	}
	return nil
}

// ours confirms a coutmsgs row is the request: same SNDR, SEQN and kind.
func ours(r mailbox.Outbound, req vocab.Request, opt sis.Options) bool {
	m, err := sis.Decode([]byte(r.Body), opt)
	if err != nil || m.Kind != sis.KindRequest || m.Meta.Sender != req.Sender || m.Meta.Seq != req.Seqn {
		return false
	}
	o, ok := outboundOf(r, opt)
	return ok && o.Key == req.Key
}

// List pages the requests newest first (beforeID 0: from the newest).
func (s *Service) List(ctx context.Context, beforeID int64, limit int) ([]vocab.Request, error) {
	if beforeID <= 0 {
		beforeID = 1<<63 - 1
	}
	return s.st.Requests(ctx, beforeID, limit)
}

// UTC returns a request with its times in UTC: how every JSON document
// carries them (docs/api.md, "Times"); tables and pages convert to the
// airport zone themselves.
func UTC(r vocab.Request) vocab.Request {
	in := func(t *time.Time) *time.Time {
		if t == nil {
			return nil
		}
		v := t.UTC()
		return &v
	}
	r.RangeBegin, r.RangeEnd, r.SentAt, r.DoneAt = in(r.RangeBegin), in(r.RangeEnd), in(r.SentAt), in(r.DoneAt)
	r.RegisteredAt, r.ExpiresAt = r.RegisteredAt.UTC(), r.ExpiresAt.UTC()
	return r
}

// Location is the airport zone request ranges are read in.
func (s *Service) Location() *time.Location { return s.cfg.Location }
