package graphql

import (
	"arbitre/domain/acces"
	"arbitre/engine/lexicon"
	"arbitre/engine/solve"
)

// Resolver is the root of the resolvers: the dependencies they call.
type Resolver struct {
	Version string
	Lexicon *lexicon.Lexicon
	Engine  *solve.Pool
	Acces   *acces.Service
}
