package archive

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestIssue34_IdentifiantSansExpressionReguliere: the loop that checks an
// id of the archive admits exactly what the expression it replaced did.
func TestIssue34_IdentifiantSansExpressionReguliere(t *testing.T) {
	expression := regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	for _, v := range []string{"", "a", "Z", "0", "9", "-", "_", "d2006-0001", "c2006-0001-r1-t12", "0001234",
		strings.Repeat("a", 64), strings.Repeat("a", 65), "a b", "a.b", "a/b", "é", "a\n", "\x00", "a;b", "'a", "[", "`", "{", "@", "/", ":"} {
		assert.Equal(t, expression.MatchString(v), identifiant(v), "%q", v)
	}
	for c := range 256 {
		v := "x" + string([]byte{byte(c)})
		assert.Equal(t, expression.MatchString(v), identifiant(v), "%q", v)
	}
}
