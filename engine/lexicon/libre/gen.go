//go:build ignore

// gen compiles words.txt.gz into libre.lex (run by go generate).
package main

import (
	"log"
	"os"

	"arbitre/engine/lexicon"
)

// label names the list wherever the lexicon is reported, for people (in
// French); its first word is the name GCG readers load it by.
const label = "an-array-of-french-words 2.0.0 (licence MIT), accents retirés ; ce n'est pas l'ODS"

func main() {
	src, err := os.Open("words.txt.gz")
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	lex, err := lexicon.Compile(src, label)
	if err != nil {
		log.Fatal(err)
	}
	out, err := os.Create("libre.lex")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := lex.WriteTo(out); err != nil {
		log.Fatal(err)
	}
	if err := out.Close(); err != nil {
		log.Fatal(err)
	}
}
