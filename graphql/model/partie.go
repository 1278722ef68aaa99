package model

import "arbitre/domain/duplicate"

// Partie is the public view of a duplicate game. It keeps the aggregate for
// the fields computed on demand (solutions), so they cost nothing unless
// asked for.
type Partie struct {
	ID         string
	Tournoi    *string
	Numero     *int
	Statut     string
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

	Domaine *duplicate.Partie `json:"-"`
}
