// Prints, for each line of stdin (a quoted string, as Go or JSON writes it), how the Dynamo operator reads it: as an image tag
// (runtimeversion.ParseImageVersion: pattern, then StrictNewVersion without v) and as an
// operator release (semver.NewVersion, as the origin-version gate and defaulting do).
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	semver "github.com/Masterminds/semver/v3"
)

var imageTagPattern = regexp.MustCompile(`^[vV]?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:-((?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$`)

func main() {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		tag, err := strconv.Unquote(in.Text())
		if err != nil {
			fmt.Fprintln(os.Stderr, "each line must be a quoted Go string:", in.Text())
			os.Exit(2)
		}
		img := "-"
		trimmed := strings.TrimSpace(tag)
		if imageTagPattern.MatchString(trimmed) {
			if v, err := semver.StrictNewVersion(strings.TrimPrefix(strings.TrimPrefix(trimmed, "v"), "V")); err == nil {
				img = fmt.Sprintf("%d.%d.%d", v.Major(), v.Minor(), v.Patch())
			}
		}
		rel := "-"
		if v, err := semver.NewVersion(tag); err == nil {
			rel = fmt.Sprintf("%d.%d.%d", v.Major(), v.Minor(), v.Patch())
		}
		fmt.Printf("%q\t%s\t%s\n", tag, img, rel)
	}
}
