// Package francais checks that a message for people is French: the tests of
// the API's refusals (unit and end-to-end) share this one word list.
package francais

import (
	"regexp"
	"strings"
)

// motsAnglais betray an English fragment in a message for people.
var motsAnglais = strings.Fields(`the is not at of invalid must cannot can turn rounds round found expected
	got no has have already only and or to in with without first needs does did unknown empty player players
	game games tile letters letter word words bag rack draw drawn time exhausted registered closed published
	seeding pairing tournament result sheet penalty exchange contested pending refused error failed stream
	revision event he his may be are was missing over apart query field type argument variable syntax`)

var (
	// verbes are format verbs and values quoted « like this » (the API's
	// own identifiers), left out.
	verbes = regexp.MustCompile(`%[-+# 0-9.*]*[a-zA-Z]|«[^»]*»`)
	mots   = regexp.MustCompile(`[\p{L}']+`)
)

// Anglais returns the English words of msg, in the list's order.
func Anglais(msg string) []string {
	vus := map[string]bool{}
	for _, m := range mots.FindAllString(strings.ToLower(verbes.ReplaceAllString(msg, " ")), -1) {
		vus[m] = true
	}
	var out []string
	for _, m := range motsAnglais {
		if vus[m] {
			out = append(out, m)
		}
	}
	return out
}
