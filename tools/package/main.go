// Command package builds msgx's Debian package (`make package`) with nfpm
// as a library: the binary, the site configuration and the secrets file
// under /etc/msgx (conffiles), the systemd units, the maintainer scripts,
// the docs under /usr/share/doc/msgx and the Prometheus alerts and Grafana
// dashboard under /usr/share/msgx. Everything comes from the repository
// (deploy/, docs/, README.md); nothing is fetched.
//
// A nested module, like tools/oraclecheck: nfpm's dependencies stay out of
// msgx's go.mod and binary.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/goreleaser/nfpm/v2"
	"github.com/goreleaser/nfpm/v2/deb"
	"github.com/goreleaser/nfpm/v2/files"
)

func main() {
	root := flag.String("root", "../..", "the repository's root")
	binary := flag.String("binary", "", "the msgx binary to package (built with the version stamped: make build)")
	version := flag.String("version", "", "the build's version (git describe), made a Debian version")
	out := flag.String("out", "dist", "directory to write msgx_<version>_amd64.deb into")
	flag.Parse()
	if *binary == "" || *version == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: package -binary FILE -version VERSION [-root DIR] [-out DIR]")
		os.Exit(2)
	}
	path, err := build(*root, *binary, *version, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "package:", err)
		os.Exit(1)
	}
	fmt.Println(path)
}

// build writes the package and returns its path.
func build(root, binary, version, outDir string) (string, error) {
	info, err := describe(root, binary, DebVersion(version))
	if err != nil {
		return "", err
	}
	info = nfpm.WithDefaults(info)
	if err := nfpm.PrepareForPackager(info, "deb"); err != nil {
		return "", err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(outDir, deb.Default.ConventionalFileName(info))
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if err := deb.Default.Package(info, f); err != nil {
		f.Close()
		os.Remove(path)
		return "", err
	}
	return path, f.Close()
}

// describe is the package: its metadata, files and scripts.
func describe(root, binary, version string) (*nfpm.Info, error) {
	at := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	file := func(src, dst, typ string, mode os.FileMode) *files.Content {
		return &files.Content{Source: src, Destination: dst, Type: typ,
			FileInfo: &files.ContentFileInfo{Owner: "root", Group: "root", Mode: mode}}
	}
	contents := files.Contents{
		file(binary, "/usr/bin/msgx", files.TypeFile, 0o755),
		// Conffiles: an admin's edits survive upgrades. postinst gives
		// config.yaml to the msgx group; msgx.env stays root's.
		file(at("deploy/debian/config.yaml"), "/etc/msgx/config.yaml", files.TypeConfigNoReplace, 0o640),
		file(at("deploy/debian/msgx.env"), "/etc/msgx/msgx.env", files.TypeConfigNoReplace, 0o600),
		file(at("deploy/systemd/msgx.service"), "/lib/systemd/system/msgx.service", files.TypeFile, 0o644),
		file(at("deploy/systemd/msgx@.service"), "/lib/systemd/system/msgx@.service", files.TypeFile, 0o644),
		file(at("deploy/prometheus/msgx-alerts.yml"), "/usr/share/msgx/prometheus/msgx-alerts.yml", files.TypeFile, 0o644),
		file(at("deploy/grafana/msgx.json"), "/usr/share/msgx/grafana/msgx.json", files.TypeFile, 0o644),
		file(at("README.md"), "/usr/share/doc/msgx/README.md", files.TypeFile, 0o644),
		file(at("deploy/debian/standby.env"), "/usr/share/doc/msgx/examples/standby.env", files.TypeFile, 0o644),
	}
	// Every doc (docs/*.md, the example config, the console's picture, the
	// contracts and the flight schema they refer to as schema/NAME): the
	// README links them as docs/NAME. docs/*.go only embeds the contracts.
	docs, err := filepath.Glob(at("docs/*"))
	if err != nil {
		return nil, err
	}
	schemas, err := filepath.Glob(at("docs/schema/*"))
	if err != nil {
		return nil, err
	}
	for _, d := range append(docs, schemas...) {
		if st, err := os.Stat(d); err != nil || st.IsDir() || filepath.Ext(d) == ".go" {
			continue
		}
		rel, err := filepath.Rel(at("docs"), d)
		if err != nil {
			return nil, err
		}
		contents = append(contents, file(d, "/usr/share/doc/msgx/docs/"+filepath.ToSlash(rel), files.TypeFile, 0o644))
	}
	// The versioned migrations, for the DBA to review before
	// `msgx schema migrate` runs the copy built into the binary, and for
	// SQL*Plus or the atlas CLI (docs/upgrade.md).
	for dialect, glob := range map[string]string{"postgres": "sql/postgres/migrations/*", "oracle11g": "sql/oracle11g/migrations/*.sql"} {
		migrations, err := filepath.Glob(at(glob))
		if err != nil {
			return nil, err
		}
		for _, m := range migrations {
			if filepath.Base(m) == "README.md" {
				continue
			}
			contents = append(contents, file(m, "/usr/share/msgx/migrations/"+dialect+"/"+filepath.Base(m), files.TypeFile, 0o644))
		}
	}
	for _, c := range contents {
		if _, err := os.Stat(c.Source); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Destination, err)
		}
	}
	return &nfpm.Info{
		Name:          "msgx",
		Arch:          "amd64",
		Platform:      "linux",
		Version:       version,
		VersionSchema: "none", // DebVersion made it one already
		Section:       "net",
		Priority:      "optional",
		Maintainer:    "msgx maintainers <msgx@localhost>",
		Description: "SIS mailbox to PostgreSQL and Kafka, strictly in order\n" +
			"msgx takes the SIS XML messages an AODB writes into a shared MySQL\n" +
			"mailbox table in id order, keeps the exact state of every flight in\n" +
			"its own PostgreSQL (or Oracle 11g) and publishes every change to Kafka.\n" +
			"A hardened systemd unit (Type=notify), a template for a standby\n" +
			"instance, Prometheus alerts and a Grafana dashboard are included.",
		Overridables: nfpm.Overridables{
			Depends:  []string{"adduser"},
			Contents: contents,
			Scripts: nfpm.Scripts{
				PostInstall: at("deploy/debian/postinst"),
				PreRemove:   at("deploy/debian/prerm"),
				PostRemove:  at("deploy/debian/postrm"),
			},
		},
	}, nil
}

var (
	release  = regexp.MustCompile(`^v?([0-9]+(?:\.[0-9]+)*)(.*)$`)
	afterTag = regexp.MustCompile(`^-[0-9]+-g[0-9a-f]+(-dirty)?$`)
	invalid  = regexp.MustCompile(`[^A-Za-z0-9.+~]+`)
)

// DebVersion makes a build's version (git describe --always --dirty) a
// Debian version, which must start with a digit and orders sensibly:
// v1.2.3 → 1.2.3; v1.2.3-4-gabc1234-dirty (4 commits after a tag) →
// 1.2.3+4.gabc1234.dirty, after 1.2.3; v2.0.0-rc.1 (a pre-release) →
// 2.0.0~rc.1, before 2.0.0; a bare commit (no tag yet) abc1234 →
// 0.0.0+git.abc1234.
func DebVersion(v string) string {
	v = strings.TrimSpace(v)
	clean := func(s string) string { return strings.Trim(invalid.ReplaceAllString(s, "."), ".") }
	m := release.FindStringSubmatch(v)
	if m == nil || looksLikeHash(v) || (m[2] != "" && !strings.ContainsAny(m[2][:1], "-+~")) {
		return "0.0.0+git." + clean(v)
	}
	switch rest := m[2]; {
	case rest == "":
		return m[1]
	case afterTag.MatchString(rest), rest[0] == '+':
		return m[1] + "+" + clean(rest[1:])
	default: // -rc.1, ~rc.1: a pre-release sorts before its release
		return m[1] + "~" + clean(rest[1:])
	}
}

// looksLikeHash: git describe --always without a tag prints the short
// commit, which may start with digits (2b8a195, 1234567).
func looksLikeHash(v string) bool {
	h, _, _ := strings.Cut(v, "-")
	return len(h) >= 7 && strings.Trim(h, "0123456789abcdef") == ""
}
