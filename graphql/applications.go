package graphql

// The use cases the resolvers call, made for who acts: with Resolver's
// construction (resolver.go) the one place that wires repositories and the
// log into use cases; every other file reads through r.Queries and acts
// through these.

import (
	"context"

	appadapters "arbitre/domain/appel/adapters"
	appcommand "arbitre/domain/appel/command"
	clqcommand "arbitre/domain/classique/command"
	dupcommand "arbitre/domain/duplicate/command"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	fedcommand "arbitre/domain/federation/command"
	tcommand "arbitre/domain/tournoi/command"
)

// partieApp is the duplicate use cases acting for md.
func (r *Resolver) partieApp(md eventstore.Metadata) *dupcommand.Application {
	return dupcommand.New(r.Parties, r.Moteur, r.Clock, md)
}

// tournoiApp is the tournament use cases acting for md; opening a game
// also opens it through the duplicate use cases.
func (r *Resolver) tournoiApp(md eventstore.Metadata) *tcommand.Application {
	return tcommand.New(r.TournoiDepot, md).AvecJeux(tcommand.Jeux{Parties: r.Parties, App: r.partieApp(md), Cumul: r.cumulDuTournoi})
}

// appelApp is the appeal use cases acting for md, checked against the
// stored games and tournaments; a decision on a bulletin goes to the game
// through the duplicate use cases.
func (r *Resolver) appelApp(md eventstore.Metadata) *appcommand.Application {
	return appcommand.New(r.Appels, appadapters.NewFaits(r.Parties, r.TournoiDepot, r.Journal), appcommand.NewCorrecteurDuplicate(r.partieApp(md)), r.Clock, md)
}

// ReprendreDecisions completes the appeal decisions a crash left half
// written (command.Reprendre); serve runs it at start.
func (r *Resolver) ReprendreDecisions(ctx context.Context) error {
	return appcommand.Reprendre(ctx, r.Journal, r.Registry, r.appelApp(eventstore.Metadata{}))
}

// classiqueApp is the classique use cases acting for md; a player
// registered without a cote enters with the archive's latest.
func (r *Resolver) classiqueApp(md eventstore.Metadata) *clqcommand.Application {
	return clqcommand.New(r.Classiques, r.Matchs, r.ReglesClassique, r.Hasard, md).AvecCotesConnues(r.Archives)
}

// twinning is the use cases of the tournaments twinned over the Internet,
// acting for md.
func (r *Resolver) twinning(md eventstore.Metadata) *fedcommand.Twinning {
	return fedcommand.NewTwinning(r.Jumelages, r.Queries().Federation.Principal, md)
}

// federationApp is the use cases of the events played in many centres.
func (r *Resolver) federationApp(md eventstore.Metadata) *fedcommand.Application {
	return fedcommand.New(r.Epreuves, md)
}

// archiveImport is the archive's streams for one import through the API,
// the positions of what it appends noted among the imports in flight (m,
// importsEnCours) so that the archive's reads do not wait for it.
func (r *Resolver) archiveImport() (m *magasinImport, flux repository.Streams) {
	m = &magasinImport{Store: r.Archive.Store, suivi: &r.imports}
	return m, repository.Streams{Store: m, Registry: r.Archive.Registry}
}
