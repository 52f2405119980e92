package doccheck

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const root = "../.."

// The README is the first screen a newcomer reads: what msgx is, the two
// commands, where to look. Measurements, history and how-tos live in docs/.
func TestReadmeFitsOnAScreen(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	n := strings.Count(string(b), "\n")
	require.LessOrEqual(t, n, 300, "README.md has %d lines: move detail to docs/ and link it", n)
}

// Every relative link of the README, CONTRIBUTING.md, CHANGELOG.md and the
// pages under docs/ names a file or directory that exists, and a #fragment
// into a Markdown file names one of its headings (or an <a id>).
func TestDocLinksResolve(t *testing.T) {
	pages := []string{"README.md", "CONTRIBUTING.md", "CHANGELOG.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(root, p)
			pages = append(pages, rel)
		}
		return err
	})
	require.NoError(t, err)
	for _, page := range pages {
		for _, link := range relativeLinks(t, page) {
			target, frag, _ := strings.Cut(link, "#")
			path := filepath.Join(root, filepath.Dir(page), target)
			if target == "" {
				path = filepath.Join(root, page)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %q: %s does not exist", page, link, target)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") && !anchors(t, path)[frag] {
				t.Errorf("%s: link %q: no heading or anchor %q in %s", page, link, frag, target)
			}
		}
	}
}

var (
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fence  = regexp.MustCompile("(?ms)^ *```.*?^ *```")
)

// relativeLinks are the page's Markdown link targets outside code blocks
// that are not URLs.
func relativeLinks(t *testing.T, page string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, page))
	require.NoError(t, err)
	var out []string
	for _, m := range mdLink.FindAllStringSubmatch(fence.ReplaceAllString(string(b), ""), -1) {
		if l := m[1]; !regexp.MustCompile(`^[a-z]+:`).MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

var (
	heading  = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
	anchorID = regexp.MustCompile(`<a id="([^"]+)">`)
	notSlug  = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
)

// anchors are the fragments GitHub gives a page's headings (lower case,
// punctuation dropped, spaces as -, repeats numbered) and its <a id>s.
func anchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	text := fence.ReplaceAllString(string(b), "")
	seen := map[string]int{}
	out := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(text, -1) {
		slug := strings.ReplaceAll(notSlug.ReplaceAllString(strings.ToLower(m[1]), ""), " ", "-")
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	for _, m := range anchorID.FindAllStringSubmatch(text, -1) {
		out[m[1]] = true
	}
	return out
}

// docs/console.png is a screenshot of the console's queue page after the
// sample day. docs/dev/console-png.inputs records the SHA-256 of the files
// that page is rendered from when the picture was taken
// (scripts/console-png.sh writes both): a change to them without a new
// picture fails here.
func TestConsolePngIsCurrent(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "docs/dev/console-png.inputs"))
	require.NoError(t, err, "run scripts/console-png.sh")
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	require.NotEmpty(t, lines)
	for _, line := range lines {
		sum, name, ok := strings.Cut(line, "  ")
		require.True(t, ok, "sha256sum format: %q", line)
		data, err := os.ReadFile(filepath.Join(root, name))
		require.NoError(t, err)
		got := sha256.Sum256(data)
		require.Equal(t, sum, hex.EncodeToString(got[:]),
			"%s changed since docs/console.png was taken: run scripts/console-png.sh (needs chromium) and commit both", name)
	}
}
