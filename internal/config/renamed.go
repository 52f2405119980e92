package config

import (
	"fmt"

	"github.com/knadh/koanf/v2"
)

// renamed are the keys that had another name before. Load still reads a
// former name, in the file and as its variable, at its own layer (a file's
// former key yields to the environment like any file key), and says so in
// Config.Deprecated; the new name wins when both are set in one layer.
var renamed = []struct{ former, formerEnv, key string }{
	// The section was named for the table the relay reads, not for the relay.
	{"outbox.batch-size", "MSGX_OUTBOX_BATCH_SIZE", "relay.batch-size"},
	{"outbox.max-attempts", "MSGX_OUTBOX_MAX_ATTEMPTS", "relay.max-attempts"},
	{"outbox.backoff-base", "MSGX_OUTBOX_BACKOFF_BASE", "relay.backoff-base"},
	{"outbox.backoff-cap", "MSGX_OUTBOX_BACKOFF_CAP", "relay.backoff-cap"},
	// Nothing is claimed: the poller reads rows per poll.
	{"pipeline.claim-batch", "MSGX_CLAIM_BATCH", "pipeline.poll-batch"},
}

// isFormer reports whether key is a former name.
func isFormer(key string) bool {
	for _, r := range renamed {
		if r.former == key {
			return true
		}
	}
	return false
}

// fileFormer moves the file's former keys to their names (k holds the file
// alone) and returns one warning per former key found.
func fileFormer(k *koanf.Koanf, path string) []string {
	var warn []string
	for _, r := range renamed {
		if !k.Exists(r.former) {
			continue
		}
		if k.Exists(r.key) {
			warn = append(warn, fmt.Sprintf("%s in %s is ignored: %s is set there too (the former name is deprecated; remove it)", r.former, path, r.key))
		} else {
			_ = k.Set(r.key, k.Get(r.former)) // only a key that is a map's parent fails: none is
			warn = append(warn, fmt.Sprintf("%s in %s is deprecated: it is %s now (docs/config.md)", r.former, path, r.key))
		}
		k.Delete(r.former)
	}
	return warn
}

// envFormer adds the values of former variables to fromEnv under their
// keys and returns one warning per former variable set.
func envFormer(getenv func(string) string, fromEnv map[string]any) []string {
	var warn []string
	for _, r := range renamed {
		v := getenv(r.formerEnv)
		if v == "" {
			continue
		}
		env := EnvOf(r.key)
		if _, set := fromEnv[r.key]; set {
			warn = append(warn, fmt.Sprintf("%s is ignored: %s is set too (the former name is deprecated; remove it)", r.formerEnv, env))
			continue
		}
		fromEnv[r.key] = v
		warn = append(warn, fmt.Sprintf("%s is deprecated: it is %s now (docs/config.md)", r.formerEnv, env))
	}
	return warn
}
