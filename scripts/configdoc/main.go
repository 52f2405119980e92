// Command configdoc writes docs/config.md and docs/config.example.yaml from
// the configuration table (run by `make generate`).
package main

import (
	"log"
	"os"

	"github.com/msgx-aodb/msgx/internal/config"
)

func main() {
	if err := os.WriteFile("docs/config.md", []byte(config.Markdown()), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("docs/config.example.yaml", []byte(config.ExampleYAML()), 0o644); err != nil {
		log.Fatal(err)
	}
}
