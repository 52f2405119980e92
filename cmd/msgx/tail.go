package main

import (
	"context"
	"fmt"

	"github.com/msgx-aodb/msgx/internal/app"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/oneline"
)

func init() {
	register("tail", "print the records of the msg or schd topic (key, headers, value)", runTail)
}

const tailUsage = `usage: msgx tail [--topic msg|schd|NAME] [--from-start [--to-end]] [--max N] [--config FILE]

Consumes a topic from the configured Kafka cluster (kafka.brokers /
MSGX_KAFKA_BROKERS) and prints each record: topic, partition, offset and
time, the key (the FLID), one line per header (event-id, idempotency-key,
state-version, event-type, cminmsgs-id) and the value (the flight state JSON;
null for a tombstone). By default only records produced from now on, until
Ctrl-C or --max; --from-start prints the topic from its earliest record and
keeps waiting for new ones, unless --to-end: then it stops at the end the
topic had when tail started (what a script wants: "print what is there"). With 'msgx serve' in dev and no brokers configured, use the address
of the embedded broker that serve logs.

Exit codes: 0 stopped (Ctrl-C, --max or --to-end reached); 1 the cluster or topic is
unreachable; 2 bad flags or invalid configuration.`

func runTail(ctx context.Context, args []string, s streams) int {
	fs := newFlags("tail", tailUsage)
	configPath := configFlag(fs)
	topic := fs.String("topic", "msg", "msg (every change), schd (latest state per flight) or a topic name")
	fromStart := fs.Bool("from-start", false, "print the topic from its earliest record")
	max := fs.Int("max", 0, "stop after N records (0: until Ctrl-C)")
	toEnd := fs.Bool("to-end", false, "with --from-start: stop at the end the topic had at the start, instead of waiting for new records")
	if code, ok := parseFlags(fs, args, s); !ok {
		return code
	}
	if fs.NArg() > 0 || *max < 0 {
		fmt.Fprintf(s.err, "msgx tail: unexpected arguments (see msgx tail --help)\n")
		return exitUsage
	}
	if *toEnd && !*fromStart {
		fmt.Fprintln(s.err, "msgx tail: --to-end needs --from-start (from now on, the end is reached at once)")
		return exitUsage
	}
	cfg, ok := loadConfig("tail", *configPath, s)
	if !ok {
		return exitUsage
	}
	kc := app.KafkaConfig(cfg)
	if len(kc.Brokers) == 0 {
		fmt.Fprintln(s.err, "msgx tail: kafka.brokers (MSGX_KAFKA_BROKERS) is not set; for 'msgx serve' in dev, use the embedded broker address it logs")
		return exitUsage
	}
	name := *topic
	switch name {
	case "msg":
		name = kc.TopicMsg
	case "schd":
		name = kc.TopicSchd
	}
	err := kafka.Tail(ctx, kc, name, kafka.TailOptions{FromStart: *fromStart, Max: *max, ToEnd: *toEnd}, s.out)
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(s.err, "msgx tail: %s\n", oneline.Err(err))
		return exitFailure
	}
	return exitOK
}
