package model

import "arbitre/domain/duplicate"

// Partie is the public view of a duplicate game; the fields computed on
// demand (solutions, chrono) have resolvers, so they cost nothing unless asked for.
type Partie struct {
	ID         string
	Tournoi    *string
	Numero     *int
	Lexique    *string
	Statut     duplicate.Statut
	Version    int
	Coup       int
	Config     *ConfigPartie
	Grille     []string
	Tirage     *string
	Sac        int
	Joueurs    []string
	Tops       []TopRetenu
	DernierTop *TopRetenu
	Fin        *FinPartie
	// Minuteur is the chrono as the events leave it; the chrono field
	// reads it at the server's time.
	Minuteur duplicate.Chrono

	// The tirage on the stand as announced (§3.1) and the rejets before it (§3.2).
	Reliquat  *string
	Nouvelles *string
	Rejets    []RejetTirage
}
