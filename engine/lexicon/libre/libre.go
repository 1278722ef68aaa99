// Package libre ships Arbitre's default lexicon: the MIT-licensed French word
// list of the npm package an-array-of-french-words 2.0.0 (see LICENSE),
// entries with hyphens or apostrophes left out, folded to A–Z and compiled.
// It is NOT the Officiel du Scrabble: directors point --lexicon at their
// licensed ODS for tournaments.
//
// words.txt.gz was made from the package's index.json with
//
//	node -e 'const w=require("./index.json").filter(x=>/^[\p{L}]+$/u.test(x));require("fs").writeFileSync("words.txt",w.join("\n")+"\n")'
//	gzip -9n words.txt
//
// and libre.lex is compiled from it by `go generate`.
package libre

import (
	_ "embed"
	"sync"

	"arbitre/engine/lexicon"
)

//go:generate go run gen.go

//go:embed libre.lex
var compiled []byte

// ancienLabel is the label the list was compiled under until issue 31, in
// English: the games created then recorded it and keep their list.
const ancienLabel = "an-array-of-french-words 2.0.0 (MIT), folded to A-Z; not the ODS"

// Lexicon returns the shipped lexicon, decoded once.
var Lexicon = sync.OnceValues(func() (*lexicon.Lexicon, error) {
	lex, err := lexicon.Decode(compiled)
	if err != nil {
		return nil, err
	}
	return lex.ConnuAussi(ancienLabel), nil
})
