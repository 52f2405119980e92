package kafka

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TailOptions says where Tail starts and when it stops.
type TailOptions struct {
	FromStart bool // from the earliest record; default: only records produced from now on
	Max       int  // stop after this many records; 0: until ctx is done
	// ToEnd stops once every partition is read up to its end as it was at
	// the start (records produced meanwhile are not waited for).
	ToEnd bool
}

// Tail consumes topic and prints each record as one block: topic,
// partition, offset and time, the key, one line per header and the value
// (null for a tombstone), then a blank line. It returns nil when ctx is done,
// Max records were printed, or (ToEnd) the end of the topic was reached.
func Tail(ctx context.Context, cfg Config, topic string, opts TailOptions, w io.Writer) error {
	start := kgo.NewOffset().AtEnd()
	if opts.FromStart {
		start = kgo.NewOffset().AtStart()
	}
	cl, err := NewClient(cfg, kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(start))
	if err != nil {
		return err
	}
	defer cl.Close()
	setting := "--topic"
	for _, t := range cfg.Topics() {
		if t.Name == topic {
			setting = t.Setting
		}
	}
	cctx, cancel := context.WithTimeout(ctx, cfg.DialTimeout+cfg.ProduceTimeout)
	err = CheckTopics(cctx, cl, Topic{Name: topic, Setting: setting})
	cancel()
	if err != nil {
		return err
	}

	var todo map[int32]int64 // ToEnd: per partition, the offset it ends at
	if opts.ToEnd {
		if todo, err = unread(ctx, cl, topic, opts.FromStart); err != nil {
			return err
		}
	}
	printed := 0
	for {
		if todo != nil && len(todo) == 0 {
			return nil
		}
		fetches := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err := fetchError(fetches); err != nil {
			return err
		}
		for it := fetches.RecordIter(); !it.Done(); {
			r := it.Next()
			if end, ok := todo[r.Partition]; ok && r.Offset >= end {
				continue // produced after the start: not waited for, not printed
			}
			if err := printRecord(w, r); err != nil {
				return err
			}
			if end, ok := todo[r.Partition]; ok && r.Offset+1 >= end {
				delete(todo, r.Partition)
			}
			if printed++; opts.Max > 0 && printed >= opts.Max {
				return nil
			}
		}
	}
}

// unread is, per partition of topic with records to read, the end offset
// at this moment: from the log start (fromStart) or from the end (nothing).
func unread(ctx context.Context, cl *kgo.Client, topic string, fromStart bool) (map[int32]int64, error) {
	adm := kadm.NewClient(cl)
	ends, err := adm.ListEndOffsets(ctx, topic)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return nil, fmt.Errorf("kafka: end offsets of %s: %w", topic, err)
	}
	todo := map[int32]int64{}
	if !fromStart {
		return todo, nil // from the end, the end is reached at once
	}
	starts, err := adm.ListStartOffsets(ctx, topic)
	if err == nil {
		err = starts.Error()
	}
	if err != nil {
		return nil, fmt.Errorf("kafka: start offsets of %s: %w", topic, err)
	}
	ends.Each(func(o kadm.ListedOffset) {
		if s, ok := starts.Lookup(topic, o.Partition); !ok || s.Offset < o.Offset {
			todo[o.Partition] = o.Offset
		}
	})
	return todo, nil
}

// fetchError returns the first error that is not the end of the poll.
func fetchError(f kgo.Fetches) error {
	for _, fe := range f.Errors() {
		if errors.Is(fe.Err, context.Canceled) || errors.Is(fe.Err, context.DeadlineExceeded) || errors.Is(fe.Err, kgo.ErrClientClosed) {
			continue
		}
		return fmt.Errorf("kafka: fetch %s[%d]: %w", fe.Topic, fe.Partition, fe.Err)
	}
	return nil
}

func printRecord(w io.Writer, r *kgo.Record) error {
	value := string(r.Value)
	if r.Value == nil {
		value = "null (tombstone)"
	}
	_, err := fmt.Fprintf(w, "%s partition %d offset %d at %s\nkey: %s\n", r.Topic, r.Partition, r.Offset, r.Timestamp.UTC().Format(time.RFC3339Nano), r.Key)
	for _, h := range r.Headers {
		if err == nil {
			_, err = fmt.Fprintf(w, "header %s: %s\n", h.Key, h.Value)
		}
	}
	if err == nil {
		_, err = fmt.Fprintf(w, "value: %s\n\n", value)
	}
	return err
}
