package lexicon

import (
	"path/filepath"
	"strings"
)

// Nom is the short name a lexicon goes by outside Arbitre, the one a GCG
// reader loads a lexicon by (`#lexicon ODS8`): the label's first word
// ("ODS8, licence FISF" → "ODS8"). A label that is a file's path (a plain
// word list loaded without compilation was labelled with its path, and
// games recorded it) gives
// the file's name without its directory nor extensions, in capitals
// ("/srv/lexiques/ods8.txt.gz" → "ODS8"): never a path of the server.
func Nom(label string) string {
	label = strings.TrimSpace(label)
	if strings.ContainsAny(label, `/\`) || strings.Contains(filepath.Base(label), ".") && !strings.ContainsAny(label, " ,") {
		return NomDeFichier(label)
	}
	nom, _, _ := strings.Cut(label, " ")
	return strings.TrimRight(nom, ",;:")
}

// NomDeFichier is the name of the word list in file path: its base name
// without extensions, in capitals ("ods8.txt.gz" → "ODS8"). It is the label
// `arbitre lexicon compile` gives a lexicon compiled without --label, and
// Load a plain word list.
func NomDeFichier(path string) string {
	base := filepath.Base(strings.ReplaceAll(path, `\`, "/"))
	nom, _, _ := strings.Cut(base, ".")
	return strings.ToUpper(nom)
}
