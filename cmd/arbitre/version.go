package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Build facts, overridable at link time:
//
//	go build -ldflags "-X main.version=v1.2.0 -X main.commit=abc1234 -X main.buildDate=2026-11-23T07:00:00Z" ./cmd/arbitre
//
// Left empty, they come from the module and VCS facts the Go toolchain
// records in the binary (runtime/debug.ReadBuildInfo).
var (
	version   string
	commit    string
	buildDate string
)

// buildFacts is what `arbitre version` prints.
type buildFacts struct {
	Version, Commit, Date string
}

// factsOf merges the link-time overrides over the build info the toolchain
// recorded (info, ok from debug.ReadBuildInfo); what stays unknown reads
// "inconnu(e)".
func factsOf(info *debug.BuildInfo, ok bool) buildFacts {
	var recorded buildFacts
	if ok {
		recorded.Version = info.Main.Version
		modified := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				recorded.Commit = s.Value
			case "vcs.time":
				recorded.Date = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if modified && recorded.Commit != "" {
			recorded.Commit += " (modifié)"
		}
	}
	return buildFacts{
		Version: firstKnown(version, recorded.Version, "inconnue"),
		Commit:  firstKnown(commit, recorded.Commit, "inconnu"),
		Date:    firstKnown(buildDate, recorded.Date, "inconnue"),
	}
}

// firstKnown is the first value that says something: neither empty nor the
// toolchain's "(devel)" placeholder.
func firstKnown(values ...string) string {
	for _, v := range values {
		if v != "" && v != "(devel)" {
			return v
		}
	}
	return ""
}

// binaire is this binary's build facts.
var binaire = factsOf(debug.ReadBuildInfo())

func init() {
	rootCmd.AddCommand(&cobra.Command{
		Use:     "version",
		Short:   "Affiche la version, le commit et la date de construction du binaire",
		Example: "  arbitre version",
		Args:    aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(cmd.OutOrStdout(), "arbitre %s\ncommit : %s\nconstruit le : %s\n", binaire.Version, binaire.Commit, binaire.Date)
			return nil
		},
	})
}
