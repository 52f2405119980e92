package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/msgx-aodb/msgx/internal/app"
	"github.com/msgx-aodb/msgx/internal/config"
)

// configFlag adds --config to a command's flags.
func configFlag(fs *flag.FlagSet) *string {
	return fs.String("config", "", "YAML configuration file (default $MSGX_CONFIG; MSGX_* variables override it; docs/config.md)")
}

// loadConfig loads the configuration for a command; on error it prints one
// line per invalid key and returns false (the command exits 2). Its
// warnings (a key under its former name) are printed too, except for serve,
// which logs them (app.Serve).
func loadConfig(cmd, path string, s streams) (config.Config, bool) {
	cfg, err := app.LoadConfig(path, os.Getenv)
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(s.err, "msgx %s: %s\n", cmd, line)
		}
		return cfg, false
	}
	if cmd != "serve" {
		for _, w := range cfg.Warnings {
			fmt.Fprintf(s.err, "msgx %s: warning: %s\n", cmd, w)
		}
	}
	return cfg, true
}
